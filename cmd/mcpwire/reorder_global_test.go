package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// spec: L1 §0 — --config-dir is a global flag that works anywhere before "--", also
// after the subcommand; --config-dir=~/x names a directory under the home directory
// (no literal "~" directory); arguments after "--" are never taken for it.
func TestConfigDirAnywhere(t *testing.T) {
	env, stdout, stderr := testEnv(t, nil)
	dir := filepath.Join(env.Home, "cfg")
	for _, args := range [][]string{
		{"server", "add", "a", "--command", "c", "--config-dir", dir},
		{"server", "--config-dir", dir, "add", "b", "--command", "c"},
		{"server", "add", "--config-dir=" + dir, "c", "--command", "c"},
		{"--config-dir", dir, "server", "add", "d", "--command", "c"},
	} {
		env.reg = nil
		if code := Main(args, env); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
	}
	env.reg = nil
	stdout.Reset()
	if code := Main([]string{"server", "list", "--config-dir", dir, "--json"}, env); code != 0 {
		t.Fatalf("server list --config-dir: exit %d: %s", code, stderr)
	}
	for _, n := range []string{`"a"`, `"b"`, `"c"`, `"d"`} {
		if !strings.Contains(stdout.String(), `"name": `+n) {
			t.Errorf("server list --config-dir lacks %s:\n%s", n, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(env.Home, ".aiwg")); !os.IsNotExist(err) {
		t.Errorf("~/.aiwg was used: %v", err)
	}

	// ~/ is the home directory, not a directory named ~ in the working directory
	env, _, stderr = testEnv(t, nil)
	env.Cwd = t.TempDir()
	if code := Main([]string{"server", "add", "x", "--command", "c", "--config-dir=~/tilde"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(env.Home, "tilde", "mcp-servers.json")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(env.Cwd, "~")); !os.IsNotExist(err) {
		t.Errorf("a literal ~ directory: %v", err)
	}
}

// spec: §0 X2 — after "--" a --config-dir belongs to the client (session passthrough).
func TestReorderLeavesPassthroughAlone(t *testing.T) {
	env, _, _ := testEnv(t, nil)
	app := newApp(env, &runState{})
	out, pass, dd, err := reorder(app, []string{"session", "--provider", "codex", "--", "--config-dir", "x"})
	if err != nil || !dd || strings.Join(pass, " ") != "--config-dir x" || strings.Join(out, " ") != "session --provider codex" {
		t.Errorf("out %q, passthrough %q, dashdash %v, err %v", out, pass, dd, err)
	}
	out, _, _, err = reorder(app, []string{"server", "show", "NAME", "--config-dir", "x", "--json"})
	if err != nil || strings.Join(out, " ") != "--config-dir x server show --json -- NAME" {
		t.Errorf("out %q, err %v", out, err)
	}
	// a value-taking flag right before "--" takes it (--arg -- is a valid argument)
	out, _, dd, err = reorder(app, []string{"server", "add", "x", "--command", "npx", "--arg", "--", "--arg", "y"})
	if err != nil || dd || strings.Join(out, " ") != "server add --command npx --arg -- --arg y -- x" {
		t.Errorf("out %q, dashdash %v, err %v", out, dd, err)
	}
}
