package main

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"

	"github.com/urfave/cli/v2"
)

// completionWorld is a temporary HOME (also the working directory) whose registry holds
// the servers x and y and the profile dev.
func completionWorld(t *testing.T) (run func(args ...string) (code int, stdout, stderr string), home string) {
	t.Helper()
	env0, _, _ := testEnv(t, nil)
	home = env0.Home
	for p, c := range map[string]string{
		".aiwg/mcp-servers.json":  `{"servers": {"x": {"command": "x-mcp"}, "y": {"url": "https://y.example/mcp"}}}`,
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
		return runAt(t, home, nil, args...)
	}
	return run, home
}

// runAt runs mcpwire in process with HOME and the working directory at home.
func runAt(t *testing.T, home string, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	env, out, errb := testEnv(t, vars)
	env.Home, env.Cwd = home, home
	code = Main(args, env)
	return code, out.String(), errb.String()
}

// spec: §0 — a completion request (the shell scripts end the words with the word
// being completed, possibly empty, then --generate-bash-completion) never runs the
// command: "inject … --<TAB>" reaches mcpwire as "inject … --
// --generate-bash-completion", which must not be taken for a "--" separator. It prints
// the command's flags, and writes nothing. The bash, zsh and fish scripts call mcpwire
// alike.
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
		{"subcommands", []string{"server", "", "--generate-bash-completion"}, []string{"add", "remove", "list"}, []string{"--json"}},
		{"commands", []string{"se", "--generate-bash-completion"}, []string{"server", "inject", "session"}, nil},
	}
	before := fixtures.Tree(t, home)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(tt.args...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			checkLines(t, strings.Split(strings.TrimSpace(stdout), "\n"), tt.want, tt.notWant)
			if strings.Contains(stdout, "wrote") || strings.Contains(stdout, "would write") {
				t.Errorf("the command ran:\n%s", stdout)
			}
		})
	}
	if after := fixtures.Tree(t, home); !maps.Equal(before, after) {
		t.Error("a completion request wrote files")
	}
}

// checkLines checks that completion lines hold each of want and none of notWant.
func checkLines(t *testing.T, lines, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(lines, w) {
			t.Errorf("completions lack %s: %q", w, lines)
		}
	}
	for _, w := range notWant {
		if slices.Contains(lines, w) {
			t.Errorf("completions offer %s: %q", w, lines)
		}
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

// spec: U6 — completion offers the names a flag or an argument takes: providers (with
// aliases), profiles and servers from the registry, scopes, types and policies. The
// word being completed comes last (possibly empty); in a comma list the names typed
// so far start every candidate and are not offered again; "--servers=" completed
// whole (zsh, fish) or split at "=" (bash) works too. A flag taking a path offers
// nothing (the shell completes file names).
func TestCompletionNames(t *testing.T) {
	run, home := completionWorld(t)
	other := filepath.Join(home, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "mcp-servers.json"), []byte(`{"servers": {"z": {"command": "z"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		words   []string // before --generate-bash-completion, the word being completed last
		want    []string // exactly these lines, in any order; nil: none
		has     []string // at least these lines
		notWant []string
	}{
		{words: []string{"inject", "--provider", ""}, has: []string{"claude-code", "claude", "cursor", "codex", "openai", "vscode", "copilot", "gemini-cli"}},
		{words: []string{"inject", "--provider", "cu"}, has: []string{"cursor"}},
		{words: []string{"inject", "--provider", "cursor,"}, has: []string{"cursor,codex", "cursor,claude"}, notWant: []string{"cursor,cursor", "codex"}},
		{words: []string{"inject", "--profile", ""}, want: []string{"dev", "__all__"}},
		{words: []string{"inject", "--servers", ""}, want: []string{"x", "y"}},
		{words: []string{"inject", "--servers", "x,"}, want: []string{"x,y"}},
		{words: []string{"inject", "--servers", "x,y,"}, want: nil},
		{words: []string{"inject", "--servers=x,"}, want: []string{"--servers=x,y"}},
		{words: []string{"inject", "--servers=y"}, want: []string{"--servers=x", "--servers=y"}},
		{words: []string{"inject", "--servers", "=", "x"}, want: []string{"x", "y"}},
		{words: []string{"inject", "--scope", ""}, want: []string{"local", "project", "user"}},
		{words: []string{"inject", "--project", ""}, want: nil},
		{words: []string{"inject", "--provider", ""}, notWant: []string{"x", "dev", "--profile"}},
		{words: []string{"inject", "--provider"}, want: []string{"--provider"}},
		{words: []string{"inject", "--provider", "cursor", "--servers", "x", ""}, want: nil},
		{words: []string{"uninject", "--servers", ""}, want: []string{"x", "y"}},
		{words: []string{"uninject", "--profile", ""}, want: []string{"dev", "__all__"}},
		{words: []string{"probe", "--profile", ""}, want: []string{"dev", "__all__"}},
		{words: []string{"install", "--profile", ""}, want: []string{"dev"}},
		{words: []string{"session", "--provider", ""}, want: []string{"claude-code", "claude", "codex", "openai"}},
		{words: []string{"session", "--profile", ""}, want: []string{"dev"}},
		{words: []string{"server", "show", ""}, want: []string{"x", "y"}},
		{words: []string{"server", "show", "x", ""}, want: nil},
		{words: []string{"server", "show", "--json", ""}, want: []string{"x", "y"}},
		{words: []string{"server", "rm", ""}, want: []string{"x", "y"}},
		{words: []string{"server", "update", "x", "--type", ""}, want: []string{"stdio", "http", "sse"}},
		{words: []string{"server", "add", ""}, want: nil},
		{words: []string{"server", "add", "n", "--arg", "--servers", ""}, want: nil},
		{words: []string{"profile", "show", ""}, want: []string{"dev"}},
		{words: []string{"profile", "edit", "dev", "--add-server", ""}, want: []string{"x", "y"}},
		{words: []string{"profile", "edit", "dev", "--extends", ""}, want: []string{"dev"}},
		{words: []string{"profile", "add", "p", "--servers", ""}, want: []string{"x", "y", "__all__"}},
		{words: []string{"profile", "export", ""}, want: []string{"dev"}},
		{words: []string{"install", ""}, has: []string{"claude-desktop", "claude-code", "cursor"}},
		{words: []string{"credential-policy", ""}, want: []string{"literal", "references", "none"}},
		// spec: B1 U6 — import --from takes a provider or all
		{words: []string{"import", "--from", ""}, has: []string{"claude-desktop", "claude", "cursor", "codex", "all"}, notWant: []string{"x", "dev"}},
		{words: []string{"import", "--from=a"}, has: []string{"--from=all", "--from=antigravity"}},
		{words: []string{"import", "--servers", ""}, want: nil},
		{words: []string{"status", "--provider", ""}, has: []string{"claude-desktop", "cursor"}, notWant: []string{"all"}},
		{words: []string{"--config-dir", other, "inject", "--servers", ""}, want: []string{"z"}},
		{words: []string{"inject", "--config-dir=" + other, "--servers", ""}, want: []string{"z"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.words, " "), func(t *testing.T) {
			code, stdout, stderr := run(append(slices.Clone(tt.words), completionFlag)...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			var lines []string
			if s := strings.TrimSpace(stdout); s != "" {
				lines = strings.Split(s, "\n")
			}
			if tt.has == nil && tt.notWant == nil {
				got, want := slices.Sorted(slices.Values(lines)), slices.Sorted(slices.Values(tt.want))
				if !slices.Equal(got, want) {
					t.Errorf("completions %q, want %q", got, want)
				}
			}
			checkLines(t, lines, tt.has, tt.notWant)
		})
	}
}

// spec: U6 — completion reads the layers as the command would (AIWG_CONFIG_LAYERS)
// but never fails loudly: a broken layer, a missing --config-dir or an unreadable
// layer list gives no names, exit 0 and nothing on stderr, and nothing is written.
func TestCompletionBrokenLayerGivesNoNames(t *testing.T) {
	_, home := completionWorld(t)
	broken := filepath.Join(home, "broken")
	if err := os.MkdirAll(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "mcp-servers.json"), []byte(`{"servers": {"q": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	before := fixtures.Tree(t, home)
	for _, tt := range []struct {
		vars  map[string]string
		words []string
	}{
		{map[string]string{"AIWG_CONFIG_LAYERS": filepath.Join(home, ".aiwg") + string(filepath.ListSeparator) + broken}, []string{"inject", "--servers", ""}},
		{map[string]string{"AIWG_CONFIG_LAYERS": filepath.Join(home, ".aiwg") + string(filepath.ListSeparator) + broken}, []string{"server", "show", ""}},
		{nil, []string{"--config-dir", broken, "profile", "show", ""}},
		{nil, []string{"--config-dir", filepath.Join(home, "missing"), "inject", "--servers", ""}},
	} {
		code, stdout, stderr := runAt(t, home, tt.vars, append(tt.words, completionFlag)...)
		if code != 0 || stdout != "" || stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want no names, nothing on stderr", tt.words, code, stdout, stderr)
		}
	}
	// the same layers reach the names when they are sound
	vars := map[string]string{"AIWG_CONFIG_LAYERS": filepath.Join(home, ".aiwg")}
	if _, stdout, _ := runAt(t, home, vars, "server", "show", "", completionFlag); stdout != "x\ny\n" {
		t.Errorf("AIWG_CONFIG_LAYERS: completions %q", stdout)
	}
	if after := fixtures.Tree(t, home); !maps.Equal(before, after) {
		t.Error("a completion request wrote files")
	}
}
