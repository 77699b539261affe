package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// spec: U7 — `mcpwire man` prints a man page generated from the command definitions:
// every visible command under its full path with its arguments, and each of its flags
// in its own section; usage text survives whole (angle brackets included), and groff
// reads the page without a warning.
func TestManPageFromDefinitions(t *testing.T) {
	env, stdout, stderr := testEnv(t, nil)
	if code := Main([]string{"man"}, env); code != 0 || stderr.Len() > 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page := stdout.String()
	if !strings.HasPrefix(page, ".TH MCPWIRE 1 ") {
		t.Errorf("page starts %q", page[:min(len(page), 40)])
	}
	// the sections, split on .SS lines, by command path
	sections := map[string]string{}
	for _, part := range strings.Split(page, "\n.SS ")[1:] {
		head, body, _ := strings.Cut(part, "\n")
		sections[strings.Trim(head, `"`)] = body
	}
	app := newApp(env, &runState{})
	n := 0
	var walk func(parent string, cmds []*cli.Command)
	walk = func(parent string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			n++
			path := parent + " " + c.Name
			head := roffText(strings.TrimSpace(path + " " + c.ArgsUsage))
			body, ok := sections[head]
			if !ok {
				t.Errorf("no section %q", head)
			}
			for _, f := range c.Flags {
				if name := "\\fB\\-\\-" + roffText(f.Names()[0]) + "\\fR"; !strings.Contains(body, name+"\n") && !strings.Contains(body, name+" ") && !strings.Contains(body, name+",") {
					t.Errorf("section %q lacks %s", head, f.Names()[0])
				}
			}
			walk(path, c.Subcommands)
		}
	}
	walk("mcpwire", app.Commands)
	if n < 25 {
		t.Errorf("only %d commands", n)
	}
	if !strings.Contains(page, "Authorization: Bearer <value of VAR>") {
		t.Error("the usage of --bearer-env lost its angle brackets")
	}
	if _, err := exec.LookPath("groff"); err == nil {
		cmd := exec.Command("groff", "-man", "-ww", "-z")
		cmd.Stdin = strings.NewReader(page)
		var msgs bytes.Buffer
		cmd.Stderr = &msgs
		if err := cmd.Run(); err != nil || msgs.Len() > 0 {
			t.Errorf("groff: %v\n%s", err, msgs.String())
		}
	}
}

func TestRoffText(t *testing.T) {
	for in, want := range map[string]string{
		"--config-dir":      `\-\-config\-dir`,
		`a\b`:               `a\eb`,
		".hidden":           `\&.hidden`,
		"'quote":            `\&'quote`,
		"ARG…":              `ARG\[u2026]`,
		"two\nlines":        "two lines",
		"Bearer <value>":    "Bearer <value>",
		`say "x" (default)`: `say "x" (default)`,
	} {
		if got := roffText(in); got != want {
			t.Errorf("roffText(%q) = %q, want %q", in, got, want)
		}
	}
}
