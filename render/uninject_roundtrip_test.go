package render_test

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// coreProviders is the core set of SPEC V3.
var coreProviders = []string{"claude-code", "claude-desktop", "codex", "cursor", "windsurf", "vscode", "opencode",
	"factory", "antigravity", "warp", "omp", "grok-build", "gemini-cli"}

// serverFixtures returns the servers fixture of every provider of the core set (Claude
// Code three times: its project and its user file, and its local scope in the user
// file).
func serverFixtures(t *testing.T) []fixtures.Fixture {
	var out []fixtures.Fixture
	seen := map[string]bool{}
	for _, fx := range fixtures.All() {
		if fx.Role == fixtures.Servers {
			out = append(out, fx)
			seen[fx.Provider] = true
		}
	}
	for _, p := range coreProviders {
		if !seen[p] {
			t.Fatalf("no servers fixture for %s", p)
		}
	}
	return out
}

// existingNames lists the servers a provider's fixture already holds (found by a
// plain text search for the quoted name or the TOML table, which is enough for the
// fixtures' names).
func existingNames(p *providers.Provider, content []byte, names []string) []string {
	var out []string
	for _, n := range names {
		if bytes.Contains(content, []byte(`"`+n+`"`)) || bytes.Contains(content, []byte("["+p.ServersKey+"."+n+"]")) {
			out = append(out, n)
		}
	}
	return out
}

// TestUninjectRoundTrip injects each core provider's fixture profile into the
// provider's real-looking file and uninjects the same servers: the file is exactly
// what it was before mcpwire touched it (for Claude Code the settings file too, deny
// rules and all), the ownership record forgets the entries, and the receipts
// (injectedProviders) are gone again. Antigravity keeps same-named entries it did not
// write (C6), so its round trip injects only the servers its fixture does not hold.
//
// spec: C6 C2 C4 W1 W7
func TestUninjectRoundTrip(t *testing.T) {
	for _, fx := range serverFixtures(t) {
		t.Run(fx.Name, func(t *testing.T) {
			w := newWorld(t)
			p := w.provider(fx.Provider)
			scope := providers.Scope(fx.Scope)
			path := w.dest(p, scope)
			orig := w.fixture(fx.Name)
			w.place(path, orig)
			var settingsPath string
			var settingsOrig []byte
			if p.Settings != nil {
				settingsPath = w.settingsDest(p, scope)
				if scope == providers.Project {
					settingsOrig = fixtures.File("claude-code/project.settings.settings.local.json")
					w.place(settingsPath, settingsOrig)
				}
			}

			req := w.request(fx.Provider, scope, fx.Profile)
			if p.Owner == providers.OwnerKeepExisting {
				have := existingNames(p, orig, req.Servers)
				req.Servers = slices.DeleteFunc(slices.Clone(req.Servers), func(n string) bool { return slices.Contains(have, n) })
			}
			res, err := write.Inject(fsys.NewOS(), req)
			if err != nil {
				t.Fatalf("inject: %v", err)
			}
			if len(res.Written) == 0 || bytes.Equal(read(t, path), orig) {
				t.Fatalf("inject wrote nothing (%v)", res.Written)
			}
			if settingsPath != "" && scope == providers.Project && bytes.Equal(read(t, settingsPath), settingsOrig) {
				t.Fatalf("inject wrote no deny rules to %s", settingsPath)
			}

			w.warns = nil
			ureq := w.request(fx.Provider, scope, "", res.Written...)
			ures, err := write.Uninject(fsys.NewOS(), ureq)
			if err != nil {
				t.Fatalf("uninject: %v", err)
			}
			if !slices.Equal(ures.Removed, res.Written) || len(ures.Kept) > 0 {
				t.Errorf("uninject removed %v, kept %v; want removed %v", ures.Removed, ures.Kept, res.Written)
			}
			if len(w.warns) > 0 {
				t.Errorf("warnings: %q", w.warns)
			}
			if got := read(t, path); !bytes.Equal(got, orig) {
				t.Errorf("%s after inject and uninject:\n%s\nwant the original:\n%s", path, got, orig)
			}
			if settingsOrig != nil {
				if got := read(t, settingsPath); !bytes.Equal(got, settingsOrig) {
					t.Errorf("%s after inject and uninject:\n%s\nwant the original:\n%s", settingsPath, got, settingsOrig)
				}
			}
			if got := snapshotFile(t, w.layer+"/mcp-servers.json"); strings.Contains(got, "injectedProviders") {
				t.Errorf("injectedProviders receipts were not forgotten:\n%s", got)
			}
			for _, rec := range recordFiles(t, w.layer, render.OwnershipDir) {
				var r struct{ Entries map[string]string }
				if b := read(t, rec); json.Unmarshal(b, &r) != nil || len(r.Entries) > 0 {
					t.Errorf("ownership record still tracks entries:\n%s", b)
				}
			}
		})
	}
}

func snapshotFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordFiles lists the record files of a layer's record directory.
func recordFiles(t *testing.T, layer, sub string) []string {
	t.Helper()
	entries, err := os.ReadDir(layer + "/" + sub)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, layer+"/"+sub+"/"+e.Name())
		}
	}
	return out
}
