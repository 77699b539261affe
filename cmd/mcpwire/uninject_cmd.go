package main

import (
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/render"
	"github.com/urfave/cli/v2"
)

func uninjectCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:   "uninject",
		Usage:  "remove servers from a client's file: only entries mcpwire wrote and nobody changed since",
		Flags:  uninjectFlags(),
		Action: func(c *cli.Context) error { return runUninject(env, c) },
	}
}

// uninjectFlags are inject's selection flags (same names and kinds: selection() reads
// them) worded for removal.
func uninjectFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "provider", Usage: "client to remove the servers from (see mcpwire providers)"},
		&cli.StringFlag{Name: "scope", Usage: "project, local or user (default: the provider's usual scope)"},
		&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
		listFlag("servers", "servers to remove (comma list or repeat)"),
		&cli.StringFlag{Name: "profile", Usage: "remove a profile's servers (__all__ = every server)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print each destination and a diff; change nothing"},
		jsonFlag,
	}
}

func runUninject(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	if !c.IsSet("provider") {
		return usagef("uninject needs --provider NAME")
	}
	p, err := provider(c.String("provider"))
	if err != nil {
		return err
	}
	scope, err := scopeFlag(c)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	names, _, profile, err := selectionOf(c, reg, true, false)
	if err != nil {
		return err
	}
	f, dr := env.writeFS(c.Bool("dry-run"))
	out := startJSON(env, c, "uninject", dr != nil)
	project, err := project(env, c)
	if err != nil {
		return err
	}
	if err := env.checkProject(project, c.IsSet("project"), projectScopes(scope, p)); err != nil {
		return err
	}
	res, err := render.Uninject(f, render.Request{
		Registry: reg, Provider: p, Scope: scope, Project: project, Servers: names, Profile: profile,
		PolicyEnv: env.Getenv(policy.EnvVar), Env: env.pathEnv(project), Warn: env.warn, DryRun: dr != nil,
	})
	if err != nil {
		return err
	}
	verb := "removed"
	if dr != nil {
		verb = "would remove"
	}
	if len(res.Removed) > 0 {
		printf(env.Stdout, "%s: %s %s from %s\n", p.Name, verb, strings.Join(res.Removed, ", "), res.Destination)
	}
	reportOriginals(env, p.Name, res.Destination, nil, res.Restored, dr != nil)
	reportRemovedFiles(env, p.Name, res.RemovedFiles, dr != nil)
	if len(res.Absent) > 0 {
		printf(env.Stdout, "%s: not in %s: %s\n", p.Name, res.Destination, strings.Join(res.Absent, ", "))
	}
	if out != nil {
		out.rep.Destinations = []writeDest{{Provider: res.Provider, Scope: string(res.Scope), Path: res.Destination,
			Removed: res.Removed, Skipped: append(slices.Clone(res.Kept), res.Absent...), Changed: slices.Contains(res.Changed, res.Destination),
			Restored: res.Restored, RemovedFiles: res.RemovedFiles}}
		out.rep.Changed = res.Changed
	} else if dr != nil {
		printDiff(env, dr, reg)
	}
	return out.finish()
}
