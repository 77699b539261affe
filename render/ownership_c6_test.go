package render_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/tailscale/hujson"
)

// handWritten is a client file holding one entry named notes that mcpwire did not
// write, in the provider's format, after an unrelated member the person keeps.
func handWritten(p *providers.Provider) []byte {
	if p.Format == format.TOML {
		return []byte("# mine\nmodel = \"m\"\n\n[" + p.ServersKey + ".notes]\ncommand = \"my-notes\"\nargs = [\"--mine\"]\n")
	}
	entry := `{ "command": "my-notes", "args": ["--mine"] }`
	if p.Name == "opencode" { // its entries: {type: local, command: [command, args…]}
		entry = `{ "type": "local", "command": ["my-notes", "--mine"] }`
	}
	return []byte("{\n  \"theme\": \"dark\",\n  \"" + p.ServersKey + "\": {\n    \"notes\": " + entry + "\n  }\n}\n")
}

// c6World places a provider's file (when content is not nil) at its default scope.
func c6World(t *testing.T, name string, content []byte) (*world, *providers.Provider, string) {
	t.Helper()
	w := newWorld(t)
	p := w.provider(name)
	path := w.dest(p, p.DefaultScope)
	if content != nil {
		w.place(path, content)
	}
	return w, p, path
}

// TestInjectOverHandWrittenEntry: for every core provider, a same-named entry mcpwire
// did not write is refused naming the file and the entry, and nothing is written
// (files byte-identical, no record, no receipt); --force takes it over (then it is
// mcpwire's, and uninject removes it). OMP refuses even with --force, as
// "operator-owned or modified; choose a different name". Antigravity keeps the
// entry's launch configuration, without --force.
//
// spec: C6 W7 L10
func TestInjectOverHandWrittenEntry(t *testing.T) {
	for _, name := range coreProviders {
		t.Run(name, func(t *testing.T) {
			w, p, path := c6World(t, name, nil)
			orig := handWritten(p)
			w.place(path, orig)
			root := filepath.Dir(w.home)
			before := treeState(t, root)

			_, err := write.Inject(fsys.NewOS(), w.request(name, "", "", "notes"))
			if p.Owner == providers.OwnerKeepExisting {
				if err != nil {
					t.Fatalf("antigravity refused: %v", err)
				}
				if got := read(t, path); !bytes.Contains(got, []byte(`"my-notes"`)) || bytes.Contains(got, []byte("notes-mcp")) {
					t.Errorf("antigravity replaced the existing launch configuration:\n%s", got)
				}
				return
			}
			want := path + " already has entries mcpwire did not write or that changed since it wrote them: notes"
			if p.Owner == providers.OwnerStrict {
				want = path + ": notes is operator-owned or modified; choose a different name"
			}
			if err == nil || err.Error() != want {
				t.Fatalf("error %v\nwant %s", err, want)
			}
			if d := diffStates(before, treeState(t, root)); len(d) > 0 {
				t.Errorf("refusal changed files:\n%s", strings.Join(d, "\n"))
			}

			force := w.request(name, "", "", "notes")
			force.Inject.Force = true
			_, err = write.Inject(fsys.NewOS(), force)
			if p.Owner == providers.OwnerStrict {
				if err == nil || err.Error() != want {
					t.Fatalf("--force: error %v\nwant %s", err, want)
				}
				if d := diffStates(before, treeState(t, root)); len(d) > 0 {
					t.Errorf("refusal changed files:\n%s", strings.Join(d, "\n"))
				}
				return
			}
			if err != nil {
				t.Fatalf("--force: %v", err)
			}
			got := read(t, path)
			if bytes.Contains(got, []byte("my-notes")) || !bytes.Contains(got, []byte("notes-mcp")) {
				t.Fatalf("--force did not replace the entry:\n%s", got)
			}
			other := `"theme": "dark"`
			if p.Format == format.TOML {
				other = "# mine\nmodel = \"m\"\n"
			}
			if !bytes.Contains(got, []byte(other)) {
				t.Errorf("--force lost the person's other settings:\n%s", got)
			}
			res, err := write.Uninject(fsys.NewOS(), w.request(name, "", "", "notes"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Removed, []string{"notes"}) {
				t.Errorf("uninject after --force removed %v, kept %v; want notes removed", res.Removed, res.Kept)
			}
		})
	}
}

// TestUninjectLeavesOthersEntries: for every core provider, uninject never touches a
// hand-written entry of the same name (kept, with a WARNING naming it and the file,
// the file byte-identical), and keeps an entry mcpwire wrote that the person edited
// afterwards, with the same WARNING. Entries mcpwire wrote and nobody changed are
// removed in the same run.
//
// spec: C6
func TestUninjectLeavesOthersEntries(t *testing.T) {
	for _, name := range coreProviders {
		t.Run(name+" hand-written", func(t *testing.T) {
			w, p, path := c6World(t, name, nil)
			orig := handWritten(p)
			w.place(path, orig)
			// an ownership record for this file exists (another server of mcpwire's)
			if _, err := write.Inject(fsys.NewOS(), w.request(name, "", "", "fetch")); err != nil {
				t.Fatal(err)
			}
			afterInject := read(t, path)
			w.warns = nil
			res, err := write.Uninject(fsys.NewOS(), w.request(name, "", "", "notes"))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Removed) > 0 || !slices.Equal(res.Kept, []string{"notes"}) {
				t.Errorf("removed %v, kept %v; want notes kept", res.Removed, res.Kept)
			}
			if got := read(t, path); !bytes.Equal(got, afterInject) {
				t.Errorf("uninject changed the file:\n%s", got)
			}
			wantWarning(t, w.warns, "notes", path)
		})
		t.Run(name+" edited", func(t *testing.T) {
			w, _, path := c6World(t, name, nil)
			if _, err := write.Inject(fsys.NewOS(), w.request(name, "", "", "notes", "fetch")); err != nil {
				t.Fatal(err)
			}
			// the person edits notes' command
			b := read(t, path)
			if !bytes.Contains(b, []byte("notes-mcp")) {
				t.Fatalf("no notes entry in\n%s", b)
			}
			edited := bytes.Replace(b, []byte(`"notes-mcp"`), []byte(`"notes-mcp-dev"`), 1)
			if err := os.WriteFile(path, edited, 0o600); err != nil {
				t.Fatal(err)
			}
			w.warns = nil
			res, err := write.Uninject(fsys.NewOS(), w.request(name, "", "", "notes", "fetch"))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Removed, []string{"fetch"}) || !slices.Equal(res.Kept, []string{"notes"}) {
				t.Errorf("removed %v, kept %v; want fetch removed, notes kept", res.Removed, res.Kept)
			}
			got := read(t, path)
			if !bytes.Contains(got, []byte("notes-mcp-dev")) || bytes.Contains(got, []byte("mcp-server-fetch")) {
				t.Errorf("after uninject:\n%s", got)
			}
			wantWarning(t, w.warns, "notes", path)
		})
	}
}

// wantWarning fails unless exactly one warning names both the entry and the file.
func wantWarning(t *testing.T, warns []string, entry, path string) {
	t.Helper()
	n := 0
	for _, w := range warns {
		if strings.Contains(w, " "+entry+" ") && strings.Contains(w, path) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want one warning naming %s and %s, got %q", entry, path, warns)
	}
}

// TestGrokBuildMarkers: Grok Build blocks are wrapped in marker comments; a table
// without markers is never removed, even when the ownership record matches its
// content (the person took the block over by removing the markers), and an unmarked
// table identical to what mcpwire would write is still refused without --force.
//
// spec: C6
func TestGrokBuildMarkers(t *testing.T) {
	w, _, path := c6World(t, "grok-build", nil)
	if _, err := write.Inject(fsys.NewOS(), w.request("grok-build", "", "", "notes")); err != nil {
		t.Fatal(err)
	}
	got := string(read(t, path))
	block := "# >>> mcpwire-managed: notes\n[mcp_servers.notes]\n"
	if !strings.HasPrefix(got, block) || !strings.HasSuffix(got, "# <<< mcpwire-managed: notes\n") {
		t.Fatalf("block not wrapped in markers:\n%s", got)
	}
	unmarked := strings.NewReplacer("# >>> mcpwire-managed: notes\n", "", "# <<< mcpwire-managed: notes\n", "").Replace(got)
	if err := os.WriteFile(path, []byte(unmarked), 0o644); err != nil {
		t.Fatal(err)
	}
	w.warns = nil
	res, err := write.Uninject(fsys.NewOS(), w.request("grok-build", "", "", "notes"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) > 0 || string(read(t, path)) != unmarked {
		t.Errorf("an unmarked table was removed:\n%s", read(t, path))
	}
	wantWarning(t, w.warns, "notes", path)

	// identical but unmarked: the person's, refused without --force
	_, err = write.Inject(fsys.NewOS(), w.request("grok-build", "", "", "notes"))
	var want = path + " already has entries mcpwire did not write or that changed since it wrote them: notes"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	force := w.request("grok-build", "", "", "notes")
	force.Inject.Force = true
	if _, err := write.Inject(fsys.NewOS(), force); err != nil {
		t.Fatal(err)
	}
	if string(read(t, path)) != got {
		t.Errorf("--force did not restore the marked block:\n%s", read(t, path))
	}

	// Markers are whole lines: the markers of "notes-archive" do not mark "notes".
	// (the table itself is exactly what mcpwire wrote, so only the markers differ)
	lookalike := strings.ReplaceAll(got, "mcpwire-managed: notes\n", "mcpwire-managed: notes-archive\n")
	if err := os.WriteFile(path, []byte(lookalike), 0o644); err != nil {
		t.Fatal(err)
	}
	w.warns = nil
	if res, err := write.Uninject(fsys.NewOS(), w.request("grok-build", "", "", "notes")); err != nil || len(res.Removed) > 0 {
		t.Errorf("a table under another server's markers was removed: %v %+v", err, res)
	}
	if string(read(t, path)) != lookalike {
		t.Errorf("file changed:\n%s", read(t, path))
	}
}

// TestAntigravityOwnedEntryFollowsProfile: Antigravity keeps the launch configuration
// of entries mcpwire did not write, but an entry mcpwire wrote and nobody changed is
// mcpwire's: a later injection updates it (here a profile that disables the server)
// and the ownership record follows, so that uninject still removes it.
//
// spec: C6 F3
func TestAntigravityOwnedEntryFollowsProfile(t *testing.T) {
	w, _, path := c6World(t, "antigravity", nil)
	if _, err := write.Inject(fsys.NewOS(), w.request("antigravity", "", "", "docs")); err != nil {
		t.Fatal(err)
	}
	// profile local denies docs__* for antigravity: disabled: true
	req := w.request("antigravity", "", "local")
	req.Servers = []string{"docs"}
	if _, err := write.Inject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(read(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.MCPServers["docs"]["disabled"] != true {
		t.Fatalf("docs not disabled: %v", doc.MCPServers["docs"])
	}
	w.warns = nil
	res, err := write.Uninject(fsys.NewOS(), w.request("antigravity", "", "", "docs"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Removed, []string{"docs"}) {
		t.Errorf("uninject removed %v, kept %v (warnings %q); want docs removed", res.Removed, res.Kept, w.warns)
	}
}

// TestCorruptOwnershipRecord: a corrupt ownership record (of either kind) fails
// inject and uninject with a hint to delete it, before anything is written.
//
// spec: C3 C4 C6 W7
func TestCorruptOwnershipRecord(t *testing.T) {
	for _, sub := range []string{render.OwnershipDir, permissionsDir} {
		corrupt := []string{"{", "[]", `{"entries": {"notes": "short"}}`, `{"entries": []}`, `{"entries": {"notes": null}}`, `{"destination": 3}`}
		if sub == permissionsDir {
			corrupt = []string{"{", "[]", `{"denyAdded": "x"}`, `{"denyPreserved": [1]}`, `{"denyDigest": "abc"}`, `{"contentDigest": 3}`, `{"sidecar": "yes"}`,
				`{"denyAdded": [null]}`, `{"denyPreserved": [""]}`}
		}
		for _, content := range corrupt {
			t.Run(sub+" "+content, func(t *testing.T) {
				w := newWorld(t)
				if _, err := write.Inject(fsys.NewOS(), w.request("claude-code", "", "dev")); err != nil {
					t.Fatal(err)
				}
				rec := recordOf(t, w, sub)
				if err := os.WriteFile(rec, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
				root := filepath.Dir(w.home)
				before := treeState(t, root)
				for _, op := range []string{"inject", "uninject"} {
					var err error
					f := &fsystest.Faulty{}
					if op == "inject" {
						_, err = write.Inject(f, w.request("claude-code", "", "local"))
					} else {
						_, err = write.Uninject(f, w.request("claude-code", "", "", "notes"))
					}
					var re *render.RecordError
					if !errors.As(err, &re) || re.Path != rec {
						t.Fatalf("%s: error %v, want a corrupt record error for %s", op, err, rec)
					}
					if h := re.Hints(); len(h) != 1 || !strings.HasPrefix(h[0], "delete "+rec+" ") {
						t.Errorf("%s: hints %q, want one to delete %s", op, h, rec)
					}
					if len(f.Calls()) > 0 {
						t.Errorf("%s touched the disk: %q", op, f.Calls())
					}
					if d := diffStates(before, treeState(t, root)); len(d) > 0 {
						t.Errorf("%s changed files:\n%s", op, strings.Join(d, "\n"))
					}
				}
			})
		}
	}
}

// TestOpencodeToolKeysOwnership: opencode's top-level tool keys are recorded like
// entries. uninject removes the keys mcpwire wrote for the servers it removes, never
// a key the person already had (even an identical one), never one of a server still
// injected (a_b's keys are not a's, although they start with "a_"), and keeps, with a
// WARNING, a key the person changed.
//
// spec: C6 F3
func TestOpencodeToolKeysOwnership(t *testing.T) {
	w, _, path := c6World(t, "opencode", []byte("{\n  \"tools\": {\n    \"a_own\": false,\n    \"bash\": true\n  }\n}\n"))
	reg := w.registry()
	for _, n := range []string{"a", "a_b"} {
		if err := reg.AddServer(&registry.Server{Name: n, Type: "stdio", Command: n + "-mcp"}); err != nil {
			t.Fatal(err)
		}
	}
	req := w.request("opencode", "", "", "a", "a_b")
	req.Filters = map[string]*registry.Filters{"*": {ToolDeny: []string{"a__own", "a__x", "a__y", "a_b__z"}}}
	if _, err := write.Inject(fsys.NewOS(), req); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tools map[string]bool `json:"tools"`
	}
	decode := func() map[string]bool {
		doc.Tools = nil
		std, err := hujson.Standardize(read(t, path))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(std, &doc); err != nil {
			t.Fatal(err)
		}
		return doc.Tools
	}
	if got := decode(); len(got) != 5 {
		t.Fatalf("tools after inject: %v", got)
	}
	// the person changes a_y
	edited := bytes.Replace(read(t, path), []byte(`"a_y": false`), []byte(`"a_y": true`), 1)
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	w.warns = nil
	if _, err := write.Uninject(fsys.NewOS(), w.request("opencode", "", "", "a")); err != nil {
		t.Fatal(err)
	}
	got := decode()
	want := map[string]bool{"a_own": false, "bash": true, "a_y": true, "a_b_z": false}
	if !maps.Equal(got, want) {
		t.Errorf("tools after uninject a: %v, want %v", got, want)
	}
	if len(w.warns) != 1 || !strings.Contains(w.warns[0], "a_y") || !strings.Contains(w.warns[0], path) {
		t.Errorf("warnings %q, want one naming a_y and %s", w.warns, path)
	}
	if _, err := write.Uninject(fsys.NewOS(), w.request("opencode", "", "", "a_b")); err != nil {
		t.Fatal(err)
	}
	delete(want, "a_b_z")
	if got := decode(); !maps.Equal(got, want) {
		t.Errorf("tools after uninject a_b: %v, want %v", got, want)
	}
}
