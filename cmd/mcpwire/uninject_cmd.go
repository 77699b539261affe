package main

import (
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
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
		listFlag("provider", "client to remove the servers from (see mcpwire providers); repeat or a comma list for several"),
		&cli.StringFlag{Name: "scope", Usage: "project, local or user (default: the provider's usual scope)"},
		&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
		listFlag("servers", "servers to remove (comma list or repeat)"),
		&cli.StringFlag{Name: "profile", Usage: "remove a profile's servers (__all__ = every server)"},
		&cli.BoolFlag{Name: "all", Usage: "remove from every client file mcpwire recorded writing (the servers recorded there, or the --servers/--profile given)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print each destination and a diff; change nothing"},
		jsonFlag,
	}
}

// runUninject removes the selection from each provider's file (H6: --provider
// repeated or a comma list, as inject takes it), or with --all from every file the
// ownership records name. Every file is checked (the same removals, in a dry run)
// before the first is changed; each file is then its own transaction, in the order
// given.
func runUninject(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	all := c.Bool("all")
	if all == c.IsSet("provider") {
		return usagef("give exactly one of --provider NAME and --all")
	}
	if all && (c.IsSet("scope") || c.IsSet("project")) {
		return usagef("--all removes from the files mcpwire recorded, each in its own scope and project; --scope and --project cannot be used with it")
	}
	ps, err := providerList(list(c, "provider"), all)
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
	names, _, profile, err := selectionOf(c, reg, !all, false)
	if err != nil {
		return err
	}
	f, dr := env.writeFS(c.Bool("dry-run"))
	out := startJSON(env, c, "uninject", dr != nil)
	base := write.Request{Registry: reg, Scope: scope, Servers: names, Profile: profile, Env: env.pathEnv(""),
		PolicyEnv: env.Getenv(policy.EnvVar), Warn: env.warn, DryRun: dr != nil}
	var reqs []write.Request
	if all {
		recorded, err := render.RecordedDestinations(f, reg.Set().Write().Dir)
		if err != nil {
			return err
		}
		for _, d := range recorded {
			p, err := provider(d.Provider)
			if err != nil {
				continue // a record of a client this mcpwire does not know
			}
			if r, ok := recordedRequest(env, f, base, p, d); ok {
				if len(names) == 0 && profile == "" {
					r.Servers = d.Servers
				}
				if len(r.Servers) > 0 {
					reqs = append(reqs, r)
				}
			}
		}
		if len(reqs) == 0 {
			printf(env.Stdout, "no injections recorded: nothing to remove\n")
		}
	} else {
		project, err := project(env, c)
		if err != nil {
			return err
		}
		if err := env.checkProject(project, c.IsSet("project"), projectScopes(scope, ps...)); err != nil {
			return err
		}
		base.Project, base.Env = project, env.pathEnv(project)
		for _, p := range ps {
			r := base
			r.Provider = p
			reqs = append(reqs, r)
		}
	}
	if dr == nil && len(reqs) > 1 {
		// every file checked before the first is changed: the same removals in a dry
		// run first, so that a file mcpwire cannot read refuses the whole command
		check := fsys.NewDryRun(env.FS)
		for _, r := range reqs {
			r.DryRun, r.Warn = true, func(string) {}
			if _, err := write.Uninject(check, r); err != nil {
				return err
			}
		}
	}
	for _, r := range reqs {
		res, err := write.Uninject(f, r)
		if err != nil {
			return err
		}
		// a profile's servers that are not in the file are no news (--profile __all__
		// names every server of the registry), nor are those of --all in each file it
		// looks at: only those named with --servers for one file are said
		absent := res.Absent
		if profile != "" || all {
			absent = nil
		}
		reportUninject(env, res, absent, dr != nil)
		if out != nil {
			out.rep.Destinations = append(out.rep.Destinations, writeDest{Provider: res.Provider, Scope: string(res.Scope), Path: res.Destination,
				Removed: res.Removed, Skipped: append(slices.Clone(res.Kept), absent...), Changed: slices.Contains(res.Changed, res.Destination),
				Restored: res.Restored, RemovedFiles: res.RemovedFiles})
			out.rep.Changed = providers.AppendNew(out.rep.Changed, res.Changed)
		}
	}
	if out == nil && dr != nil {
		printDiff(env, dr, reg)
	}
	return out.finish()
}

// reportUninject says what an uninject did to one file: the entries removed (or that
// would be), the named servers that are not in it, or that nothing was to remove.
func reportUninject(env *Env, res *write.UninjectResult, absent []string, dry bool) {
	verb := "removed"
	if dry {
		verb = "would remove"
	}
	dest := res.Destination
	if p, ok := providers.Get(res.Provider); ok && p.Dest(res.Scope) != nil && len(p.Dest(res.Scope).Servers) > 0 {
		// a part of a file another scope uses too (Claude Code's local scope in
		// ~/.claude.json): the path cannot tell which
		dest += " (" + string(res.Scope) + " scope)"
	}
	if len(res.Removed) > 0 {
		printf(env.Stdout, "%s: %s %s from %s\n", res.Provider, verb, strings.Join(res.Removed, ", "), dest)
	}
	reportOriginals(env, res.Provider, res.Destination, nil, res.Restored, dry)
	reportRemovedFiles(env, res.Provider, res.RemovedFiles, dry)
	if len(absent) > 0 {
		printf(env.Stdout, "%s: not in %s: %s\n", res.Provider, dest, strings.Join(absent, ", "))
	}
	if len(res.Removed) == 0 && len(absent) == 0 && len(res.Kept) == 0 {
		printf(env.Stdout, "%s: nothing to remove from %s\n", res.Provider, dest)
	}
}
