package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// bom is the UTF-8 byte order mark VS Code-based editors may start a file with.
const bom = "\xef\xbb\xbf"

// TestBOMClientFile: a client file starting with a byte order mark is edited like any
// other, keeps its mark, and an uninjection gives back exactly the original bytes.
//
// spec: W1 W2
func TestBOMClientFile(t *testing.T) {
	w := newWorld(t)
	p := w.provider("cursor")
	path := w.dest(p, providers.Project)
	orig := []byte(bom + "{\n  // mine\n  \"mcpServers\": {\"other\": {\"command\": \"other-mcp\"}}\n}\n")
	w.place(path, orig)
	res, err := write.Inject(fsys.NewOS(), w.request("cursor", "", "dev"))
	if err != nil {
		t.Fatalf("inject: %v", err)
	}
	got := read(t, path)
	if !bytes.HasPrefix(got, []byte(bom+"{")) || bytes.Count(got, []byte(bom)) != 1 || !bytes.Contains(got, []byte(`"notes"`)) || !bytes.Contains(got, []byte("// mine")) {
		t.Fatalf("after inject:\n%q", got)
	}
	if _, err := write.Uninject(fsys.NewOS(), w.request("cursor", "", "", res.Written...)); err != nil {
		t.Fatalf("uninject: %v", err)
	}
	if got := read(t, path); !bytes.Equal(got, orig) {
		t.Errorf("after inject and uninject:\n%q\nwant the original:\n%q", got, orig)
	}
}

// TestBOMClaudeSettings: Claude settings starting with a byte order mark get their
// deny rules, and keep the mark.
//
// spec: C2 W1
func TestBOMClaudeSettings(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	w.place(settings, []byte(bom+"{\"permissions\": {\"deny\": [\"Read(.env)\"]}}\n"))
	inject(t, w, "", "a", false)
	got := read(t, settings)
	if !bytes.HasPrefix(got, []byte(bom+"{")) || bytes.Count(got, []byte(bom)) != 1 {
		t.Fatalf("settings lost or doubled the byte order mark:\n%q", got)
	}
	plain := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(plain, got[len(bom):], 0o600); err != nil {
		t.Fatal(err)
	}
	if d, want := denyOf(t, plain), []string{"Read(.env)", "mcp__fetch", "mcp__notes__purge"}; !slices.Equal(d, want) {
		t.Errorf("deny %q, want %q", d, want)
	}
}

// TestBOMLegacySettings: install migrates the legacy built-in entry out of a
// .claude/settings.local.json that starts with a byte order mark, which it keeps.
//
// spec: I4 W1
func TestBOMLegacySettings(t *testing.T) {
	w := newWorld(t)
	legacy := filepath.Join(w.project, ".claude", "settings.local.json")
	w.place(legacy, []byte(bom+legacySettings))
	if !write.LegacyEntry(fsys.NewOS(), legacy) {
		t.Errorf("LegacyEntry does not see the entry behind the byte order mark")
	}
	if _, err := write.Inject(fsys.NewOS(), installRequest(w, "claude-code")); err != nil {
		t.Fatalf("install: %v", err)
	}
	got := string(read(t, legacy))
	if !strings.HasPrefix(got, bom+"{") || strings.Count(got, bom) != 1 || strings.Contains(got, `"aiwg"`) || !strings.Contains(got, `"notes"`) {
		t.Errorf("legacy file after the migration:\n%q", got)
	}
}
