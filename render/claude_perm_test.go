package render_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/tailscale/hujson"
)

// TestClaudeSettingsShapesRefused: a settings file whose root, permissions or rule
// arrays have the wrong shape is refused, naming the file and the member, before
// anything is written: no write, mkdir or lock at all, every file unchanged. This
// holds for both scopes and whether or not the profile has deny rules.
//
// spec: C2 W2 W7
func TestClaudeSettingsShapesRefused(t *testing.T) {
	type shape struct{ content, member string }
	shapes := []shape{
		{`[]`, "top level"}, {`"x"`, "top level"}, {`3`, "top level"}, {`null`, "top level"},
		{`{"permissions": []}`, `"permissions"`}, {`{"permissions": "x"}`, `"permissions"`},
		{`{"permissions": null}`, `"permissions"`}, {`{"permissions": 1}`, `"permissions"`},
		{`{"x": 1,`, "invalid JSON"},
	}
	for _, k := range []string{"allow", "deny", "ask", "additionalDirectories"} {
		m := `"permissions.` + k + `"`
		for _, v := range []string{`{}`, `"Bash(ls)"`, `null`, `3`, `[1]`, `[null]`, `[true]`, `[["x"]]`, `[{}]`, `["ok", 2]`, `["ok", null]`} {
			shapes = append(shapes, shape{`{"permissions": {"` + k + `": ` + v + `}}`, m})
		}
	}
	for _, scope := range []providers.Scope{providers.Project, providers.User} {
		for _, profile := range []string{"dev", ""} {
			for _, sh := range shapes {
				t.Run(string(scope)+" "+profile+" "+sh.content, func(t *testing.T) {
					w := newWorld(t)
					p := w.provider("claude-code")
					settings := w.settingsDest(p, scope)
					w.place(settings, []byte(sh.content))
					root := filepath.Dir(w.home)
					before := treeState(t, root)
					f := &fsystest.Faulty{}
					req := w.request("claude-code", scope, profile, "notes")
					if profile == "" {
						req.Servers = []string{"notes"}
					}
					_, err := write.Inject(f, req)
					if err == nil || !strings.Contains(err.Error(), settings) || !strings.Contains(err.Error(), sh.member) {
						t.Fatalf("error %v, want a refusal naming %s and %s", err, settings, sh.member)
					}
					if calls := f.Calls(); len(calls) > 0 {
						t.Errorf("refused after touching the disk: %q", calls)
					}
					if d := diffStates(before, treeState(t, root)); len(d) > 0 {
						t.Errorf("files changed:\n%s", strings.Join(d, "\n"))
					}
				})
			}
		}
	}
}

// denyOf returns permissions.deny of a (JSONC) settings file.
func denyOf(t *testing.T, path string) []string {
	t.Helper()
	std, err := hujson.Standardize(read(t, path))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Permissions struct {
			Deny []string `json:"deny"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Permissions.Deny
}

// denyWorld is a registry with two profiles of different deny rules: a (notes, fetch)
// and b (notes, github).
func denyWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t)
	reg := w.registry()
	for _, p := range []*registry.Profile{
		{Name: "a", Servers: []string{"notes", "fetch"}, ProviderOverrides: map[string]*registry.Filters{"*": {ToolDeny: []string{"notes__purge", "fetch__*"}}}},
		{Name: "b", Servers: []string{"notes", "github"}, ProviderOverrides: map[string]*registry.Filters{"*": {ToolDeny: []string{"github__delete_file"}}}},
	} {
		if err := reg.AddProfile(p); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// denyWarnings keeps the warnings about deny rules.
func denyWarnings(warns []string) []string {
	var out []string
	for _, w := range warns {
		if strings.Contains(w, "deny rules") {
			out = append(out, w)
		}
	}
	return out
}

func inject(t *testing.T, w *world, scope providers.Scope, profile string, clear bool) {
	t.Helper()
	req := w.request("claude-code", scope, profile)
	if clear {
		req.Filters = nil
	}
	if _, err := write.Inject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
}

// TestClaudeDenyOwnership walks the keep/remove algorithm of C4 through one
// settings file that already holds the person's own rules, one of them identical to
// a rule of profile a: switching from a to b removes a's rules mcpwire added and
// keeps the person's (the identical one included, it never became mcpwire's); once
// the person edits the deny array, the rules mcpwire tracks are kept, with a
// WARNING naming them and the settings path; --clear-tool-filters and a later
// injection remove every rule mcpwire still owns. Servers never go into the
// settings file (C1), and an existing project settings file keeps its mode.
//
// spec: C1 C2 C3 C4 W4
func TestClaudeDenyOwnership(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	w.place(settings, []byte("{\n  // mine\n  \"permissions\": {\"deny\": [\"Read(.env)\", \"mcp__notes__purge\"]},\n  \"outputStyle\": \"x\"\n}\n"))
	chmod(t, settings, 0o640)
	records := func() int { return len(recordFiles(t, w.layer, permissionsDir)) }

	inject(t, w, "", "a", false)
	if got, want := denyOf(t, settings), []string{"Read(.env)", "mcp__notes__purge", "mcp__fetch"}; !slices.Equal(got, want) {
		t.Fatalf("deny after a: %q, want %q", got, want)
	}
	inject(t, w, "", "b", false)
	if got, want := denyOf(t, settings), []string{"Read(.env)", "mcp__notes__purge", "mcp__github__delete_file"}; !slices.Equal(got, want) {
		t.Fatalf("deny after switching to b: %q, want %q (the person's identical rule stays)", got, want)
	}
	if ws := denyWarnings(w.warns); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}
	if records() != 1 {
		t.Errorf("%d deny records, want 1", records())
	}

	// the person adds a rule of their own: mcpwire can no longer tell what is whose
	b := read(t, settings)
	edited := strings.Replace(string(b), `"mcp__github__delete_file"]`, `"mcp__github__delete_file", "Bash(rm:*)"]`, 1)
	if edited == string(b) {
		t.Fatalf("cannot edit %s", b)
	}
	if err := os.WriteFile(settings, []byte(edited), 0o640); err != nil {
		t.Fatal(err)
	}
	w.warns = nil
	inject(t, w, "", "a", false)
	if got, want := denyOf(t, settings), []string{"Read(.env)", "mcp__notes__purge", "mcp__github__delete_file", "Bash(rm:*)", "mcp__fetch"}; !slices.Equal(got, want) {
		t.Fatalf("deny after the edit and a: %q, want %q", got, want)
	}
	if ws := denyWarnings(w.warns); len(ws) != 1 || !strings.Contains(ws[0], "mcp__github__delete_file") || !strings.Contains(ws[0], settings) || strings.Contains(ws[0], "mcp__fetch") {
		t.Errorf("warnings %q, want one naming mcp__github__delete_file and %s", ws, settings)
	}

	// --clear-tool-filters, then the profile again: mcp__fetch (mcpwire's since the
	// edit) goes, then comes back; the preserved rule stays
	w.warns = nil
	inject(t, w, "", "a", true)
	if got, want := denyOf(t, settings), []string{"Read(.env)", "mcp__notes__purge", "mcp__github__delete_file", "Bash(rm:*)"}; !slices.Equal(got, want) {
		t.Fatalf("deny after --clear-tool-filters: %q, want %q", got, want)
	}
	inject(t, w, "", "a", false)
	if got, want := denyOf(t, settings), []string{"Read(.env)", "mcp__notes__purge", "mcp__github__delete_file", "Bash(rm:*)", "mcp__fetch"}; !slices.Equal(got, want) {
		t.Fatalf("deny after re-injection: %q, want %q", got, want)
	}

	if got := read(t, settings); strings.Contains(string(got), "mcpServers") || !strings.Contains(string(got), "// mine") {
		t.Errorf("settings file:\n%s", got)
	}
	if fi, _ := os.Stat(settings); fi.Mode().Perm() != fsys.EffectiveMode(0o640) {
		t.Errorf("settings mode %v, want the existing 0640", fi.Mode().Perm())
	}
	if records() != 1 {
		t.Errorf("%d deny records, want 1", records())
	}
}

// TestClaudeSettingsModes: a new project settings file is 0600 (in a new .claude
// directory), an existing one keeps its mode; the user settings file is 0600, an
// existing one included. The servers go to .mcp.json or ~/.claude.json, never to a
// settings file (C1).
//
// spec: C1 C2 W4
func TestClaudeSettingsModes(t *testing.T) {
	for _, tc := range []struct {
		scope    providers.Scope
		existing os.FileMode // 0: no file yet
		want     os.FileMode
	}{
		{providers.Project, 0, 0o600},
		{providers.Project, 0o644, 0o644},
		{providers.Project, 0o660, 0o660},
		{providers.User, 0, 0o600},
		{providers.User, 0o644, 0o600},
	} {
		t.Run(string(tc.scope)+" "+tc.existing.String(), func(t *testing.T) {
			w := newWorld(t)
			p := w.provider("claude-code")
			settings := w.settingsDest(p, tc.scope)
			if tc.existing != 0 {
				w.place(settings, []byte("{}\n"))
				chmod(t, settings, tc.existing)
			}
			inject(t, w, tc.scope, "dev", false)
			fi, err := os.Stat(settings)
			if err != nil {
				t.Fatal(err)
			}
			if want := fsys.EffectiveMode(tc.want); fi.Mode().Perm() != want {
				t.Errorf("%s: mode %v, want %v", settings, fi.Mode().Perm(), want)
			}
			if len(denyOf(t, settings)) == 0 {
				t.Errorf("no deny rules in %s", settings)
			}
			if strings.Contains(string(read(t, settings)), "mcpServers") {
				t.Errorf("servers written to %s", settings)
			}
			servers := filepath.Join(w.project, ".mcp.json")
			if tc.scope == providers.User {
				servers = filepath.Join(w.home, ".claude.json")
			}
			if !strings.Contains(string(read(t, servers)), `"notes"`) {
				t.Errorf("no servers in %s", servers)
			}
		})
	}
}

// TestClaudeRecordSharedThroughSymlinks: a symlinked project root, and a symlinked
// ~/.claude, share one deny record (and one ownership record) with their targets:
// the rules added through one path are removed through the other.
//
// spec: C3 C6 W5
func TestClaudeRecordSharedThroughSymlinks(t *testing.T) {
	t.Run("project root", func(t *testing.T) {
		w := denyWorld(t)
		link := filepath.Join(filepath.Dir(w.project), "repo-link")
		winetest.Skip(t, winetest.Symlinks)
		if err := os.Symlink(w.project, link); err != nil {
			t.Fatal(err)
		}
		inject(t, w, "", "a", false)
		real := w.project
		w.project = link
		w.env.Project = link
		inject(t, w, "", "b", false)
		if got, want := denyOf(t, filepath.Join(real, ".claude", "settings.local.json")), []string{"mcp__github__delete_file"}; !slices.Equal(got, want) {
			t.Errorf("deny through the link: %q, want %q (a's rules removed)", got, want)
		}
		for _, sub := range []string{permissionsDir, render.OwnershipDir} {
			if n := len(recordFiles(t, w.layer, sub)); n != 1 {
				t.Errorf("%s: %d records, want 1", sub, n)
			}
		}
		if ws := denyWarnings(w.warns); len(ws) > 0 {
			t.Errorf("warnings: %q", ws)
		}
	})
	t.Run("user .claude", func(t *testing.T) {
		w := denyWorld(t)
		real := filepath.Join(w.home, "dotfiles", "claude")
		if err := os.MkdirAll(real, 0o700); err != nil {
			t.Fatal(err)
		}
		winetest.Skip(t, winetest.Symlinks)
		if err := os.Symlink(real, filepath.Join(w.home, ".claude")); err != nil {
			t.Fatal(err)
		}
		inject(t, w, providers.User, "a", false)
		if _, err := os.Lstat(filepath.Join(real, "settings.json")); err != nil {
			t.Fatalf("not written through the symlinked ~/.claude: %v", err)
		}
		// the same directory named directly (CLAUDE_CONFIG_DIR)
		w.env.Getenv = func(k string) string {
			if k == "CLAUDE_CONFIG_DIR" {
				return real
			}
			return ""
		}
		inject(t, w, providers.User, "b", false)
		if got, want := denyOf(t, filepath.Join(real, "settings.json")), []string{"mcp__github__delete_file"}; !slices.Equal(got, want) {
			t.Errorf("deny: %q, want %q (a's rules removed)", got, want)
		}
		if n := len(recordFiles(t, w.layer, permissionsDir)); n != 1 {
			t.Errorf("%d deny records, want 1", n)
		}
		if fi, err := os.Lstat(filepath.Join(w.home, ".claude")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("~/.claude is no longer a symlink")
		}
	})
}

// TestClaudeSettingsNotRecreated: a settings file the person deleted is not created
// again just to hold an empty deny array (by a profile without deny rules, or by
// uninject), while a profile with deny rules does create it.
//
// spec: C2 C4
func TestClaudeSettingsNotRecreated(t *testing.T) {
	w := denyWorld(t)
	p := w.provider("claude-code")
	settings := w.settingsDest(p, providers.Project)
	inject(t, w, "", "a", false)
	if err := os.Remove(settings); err != nil {
		t.Fatal(err)
	}
	inject(t, w, "", "a", true) // --clear-tool-filters
	if _, err := os.Lstat(settings); !os.IsNotExist(err) {
		t.Errorf("%s created again without rules:\n%s", settings, read(t, settings))
	}
	if _, err := write.Uninject(fsys.NewOS(), w.request("claude-code", "", "a")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(settings); !os.IsNotExist(err) {
		t.Errorf("%s created by uninject:\n%s", settings, read(t, settings))
	}
	inject(t, w, "", "b", false)
	if got := denyOf(t, settings); !slices.Equal(got, []string{"mcp__github__delete_file"}) {
		t.Errorf("deny %q", got)
	}
}
