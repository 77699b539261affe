package render_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestClaudeDesktopMSIX: on Windows, Claude Desktop's Microsoft Store (MSIX) build
// reads %LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\
// claude_desktop_config.json. mcpwire writes that file when it exists, and the
// classic %APPDATA%\Claude file otherwise (no package directory, a package directory
// without the file, a directory that only looks similar); uninject finds the servers
// it wrote there. The rules run with GOOS windows on any machine.
//
// spec: I1 W1
func TestClaudeDesktopMSIX(t *testing.T) {
	const file = "claude_desktop_config.json"
	msix := func(local, id string) string {
		return filepath.Join(local, "Packages", id, "LocalCache", "Roaming", "Claude", file)
	}
	for _, c := range []struct {
		name    string
		present []string // files placed under LOCALAPPDATA before the write
		dirs    []string // directories made under LOCALAPPDATA
		msix    string   // the package whose file is written; "" = the classic one
	}{
		{name: "no package: classic"},
		{name: "package without the file: classic", dirs: []string{"Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming"}},
		{name: "package file: MSIX", present: []string{"Claude_pzs8sxrjxfjjc"}, msix: "Claude_pzs8sxrjxfjjc"},
		{name: "first package holding the file", dirs: []string{"Packages/Claude_a"}, present: []string{"Claude_b", "Claude_c"}, msix: "Claude_b"},
		{name: "another package: classic", present: []string{"ClaudeBeta_x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			root := filepath.Dir(w.home)
			local, roaming := filepath.Join(root, "local"), filepath.Join(root, "roaming")
			vars := map[string]string{"LOCALAPPDATA": local, "APPDATA": roaming}
			w.env = providers.PathEnv{GOOS: "windows", Home: w.home, Project: w.project, Getenv: func(k string) string { return vars[k] }}
			for _, d := range c.dirs {
				if err := os.MkdirAll(filepath.Join(local, filepath.FromSlash(d)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, id := range c.present {
				w.place(msix(local, id), []byte(`{"preferences": {"sidebarMode": "task"}}`))
			}
			want := filepath.Join(roaming, "Claude", file)
			if c.msix != "" {
				want = msix(local, c.msix)
			}
			p := w.provider("claude-desktop")
			got, _, err := render.Destination(fsys.NewOS(), p, "", w.env)
			if err != nil || got != want {
				t.Fatalf("destination %q (%v), want %q", got, err, want)
			}
			res, err := write.Inject(fsys.NewOS(), w.request("claude-desktop", "", "", "fetch"))
			if err != nil {
				t.Fatal(err)
			}
			if res.Destination != want {
				t.Fatalf("wrote %s, want %s", res.Destination, want)
			}
			var doc struct {
				Preferences map[string]any `json:"preferences"`
				MCPServers  map[string]any `json:"mcpServers"`
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.MCPServers["fetch"] == nil || c.msix != "" && doc.Preferences["sidebarMode"] != "task" {
				t.Errorf("%s:\n%s", want, data)
			}
			for _, id := range c.present {
				if id != c.msix {
					if b, _ := os.ReadFile(msix(local, id)); string(b) != `{"preferences": {"sidebarMode": "task"}}` {
						t.Errorf("%s changed:\n%s", id, b)
					}
				}
			}
			if scope, _, ok := render.ScopeOf(p, want, w.env); !ok || scope != providers.User {
				t.Errorf("ScopeOf(%s) = %s, %v; want the user-scope file", want, scope, ok)
			}
			un, err := write.Uninject(fsys.NewOS(), w.request("claude-desktop", "", "", "fetch"))
			if err != nil {
				t.Fatal(err)
			}
			if un.Destination != want {
				t.Errorf("uninject looked at %s, want %s", un.Destination, want)
			}
			var after struct {
				MCPServers map[string]any `json:"mcpServers"`
			}
			// a file mcpwire created goes with its last entry (H7)
			if data, err := os.ReadFile(want); !os.IsNotExist(err) && (json.Unmarshal(data, &after) != nil || after.MCPServers["fetch"] != nil) {
				t.Errorf("after uninject %s:\n%s", want, data)
			}
		})
	}
}
