//go:build !windows && !darwin

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
)

// The real Secret Service (gnome-keyring in a private D-Bus session): import
// --secrets-to keyring stores a client's literal there and leaves a reference;
// mcpwire exec gives it to the server; status finds it resolving.
//
// spec: S6 S5 S2 S4
func TestSecretServiceImportExec(t *testing.T) {
	if !storetest.InSecretService(t) {
		return
	}
	const literal = "ghp_S6KEYRINGabcdefghijklmnopqrstuvwxyz0123"
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "repo")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(filepath.Join(project, ".git"), 0o755)
	os.WriteFile(filepath.Join(project, ".mcp.json"), []byte(`{"mcpServers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "`+literal+`"}}}}`), 0o644)
	env := procEnv(home)
	for _, kv := range os.Environ() { // the session's bus
		if strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") || strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") || strings.HasPrefix(kv, "XDG_DATA_HOME=") {
			env = append(env, kv)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("mcpwire", args...)
		cmd.Env, cmd.Dir = env, project
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mcpwire %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if strings.Contains(string(out), literal) {
			t.Fatalf("mcpwire %s printed the value:\n%s", strings.Join(args, " "), out)
		}
		return string(out)
	}
	out := run("import", "--from", "claude", "--scope", "project", "--secrets-to", "keyring")
	if !strings.Contains(out, "moved env.GITHUB_TOKEN of gh into keyring:mcpwire/gh/GITHUB_TOKEN") {
		t.Errorf("import: %s", out)
	}
	lookup := exec.Command("secret-tool", "lookup", "service", "mcpwire", "username", "gh/GITHUB_TOKEN")
	if v, err := lookup.Output(); err != nil || string(v) != literal {
		t.Errorf("secret-tool lookup: %q %v", v, err)
	}
	layer, _ := os.ReadFile(filepath.Join(home, ".aiwg", "mcp-servers.json"))
	if strings.Contains(string(layer), literal) || !strings.Contains(string(layer), `"GITHUB_TOKEN": "keyring:mcpwire/gh/GITHUB_TOKEN"`) {
		t.Errorf("layer:\n%s", layer)
	}
	got := filepath.Join(root, "got")
	run("exec", "--env-secret", "GITHUB_TOKEN=keyring:mcpwire/gh/GITHUB_TOKEN", "--", "sh", "-c", `printf %s "$GITHUB_TOKEN" > "$0"`, got)
	if b, _ := os.ReadFile(got); string(b) != literal {
		t.Errorf("the server got %q", b)
	}
	run("inject", "--provider", "claude", "--scope", "user", "--servers", "gh")
	if out := run("status"); strings.Contains(out, "secret envSecret") {
		t.Errorf("status: %s", out)
	}
}
