package main

import (
	"path/filepath"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

// runEphemeral writes a standalone per-run config (C5) and prints how to launch with it.
func runEphemeral(env *Env, c *cli.Context, p *providers.Provider, level *policy.Level) error {
	reg, err := env.registry()
	if err != nil {
		return err
	}
	names, filters, profile, err := selection(c, reg, true)
	if err != nil {
		return err
	}
	if c.Bool("clear-tool-filters") {
		filters = nil
	}
	out := c.String("out")
	if out != "" && !filepath.IsAbs(out) {
		out = filepath.Join(env.Cwd, out)
	}
	f, dr := env.writeFS(c.Bool("dry-run"))
	jo := startJSON(env, c, "inject", dr != nil)
	project, err := project(env, c)
	if err != nil {
		return err
	}
	req := write.Request{
		Registry: reg, Provider: p, Project: project, Servers: names, Filters: filters, Profile: profile,
		Policy: level, PolicyEnv: env.Getenv(policy.EnvVar), Env: env.pathEnv(project), Warn: env.warn,
	}
	verb := "wrote"
	if dr != nil {
		verb = "would write"
	}
	if write.HasRuntimeHome(p) {
		if out != "" {
			return usagef("%s ephemeral output is a runtime home under %s/%s; --out is not supported", p.Name, p.User.Env, write.RuntimeDir)
		}
		name := profile
		if name == "" || name == registry.AllServers {
			name = "custom"
		}
		if !write.ValidRuntimeName(name) {
			return runtimeNameError(p.Name, name)
		}
		rt, err := write.RuntimeHome(f, req, name)
		if err != nil {
			return err
		}
		printf(env.Stdout, "%s: %s %s\n", p.Name, verb, rt.Config)
		sayInputVars(env, []string{p.Name}, rt.InputVars)
		line := write.SecretLaunch(p, rt.Line, rt.Secrets.Vars)
		printf(env.Stdout, "Launch with: %s\n", line.String())
		if jo != nil {
			jo.ephemeral(p.Name, rt.Config, rt.Written, &line)
		} else if dr != nil {
			printDiff(env, dr, reg)
		}
		return jo.finish()
	}
	res, err := write.Ephemeral(f, req, out)
	if err != nil {
		return err
	}
	printf(env.Stdout, "%s: %s %s\n", p.Name, verb, res.Out)
	if res.Settings != "" {
		printf(env.Stdout, "Tool permissions: %s\n", res.Settings)
	}
	sayInputVars(env, []string{p.Name}, res.InputVars)
	launch := res.Launch
	if launch != nil && len(res.Secrets.Vars) > 0 {
		l := write.SecretLaunch(p, *launch, res.Secrets.Vars)
		launch = &l
		printf(env.Stdout, "Launch with: %s\n", l.String())
	} else if line := res.LaunchLine(); line != "" {
		printf(env.Stdout, "Launch with: %s\n", line)
	}
	if jo != nil {
		jo.ephemeral(p.Name, res.Out, res.Written, launch)
		if res.Settings != "" {
			jo.rep.Destinations[0].Settings = res.Settings
			jo.rep.Changed = append(jo.rep.Changed, res.Settings)
		}
	} else if dr != nil {
		printDiff(env, dr, reg)
	}
	return jo.finish()
}
