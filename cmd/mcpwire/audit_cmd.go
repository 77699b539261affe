package main

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/render/inspect"
	"github.com/urfave/cli/v2"
)

func auditCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "find literal credentials in committed or readable client and layer files, servers no layer defines, entries the server policy denies, and files it cannot read",
		Description: "Reads every client's files (user files, and the project's) and the configuration layers' own files,\n" +
			"and reports by name, never a value: literal credentials in project files (committed), in user files\n" +
			"the group or others can read, and in layer files inside a git work tree or readable by others, in\n" +
			"every string of every entry; servers no configuration layer defines; references to secret stores\n" +
			"that do not resolve, and 1Password references left in a client's file, which the client passes as\n" +
			"written; entries the server policy (mcp-policy.json) denies, whoever wrote them; and every file it\n" +
			"could not read (not checked). Exit 1 when a credential, such a reference or a denied entry is found\n" +
			"or a file could not be checked.",
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
	findings, errs := inspect.Audit(env.FS, inspect.AuditRequest{Registry: reg, Providers: ps, Env: env.pathEnv(proj),
		GOOS: env.pathEnv("").GOOS, Ignored: gitIgnored, CheckSecret: env.checkSecret})
	for _, e := range errs {
		env.warn("audit: " + e.Error())
	}
	doc := struct {
		Project  string            `json:"project"`
		Findings []inspect.Finding `json:"findings"`
	}{proj, nonNil(findings)}
	if err := printReport(env, c, doc, func() { printFindings(env, findings) }); err != nil {
		return err
	}
	creds, unchecked, secrets := count(findings, inspect.FindingCredential), count(findings, inspect.FindingUnchecked), count(findings, inspect.FindingSecret)
	var problems []string
	if creds > 0 {
		problems = append(problems, plural(creds, "literal credential")+" found")
	}
	if secrets > 0 {
		problems = append(problems, plural(secrets, "secret reference")+" that no one resolves")
	}
	if unchecked > 0 {
		problems = append(problems, plural(unchecked, "file")+" could not be checked")
	}
	denied := count(findings, inspect.FindingDenied)
	if denied > 0 {
		what := fmt.Sprintf("%d entries", denied)
		if denied == 1 {
			what = "1 entry"
		}
		problems = append(problems, what+" the server policy denies")
	}
	if len(problems) == 0 {
		return nil
	}
	var hints []string
	if creds > 0 {
		hints = append(hints, "reference variables instead (the client's own spelling, or mcpwire server update NAME --env-from K=VAR / --header-env H=VAR and inject), and rotate credentials that were committed")
	}
	if secrets > 0 {
		hints = append(hints, "store each secret where its reference points (pass insert, secret-tool store, op item create), or change the reference: mcpwire server update NAME --env-secret K=REF")
	}
	if unchecked > 0 {
		hints = append(hints, "audit cannot vouch for what it could not read: fix the file's permissions or syntax, and run audit again")
	}
	if denied > 0 {
		hints = append(hints, "remove the denied entries from the client files (mcpwire uninject for mcpwire's own), or ask the policy's owner to allow them")
	}
	return withHint(fmt.Errorf("audit: %s", strings.Join(problems, "; ")), hints...)
}

// plural says n things: "1 literal credential", "3 literal credentials".
func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// printFindings prints one line per finding; names, fields and paths from the files
// quoted when they are not plain text (K4).
func printFindings(env *Env, fs []inspect.Finding) {
	if len(fs) == 0 {
		printf(env.Stdout, "no findings\n")
		return
	}
	rows := make([][]string, 0, len(fs))
	for _, f := range fs {
		what := "-" // a whole file
		if f.Server != "" {
			what = termtext.Quote(f.Server)
		}
		if f.Field != "" {
			what += " (" + termtext.Quote(f.Field) + ")"
		}
		rows = append(rows, []string{strings.ToUpper(f.Kind), f.Provider, string(f.Scope), termtext.Quote(f.Path), what, termtext.Line(f.Why)})
	}
	table(env.Stdout, "", rows)
}

// count counts the findings of a kind.
func count(fs []inspect.Finding, kind string) int {
	n := 0
	for _, f := range fs {
		if f.Kind == kind {
			n++
		}
	}
	return n
}
