package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// completionWorld is a temporary HOME (also the working directory) whose registry holds
// the server x and the profile dev.
func completionWorld(t *testing.T) (run func(args ...string) (code int, stdout, stderr string), home string) {
	t.Helper()
	env0, _, _ := testEnv(t, nil)
	home = env0.Home
	for p, c := range map[string]string{
		".aiwg/mcp-servers.json":  `{"servers": {"x": {"command": "x-mcp"}}}`,
		".aiwg/mcp-profiles.json": `{"profiles": {"dev": {"servers": ["x"]}}}`,
	} {
		p = filepath.Join(home, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	run = func(args ...string) (int, string, string) {
		t.Helper()
		env, stdout, stderr := testEnv(t, nil)
		env.Home, env.Cwd = home, home
		code := Main(args, env)
		return code, stdout.String(), stderr.String()
	}
	return run, home
}

// spec: §0 — a completion request (the shell scripts end the words with
// --generate-bash-completion, after the word being completed when it starts with
// "-") never runs the command: "inject … --<TAB>" reaches mcpwire as "inject … --
// --generate-bash-completion", which must not be taken for a "--" separator. It prints
// the command's flags, and writes nothing. The bash and zsh scripts call mcpwire alike
// (zsh: the words before $CURRENT, then the word if it starts with "-").
func TestCompletionNeverRunsTheCommand(t *testing.T) {
	run, home := completionWorld(t)
	tests := []struct {
		name    string
		args    []string
		want    []string // lines of stdout
		notWant []string
	}{
		{"bash: inject … --<TAB>", []string{"inject", "--provider", "claude-code", "--scope", "user", "--servers", "x", "--", "--generate-bash-completion"},
			// list flags (--provider, --servers: U2) repeat; a single-value flag is not offered again
			[]string{"--profile", "--dry-run", "--force", "--servers", "--provider", "--config-dir"}, []string{"--scope", "-h"}},
		{"bash: inject --<TAB>", []string{"inject", "--", "--generate-bash-completion"},
			[]string{"--provider", "--profile", "--dry-run"}, []string{"-h"}},
		{"bash: inject -<TAB>", []string{"inject", "-", "--generate-bash-completion"},
			[]string{"--provider", "-h"}, nil},
		{"zsh: inject --provider claude-code --pro<TAB>", []string{"inject", "--provider", "claude-code", "--pro", "--generate-bash-completion"},
			[]string{"--profile", "--project", "--provider"}, []string{"--dry-run"}},
		{"zsh: server add x --command c --e<TAB>", []string{"server", "add", "x", "--command", "c", "--e", "--generate-bash-completion"},
			[]string{"--env", "--env-from"}, []string{"--command", "--url"}},
		{"inject with the flag not last", []string{"inject", "--provider", "claude-code", "--servers", "x", "--generate-bash-completion", "--dry-run"},
			nil, nil},
		{"subcommands", []string{"server", "--generate-bash-completion"}, []string{"add", "remove", "list"}, []string{"--json"}},
		{"commands", []string{"--generate-bash-completion"}, []string{"server", "inject", "session"}, nil},
	}
	before := treeOf(t, home)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			for _, w := range tt.want {
				if !slices.Contains(lines, w) {
					t.Errorf("completions lack %s:\n%s", w, stdout)
				}
			}
			for _, w := range tt.notWant {
				if slices.Contains(lines, w) {
					t.Errorf("completions offer %s:\n%s", w, stdout)
				}
			}
			if strings.Contains(stdout, "wrote") || strings.Contains(stdout, "would write") {
				t.Errorf("the command ran:\n%s", stdout)
			}
		})
	}
	if after := treeOf(t, home); !equalTrees(before, after) {
		t.Error("a completion request wrote files")
	}
}

// spec: §0 X2 — "session … --<TAB>" and "session … -- ARGS<TAB>" never launch the
// client: the first offers session's flags, the second (the client's arguments)
// nothing, so that the shell completes file names.
func TestCompletionNeverLaunchesASession(t *testing.T) {
	w := newSessionWorld(t)
	for _, args := range [][]string{
		{"session", "--provider", "claude-code", "--profile", "dev", "--", "--generate-bash-completion"},
		{"session", "--provider", "claude-code", "--profile", "dev", "--", "--model", "--generate-bash-completion"},
		{"session", "--provider", "codex", "--profile", "dev", "--", "resume", "--generate-bash-completion"},
	} {
		code, stdout, stderr := w.run(nil, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
		if w.ran("claude") || w.ran("codex") {
			t.Fatalf("%q launched the client", args)
		}
		if args[len(args)-2] == "--" && !strings.Contains(stdout, "--persist\n") {
			t.Errorf("%q: session's flags are not offered:\n%s", args, stdout)
		}
		if args[len(args)-2] != "--" && stdout != "" {
			t.Errorf("%q: after --, completions %q, want none", args, stdout)
		}
	}
	if entries := w.tmpEntries(); len(entries) != 0 {
		t.Errorf("TMPDIR holds %v", entries)
	}
}

// spec: §0 — the guard: while completing, no Action runs, whatever urfave/cli
// dispatches to.
func TestCompletionGuardsEveryAction(t *testing.T) {
	st := &runState{completing: true}
	env, _, _ := testEnv(t, nil)
	app := newApp(env, st)
	var walk func(cmds []*cli.Command)
	n := 0
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Action != nil {
				n++
				if err := c.Action(nil); err != nil {
					t.Errorf("%s: %v", c.Name, err)
				}
			}
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
	if n < 20 {
		t.Errorf("only %d actions found", n)
	}
	if err := app.Action(nil); err != nil {
		t.Error(err)
	}
}
