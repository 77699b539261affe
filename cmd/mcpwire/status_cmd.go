package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/urfave/cli/v2"
)

func statusCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "every client file here and in the project, each MCP entry's state, and what keeps it from starting",
		Description: "States: owned (mcpwire wrote it, unchanged), drifted (changed since mcpwire wrote it), foreign\n" +
			"(not mcpwire's), stale (mcpwire's, but no layer defines it any more), missing (recorded, gone).\n" +
			"Blockers: a referenced variable not set, a command not on PATH, the client's own approval,\n" +
			"trust and allow lists. Values are never printed.",
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

func runStatus(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	ps, err := readProviders(c)
	if err != nil {
		return err
	}
	proj, err := project(env, c)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	asJSON := c.Bool("json")
	bar := env.startProgress("status", "clients", len(ps), asJSON)
	files := render.Status(env.FS, render.StatusRequest{Registry: reg, Providers: ps, Env: env.pathEnv(proj), Getenv: env.Getenv, Step: bar.step})
	bar.end()
	if asJSON {
		if err := writeJSON(env.Stdout, struct {
			Project string              `json:"project"`
			Files   []render.StatusFile `json:"files"`
		}{proj, nonNil(files)}); err != nil {
			return err
		}
	} else {
		printStatus(env, files)
	}
	if c.Bool("check") && render.Unstartable(files) {
		return errors.New("status: entries are drifted, stale, missing or cannot start (see above)")
	}
	return nil
}

// printStatus prints each file and its entries: name, state, blockers.
func printStatus(env *Env, files []render.StatusFile) {
	if len(files) == 0 {
		printf(env.Stdout, "no client config files here\n")
		return
	}
	for _, f := range files {
		if f.Error != "" {
			printf(env.Stdout, "%s: cannot read: %s\n", f.Provider, f.Error)
			continue
		}
		printf(env.Stdout, "%s (%s) %s\n", f.Provider, f.Scope, f.Path)
		if len(f.Entries) == 0 {
			printf(env.Stdout, "  no MCP servers\n")
			continue
		}
		rows := make([][]string, 0, len(f.Entries))
		for _, e := range f.Entries {
			state := string(e.State)
			if e.Off {
				state += ", off"
			}
			row := []string{e.Name, state}
			if len(e.Blockers) > 0 {
				row = append(row, strings.Join(e.Blockers, "; "))
			}
			rows = append(rows, row)
		}
		table(env.Stdout, "  ", rows)
	}
}

func auditCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "find literal credentials in committed or readable client files, and servers no layer defines",
		Description: "Reads every client's files (user files, and the project's) and reports by name, never a value:\n" +
			"literal credentials in project files (committed), literal credentials in user files the group or\n" +
			"others can read, and servers no configuration layer defines. Exit 1 when a credential is found.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return runAudit(env, c) },
	}
}

func runAudit(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	ps, _ := readProviders(c)
	proj, err := project(env, c)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	findings, errs := render.Audit(env.FS, render.AuditRequest{Registry: reg, Providers: ps, Env: env.pathEnv(proj), GOOS: env.pathEnv("").GOOS})
	for _, e := range errs {
		env.warn("audit: " + e.Error())
	}
	if c.Bool("json") {
		if err := writeJSON(env.Stdout, struct {
			Project  string           `json:"project"`
			Findings []render.Finding `json:"findings"`
		}{proj, nonNil(findings)}); err != nil {
			return err
		}
	} else {
		printFindings(env, findings)
	}
	if n := countCredentials(findings); n > 0 {
		return withHint(fmt.Errorf("audit: %d literal credentials in client files", n),
			"reference variables instead (the client's own spelling, or mcpwire server update NAME --env-from K=VAR / --header-env H=VAR and inject), and rotate credentials that were committed")
	}
	return nil
}

// printFindings prints one line per finding.
func printFindings(env *Env, fs []render.Finding) {
	if len(fs) == 0 {
		printf(env.Stdout, "no findings\n")
		return
	}
	rows := make([][]string, 0, len(fs))
	for _, f := range fs {
		what := f.Server
		if f.Field != "" {
			what += " (" + f.Field + ")"
		}
		rows = append(rows, []string{strings.ToUpper(f.Kind), f.Provider, string(f.Scope), f.Path, what, f.Why})
	}
	table(env.Stdout, "", rows)
}

// countCredentials counts the credential findings.
func countCredentials(fs []render.Finding) int {
	n := 0
	for _, f := range fs {
		if f.Kind == render.FindingCredential {
			n++
		}
	}
	return n
}
