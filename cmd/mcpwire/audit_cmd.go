package main

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/render"
	"github.com/urfave/cli/v2"
)

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
	ps, proj, reg, err := readingRun(env, c)
	if err != nil {
		return err
	}
	findings, errs := render.Audit(env.FS, render.AuditRequest{Registry: reg, Providers: ps, Env: env.pathEnv(proj), GOOS: env.pathEnv("").GOOS})
	for _, e := range errs {
		env.warn("audit: " + e.Error())
	}
	doc := struct {
		Project  string           `json:"project"`
		Findings []render.Finding `json:"findings"`
	}{proj, nonNil(findings)}
	if err := printReport(env, c, doc, func() { printFindings(env, findings) }); err != nil {
		return err
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
