package render_test

import (
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// TestScopeOf: inject --all derives scope and project from a recorded destination: the
// provider's user-scope file here is user scope; a file ending in the provider's
// project path (any of its candidate names) is project scope, the project being the
// rest; anything else is neither.
//
// spec: C6 V6
func TestScopeOf(t *testing.T) {
	w := newWorld(t)
	app := filepath.Join(filepath.Dir(w.home), "src", "app")
	cases := []struct {
		provider, dest string
		scope          providers.Scope
		project        string
		ok             bool
	}{
		{"cursor", filepath.Join(w.home, ".cursor", "mcp.json"), providers.User, "", true},
		{"cursor", filepath.Join(app, ".cursor", "mcp.json"), providers.Project, app, true},
		{"claude-code", filepath.Join(w.home, ".claude.json"), providers.User, "", true},
		{"claude-code", filepath.Join(app, ".mcp.json"), providers.Project, app, true},
		{"opencode", filepath.Join(app, "opencode.jsonc"), providers.Project, app, true},
		{"gemini-cli", filepath.Join(w.home, ".gemini", "settings.json"), providers.User, "", true},
		{"codex", filepath.Join(w.home, ".codex", "config.toml"), providers.User, "", true},
		{"codex", filepath.Join(app, ".codex", "config.toml"), "", "", false},
		{"cursor", filepath.Join(app, "mcp.json"), "", "", false},
	}
	for _, c := range cases {
		scope, project, ok := render.ScopeOf(w.provider(c.provider), c.dest, w.env)
		if scope != c.scope || project != c.project || ok != c.ok {
			t.Errorf("%s %s: got %q %q %v, want %q %q %v", c.provider, c.dest, scope, project, ok, c.scope, c.project, c.ok)
		}
	}
}
