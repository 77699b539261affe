package main

import (
	"errors"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/inspect"
	"github.com/urfave/cli/v2"
)

func statusCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "every client file here and in the project, each MCP entry's state, and what keeps it from starting",
		Description: "States: owned (mcpwire wrote it, unchanged), drifted (changed since mcpwire wrote it), foreign\n" +
			"(not mcpwire's), stale (mcpwire's, but no layer defines it any more), missing (recorded, gone);\n" +
			"taken over (original kept): mcpwire's, written with --force over an entry it keeps and puts back.\n" +
			"Blockers: a referenced variable not set, a command not on PATH, the client's own approval,\n" +
			"trust and allow lists. A name in several scopes of Claude Code: the entries it does not use say\n" +
			"which one it uses (local over project over user). Values are never printed.",
		Flags: []cli.Flag{
			listFlag("provider", "only these clients (comma list or repeat)"),
			&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
			jsonFlag,
			&cli.BoolFlag{Name: "check", Usage: "exit 1 when an entry is drifted, stale, missing or cannot start"},
		},
		Action: func(c *cli.Context) error { return runStatus(env, c) },
	}
}

// readProviders resolves --provider for the commands that read every client (status,
// audit): all clients with a file when none is given.
func readProviders(c *cli.Context) ([]*providers.Provider, error) {
	if !c.IsSet("provider") {
		var out []*providers.Provider
		for _, p := range providers.All() {
			if !p.Manual() {
				out = append(out, p)
			}
		}
		return out, nil
	}
	return providerList(list(c, "provider"), false)
}

// readingRun starts a command that reads every client's files (status, audit): its
// providers, its project and the registry.
func readingRun(env *Env, c *cli.Context) ([]*providers.Provider, string, *registry.Registry, error) {
	if err := exactArgs(c, 0, ""); err != nil {
		return nil, "", nil, err
	}
	ps, err := readProviders(c)
	if err != nil {
		return nil, "", nil, err
	}
	proj, err := project(env, c)
	if err != nil {
		return nil, "", nil, err
	}
	reg, err := env.registry()
	return ps, proj, reg, err
}

// printReport prints doc with --json, or calls text.
func printReport(env *Env, c *cli.Context, doc any, text func()) error {
	if c.Bool("json") {
		return writeJSON(env.Stdout, doc)
	}
	text()
	return nil
}

func runStatus(env *Env, c *cli.Context) error {
	ps, proj, reg, err := readingRun(env, c)
	if err != nil {
		return err
	}
	bar := env.startProgress("status", "clients", len(ps), c.Bool("json"))
	files := inspect.Status(env.FS, inspect.StatusRequest{Registry: reg, Providers: ps, Env: env.pathEnv(proj), Getenv: env.Getenv, Step: bar.step,
		CheckSecret: env.checkSecret})
	bar.end()
	doc := struct {
		Project string               `json:"project"`
		Files   []inspect.StatusFile `json:"files"`
	}{proj, nonNil(files)}
	if err := printReport(env, c, doc, func() { printStatus(env, files) }); err != nil {
		return err
	}
	if c.Bool("check") && inspect.Unstartable(files) {
		return errors.New("status: entries are drifted, stale, missing or cannot start (see above)")
	}
	return nil
}

// printStatus prints each file and its entries: name, state, blockers.
func printStatus(env *Env, files []inspect.StatusFile) {
	if len(files) == 0 {
		printf(env.Stdout, "no client config files here\n")
		return
	}
	for _, f := range files {
		if f.Error != "" {
			printf(env.Stdout, "%s: cannot read: %s\n", f.Provider, termtext.Line(f.Error))
			continue
		}
		printf(env.Stdout, "%s (%s) %s\n", f.Provider, f.Scope, termtext.Quote(f.Path))
		if f.Note != "" {
			printf(env.Stdout, "  note: %s\n", f.Note)
		}
		if len(f.Entries) == 0 {
			printf(env.Stdout, "  no MCP servers\n")
			continue
		}
		rows := make([][]string, 0, len(f.Entries))
		var lastNotes []string // and lastJoined: entries in a row mostly have the same notes (K7)
		var lastJoined string
		for _, e := range f.Entries {
			state := string(e.State)
			switch {
			case e.OriginalKept && e.State == inspect.Owned:
				state = "taken over (original kept)"
			case e.OriginalKept:
				state += " (original kept)"
			}
			if e.Off {
				state += ", off"
			}
			row := append(make([]string, 0, 3), termtext.Quote(e.Name), state)
			notes := e.Blockers
			if e.Denied != "" {
				notes = append([]string{"denied by the server policy: " + e.Denied}, notes...)
			}
			if n := inspect.PrecedenceNote(f, e); n != "" {
				notes = append([]string{n}, notes...)
			}
			if len(notes) > 0 {
				if !slices.Equal(notes, lastNotes) {
					lastNotes, lastJoined = notes, strings.Join(notes, "; ")
				}
				row = append(row, lastJoined)
			}
			rows = append(rows, row)
		}
		table(env.Stdout, "  ", rows)
	}
}
