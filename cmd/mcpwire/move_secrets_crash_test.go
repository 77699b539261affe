package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
)

// server update --move-secrets-to pass killed right after every step that changes the
// disk (MCPWIRE_TEST_CRASH_AFTER): at every kill the literal is still in the layer
// file or the store holds it (the layer never loses it first); the same command run
// again ends with the reference in the layer, the value in the store, and the literal
// nowhere in the layer. The store's own writes (pass) come before the first step.
//
// spec: S5 K10
func TestMoveSecretsCrash(t *testing.T) {
	root := filepath.Join(t.TempDir(), "w")
	vars := storetest.Pass(t, t.TempDir())
	const literal = "ghp_S5CRASHabcdefghijklmnopqrstuvwxyz012345"
	home, layer := filepath.Join(root, "home"), filepath.Join(root, "home", ".aiwg", "mcp-servers.json")
	passEnv := append(procEnv(home), vars...)
	fresh := func() {
		os.RemoveAll(root)
		os.MkdirAll(filepath.Dir(layer), 0o700)
		os.WriteFile(layer, []byte(`{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {"gh": {"command": "gh-mcp", "env": {"GITHUB_TOKEN": "`+literal+`"}}}}`), 0o600)
		rm := exec.Command("pass", "rm", "--force", "mcpwire/gh/GITHUB_TOKEN")
		rm.Env = passEnv
		rm.Run()
	}
	stored := func() bool {
		show := exec.Command("pass", "show", "mcpwire/gh/GITHUB_TOKEN")
		show.Env = passEnv
		out, err := show.Output()
		return err == nil && strings.TrimSpace(string(out)) == literal
	}
	args := []string{"server", "update", "gh", "--move-secrets-to", "pass"}
	kills := 0
	for n := 1; ; n++ {
		fresh()
		r := runIn(t, root, root, args, append(vars, fmt.Sprintf("%s=%d", crashAfterEnv, n))...)
		if !r.killed() {
			if r.err != nil {
				t.Fatalf("step %d: %v\n%s", n, r.err, r.stderr)
			}
			break
		}
		kills++
		b, _ := os.ReadFile(layer)
		if !strings.Contains(string(b), literal) && !stored() {
			t.Errorf("killed after step %d (%s): the layer lost the literal and the store does not hold it", n, strings.TrimSpace(r.stderr))
		}
		again := runIn(t, root, root, args, vars...)
		b, _ = os.ReadFile(layer)
		if again.err != nil && !strings.Contains(again.stderr, "nothing to move") {
			t.Fatalf("killed after step %d, the run again fails: %v\n%s", n, again.err, again.stderr)
		}
		if strings.Contains(string(b), literal) || !strings.Contains(string(b), `"GITHUB_TOKEN": "pass:mcpwire/gh/GITHUB_TOKEN"`) || !stored() {
			t.Errorf("killed after step %d, then run again: not converged:\n%s", n, b)
		}
	}
	if kills < 3 {
		t.Fatalf("only %d steps: the hook did not see the layer write", kills)
	}
	t.Logf("%d kills, each converged", kills)
}
