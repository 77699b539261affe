package render_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/inspect"
)

// status runs inspect.Status for the world, with the given variables.
func (w *world) status(vars map[string]string, names ...string) []inspect.StatusFile {
	w.t.Helper()
	var ps []*providers.Provider
	for _, n := range names {
		ps = append(ps, w.provider(n))
	}
	getenv := func(k string) string { return vars[k] }
	env := w.env
	env.Getenv = getenv
	return inspect.Status(fsys.NewOS(), inspect.StatusRequest{Registry: w.registry(), Providers: ps, Env: env, Getenv: getenv})
}

// blockersOf returns the blockers of an entry, joined, or fails.
func blockersOf(t *testing.T, files []inspect.StatusFile, name string) string {
	t.Helper()
	for _, f := range files {
		for _, e := range f.Entries {
			if e.Name == name {
				return strings.Join(e.Blockers, "; ")
			}
		}
	}
	t.Fatalf("no entry %s in %+v", name, files)
	return ""
}

// TestStatusClaudeApproval: Claude Code's approval of a project's .mcp.json servers
// comes from its settings files and its state in ~/.claude.json: a trusted project
// whose server is approved has no blocker; one switched off with /mcp
// (disabledMcpServers) and one not approved have; enableAllProjectMcpServers in the
// user's settings approves them all.
//
// spec: B4
func TestStatusClaudeApproval(t *testing.T) {
	w := newWorld(t)
	w.place(filepath.Join(w.project, ".mcp.json"), []byte(`{"mcpServers": {"x": {"url": "https://x.example/mcp", "type": "http"}, "y": {"url": "https://y.example/mcp", "type": "http"}}}`))
	state := fmt.Sprintf(`{"projects": {%q: {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["x"], "disabledMcpServers": ["y"]}}}`, w.project)
	w.place(filepath.Join(w.home, ".claude.json"), []byte(state))
	files := w.status(nil, "claude-code")
	if b := blockersOf(t, files, "x"); b != "" {
		t.Errorf("x: blockers %q, want none", b)
	}
	if b := blockersOf(t, files, "y"); !strings.Contains(b, "switched off for "+w.project) || !strings.Contains(b, "not approved") || strings.Contains(b, "trusted") {
		t.Errorf("y: blockers %q", b)
	}
	w.place(filepath.Join(w.home, ".claude", "settings.json"), []byte(`{"enableAllProjectMcpServers": true}`))
	if b := blockersOf(t, w.status(nil, "claude-code"), "y"); strings.Contains(b, "not approved") {
		t.Errorf("y with enableAllProjectMcpServers: blockers %q", b)
	}
}

// TestStatusGeminiTrust: with folder trust on in the user's settings, a project that
// trustedFolders.json does not trust (no decision, DO_NOT_TRUST) has its servers
// blocked; a trusted folder above it, or TRUST_PARENT on a folder beside it, lifts
// that; with folder trust off nothing is said.
//
// spec: B4
func TestStatusGeminiTrust(t *testing.T) {
	w := newWorld(t)
	w.place(filepath.Join(w.project, ".gemini", "settings.json"), []byte(`{"mcpServers": {"g": {"httpUrl": "https://g.example/mcp"}}}`))
	user := filepath.Join(w.home, ".gemini", "settings.json")
	trust := filepath.Join(w.home, ".gemini", "trustedFolders.json")
	if b := blockersOf(t, w.status(nil, "gemini-cli"), "g"); b != "" {
		t.Errorf("folder trust off: blockers %q", b)
	}
	w.place(user, []byte(`{"security": {"folderTrust": {"enabled": true}}}`))
	for _, c := range []struct {
		rules string // trustedFolders.json, "" for none
		want  string // in the blockers, "" for none
	}{
		{"", "has not been trusted"},
		{fmt.Sprintf(`{%q: "DO_NOT_TRUST"}`, w.project), "does not trust"},
		{fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, filepath.Dir(w.project)), ""},
		{fmt.Sprintf(`{%q: "TRUST_PARENT"}`, filepath.Join(filepath.Dir(w.project), "sibling")), ""},
		{fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, filepath.Join(w.project, "sub")), "has not been trusted"},
	} {
		os.Remove(trust)
		if c.rules != "" {
			w.place(trust, []byte(c.rules))
		}
		b := blockersOf(t, w.status(nil, "gemini-cli"), "g")
		if c.want == "" && b != "" || c.want != "" && !strings.Contains(b, c.want) {
			t.Errorf("%s: blockers %q, want %q", c.rules, b, c.want)
		}
	}
}

// TestStatusClaudeDesktopMSIX: status shows Claude Desktop's Microsoft Store copy when
// that is the file in use (Windows rules, on any machine).
//
// spec: B4 I1
func TestStatusClaudeDesktopMSIX(t *testing.T) {
	w := newWorld(t)
	root := filepath.Dir(w.home)
	local, roaming := filepath.Join(root, "local"), filepath.Join(root, "roaming")
	vars := map[string]string{"LOCALAPPDATA": local, "APPDATA": roaming}
	w.env = providers.PathEnv{GOOS: "windows", Home: w.home, Project: w.project, Getenv: func(k string) string { return vars[k] }}
	msix := filepath.Join(local, "Packages", "Claude_pzs8sxrjxfjjc", "LocalCache", "Roaming", "Claude", "claude_desktop_config.json")
	w.place(filepath.Join(roaming, "Claude", "claude_desktop_config.json"), []byte(`{"mcpServers": {"classic": {"command": "c"}}}`))
	w.place(msix, []byte(`{"mcpServers": {"store": {"command": "s"}}}`))
	files := w.status(vars, "claude-desktop")
	if len(files) != 1 || files[0].Path != msix || files[0].Entries[0].Name != "store" {
		t.Errorf("status %+v, want the MSIX file %s", files, msix)
	}
}

// TestStatusSpeed: status over every client's file present (each provider's fixture at
// the scope it stands for, and a user and a project file for every client with both)
// allocates at most 2.5 MB in 48,000 objects, the least of three runs (1.5 MB and 31,000
// measured; every file read and parsed twice makes 2.8 MB and 57,000).
// Issue 14 asks for at most 50 ms; BenchmarkStatusEveryClient measures the time (about
// 15 ms on the project's 2-core machine), which a test cannot bound on a loaded machine
// (issue 24, H14): allocations do not depend on the load.
//
// spec: B4 H14
func TestStatusSpeed(t *testing.T) {
	winetest.Skip(t, winetest.Speed)
	w := newWorld(t)
	names := everyClientFile(w)
	var files []inspect.StatusFile
	vars := map[string]string{"PATH": os.Getenv("PATH")}
	var bytes, objects uint64
	for i := range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		files = w.status(vars, names...)
		runtime.ReadMemStats(&after)
		if b := after.TotalAlloc - before.TotalAlloc; i == 0 || b < bytes {
			bytes, objects = b, after.Mallocs-before.Mallocs
		}
	}
	t.Logf("status over %d files of %d clients: %d bytes, %d objects", len(files), len(names), bytes, objects)
	if len(files) < len(names) {
		t.Fatalf("only %d files for %d clients", len(files), len(names))
	}
	for _, f := range files {
		if f.Error != "" || len(f.Entries) == 0 {
			t.Errorf("%s %s: %q, %d entries", f.Provider, f.Path, f.Error, len(f.Entries))
		}
	}
	if bytes > 5<<19 || objects > 48_000 {
		t.Errorf("status allocated %d bytes in %d objects, want at most %d in %d", bytes, objects, 5<<19, 48_000)
	}
}

// BenchmarkStatusEveryClient is status over every client's file present (B4).
func BenchmarkStatusEveryClient(b *testing.B) {
	w := newWorld(b)
	names := everyClientFile(w)
	vars := map[string]string{"PATH": os.Getenv("PATH")}
	b.ResetTimer()
	for range b.N {
		w.status(vars, names...)
	}
}

// everyClientFile places each provider's fixture as every file it has (user and
// project), and returns the providers.
func everyClientFile(w *world) []string {
	var names []string
	for _, p := range providers.All() {
		if p.Manual() {
			continue
		}
		names = append(names, p.Name)
		fx := fixtureOf(p.Name)
		for _, scope := range p.Scopes() {
			path, _, err := render.Destination(fsys.NewOS(), p, scope, w.env)
			if err != nil {
				continue // a file of a client that does not run on this system
			}
			w.place(path, fixtures.File(fx))
		}
	}
	return names
}

// fixtureOf names a provider's servers fixture.
func fixtureOf(provider string) string {
	i := slices.IndexFunc(fixtures.All(), func(f fixtures.Fixture) bool { return f.Provider == provider && f.Role == fixtures.Servers })
	return fixtures.All()[i].Name
}

// TestStatusStagedRecord: an interrupted run leaves a staged record beside the
// ownership record (the entry written, the record not yet): status settles it against
// the file, so the entry is owned, not drifted; a corrupt staged record is the file's
// error.
//
// spec: B4 C6
func TestStatusStagedRecord(t *testing.T) {
	w := newWorld(t)
	if _, err := w.inject("cursor", providers.User, "fetch"); err != nil {
		t.Fatal(err)
	}
	path := w.dest(w.provider("cursor"), providers.User)
	recs, err := render.RecordedDestinations(fsys.NewOS(), w.layer)
	if err != nil || len(recs) != 1 {
		t.Fatal(recs, err)
	}
	before, _ := os.ReadFile(recs[0].Record)
	var rec struct{ Entries map[string]string }
	if err := json.Unmarshal(before, &rec); err != nil {
		t.Fatal(err)
	}
	entry := `{"command":"uvx","args":["mcp-server-fetch","--new"]}`
	w.place(path, []byte(`{"mcpServers": {"fetch": `+entry+`}}`))
	staged := fmt.Sprintf(`{"destination": %q, "before": {"fetch": %q}, "after": {"fetch": %q}}`,
		recs[0].Path, rec.Entries["fetch"], format.Digest([]byte(entry)))
	w.place(recs[0].Record+".staged", []byte(staged))
	files := w.status(nil, "cursor")
	if len(files) != 1 || files[0].Entries[0].State != inspect.Owned {
		t.Fatalf("status %+v, want fetch owned (the staged record settled)", files)
	}
	w.place(recs[0].Record+".staged", []byte(`{"destination": 3}`))
	if files := w.status(nil, "cursor"); len(files) != 1 || !strings.Contains(files[0].Error, "corrupt ownership record") {
		t.Errorf("a corrupt staged record: %+v", files)
	}
}

// TestStatusGrokOutsideMarkers: status decides ownership as inject does. A Grok Build
// entry mcpwire wrote whose marker lines were taken away is no longer mcpwire's
// (inject refuses it, uninject keeps it), so status calls it drifted, not owned.
//
// spec: B4 C6
func TestStatusGrokOutsideMarkers(t *testing.T) {
	w := newWorld(t)
	if _, err := w.inject("grok-build", providers.User, "fetch"); err != nil {
		t.Fatal(err)
	}
	path := w.dest(w.provider("grok-build"), providers.User)
	stateOf := func() inspect.EntryState {
		t.Helper()
		files := w.status(nil, "grok-build")
		for _, f := range files {
			for _, e := range f.Entries {
				if e.Name == "fetch" {
					return e.State
				}
			}
		}
		t.Fatalf("no fetch in %+v", files)
		return ""
	}
	if s := stateOf(); s != inspect.Owned {
		t.Fatalf("after inject: %s, want owned", s)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(line, "mcpwire-managed") {
			kept = append(kept, line)
		}
	}
	w.place(path, []byte(strings.Join(kept, "\n")))
	if s := stateOf(); s != inspect.Drifted {
		t.Errorf("markers removed: %s, want drifted", s)
	}
	if _, err := w.inject("grok-build", providers.User, "fetch"); err == nil || !strings.Contains(err.Error(), "did not write") {
		t.Errorf("inject after the markers went: %v, want the foreign-entry refusal", err)
	}
}
