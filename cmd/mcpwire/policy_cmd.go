package main

import (
	"github.com/mcpwire/mcpwire/policy"
	"github.com/urfave/cli/v2"
)

func policyCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "credential-policy",
		Usage:     "print or set the write layer's credential policy (literal, references or none)",
		ArgsUsage: "[literal|references|none]",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			if err := maxArgs(c, 1); err != nil {
				return err
			}
			reg, err := env.registry()
			if err != nil {
				return err
			}
			if c.NArg() == 1 {
				l, err := policy.Parse(c.Args().First())
				if err != nil {
					return usagef("%v", err)
				}
				if err := reg.SetPolicy(l); err != nil {
					return err
				}
				printf(env.Stdout, "credential policy set to %s in %s\n", l, reg.Set().Write().Servers.Path)
				return nil
			}
			return printPolicy(env, c)
		},
	}
}

type policyView struct {
	Policy    string     `json:"policy"`
	Personal  *string    `json:"personal"`
	Floor     *floorView `json:"floor"`
	Effective string     `json:"effective"`
	Env       string     `json:"env,omitempty"`
}

type floorView struct {
	Policy string `json:"policy"`
	File   string `json:"file"`
}

func printPolicy(env *Env, c *cli.Context) error {
	reg, _ := env.registry()
	v := policyView{Policy: reg.StoredPolicy().String(), Env: env.Getenv(policy.EnvVar)}
	if p := reg.PersonalPolicy(); p != nil {
		s := p.String()
		v.Personal = &s
	}
	if f := reg.Floor(); f.Set {
		v.Floor = &floorView{Policy: f.Level.String(), File: f.File}
	}
	eff, err := reg.EffectivePolicy(v.Env, nil)
	if err != nil {
		return err
	}
	v.Effective = eff.String()
	if c.Bool("json") {
		return writeJSON(env.Stdout, v)
	}
	printf(env.Stdout, "%s\n", v.Policy)
	if v.Floor != nil {
		printf(env.Stdout, "organisation floor: %s (set in %s)\n", v.Floor.Policy, v.Floor.File)
	}
	if v.Personal != nil {
		printf(env.Stdout, "write layer policy: %s (%s)\n", *v.Personal, reg.Set().Write().Servers.Path)
	}
	if v.Effective != v.Policy {
		printf(env.Stdout, "effective for this run: %s (%s)\n", v.Effective, policy.EnvVar)
	}
	return nil
}
