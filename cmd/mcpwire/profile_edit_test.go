package main

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
)

// spec: §0 L5 L10 — profile edit exit codes: a successful edit of a lower-layer profile
// exits 0 and copies it up; no change flag is "no updates provided" (exit 1, with a
// hint, nothing written) whatever --provider says; an unknown profile exits 1.
func TestProfileEditExitCodes(t *testing.T) {
	tests := []struct {
		args    []string
		code    int
		stderr  string // a part of stderr
		written bool
	}{
		{[]string{"profile", "edit", "base", "--tool-deny", "docs__x"}, 0, "", true},
		{[]string{"profile", "edit", "base", "--description", ""}, 0, "", true},
		{[]string{"profile", "edit", "base", "--clear-tool-filters"}, 0, "", true},
		{[]string{"profile", "edit", "base"}, 1, "mcpwire: error: no updates provided\nmcpwire: hint: give at least one of --add-server", false},
		{[]string{"profile", "edit", "base", "--provider", "codex"}, 1, "mcpwire: error: no updates provided\n", false},
		{[]string{"profile", "edit", "ghost", "--description", "x"}, 1, `mcpwire: error: profile "ghost" not found`, false},
		{[]string{"profile", "edit", "base", "--add-server", "ghost"}, 1, "servers not found in any configuration layer: ghost", false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args[2:], " "), func(t *testing.T) {
			vars, root := layeredEnv(t, cmdFiles)
			env, stdout, stderr := testEnv(t, vars)
			before := fixtures.Tree(t, root)
			code := Main(tt.args, env)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stderr.String(), tt.stderr) || (tt.stderr == "") != (stderr.Len() == 0) {
				t.Errorf("stderr %q, want %q", stderr, tt.stderr)
			}
			after := fixtures.Tree(t, root)
			if changed := !maps.Equal(before, after); changed != tt.written {
				t.Errorf("layer files changed: %v, want %v", changed, tt.written)
			}
			for _, p := range []string{"org", "team"} {
				p = filepath.Join(root, p, "mcp-profiles.json")
				if before[p] != after[p] {
					t.Errorf("%s changed: a write goes to the last layer only", p)
				}
			}
			if tt.code == 0 && !strings.Contains(stdout.String(), `updated profile "base" in `) {
				t.Errorf("stdout %q", stdout)
			}
		})
	}
}
