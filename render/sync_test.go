package render_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// syncCase is one provider's servers fixture, injected with its profile and then
// with a profile of fewer servers (the first one only, with the same filters).
type syncCase struct {
	fx          fixtures.Fixture
	p           *providers.Provider
	scope       providers.Scope // "" for the provider's default
	first, rest []string        // the servers the smaller profile keeps, and drops
}

func syncCases(t *testing.T) []syncCase {
	var out []syncCase
	for _, fx := range fixtures.All() {
		if fx.Role != fixtures.Servers {
			continue
		}
		w := newWorld(t)
		p := w.provider(fx.Provider)
		if p.Dest(providers.Scope(fx.Scope)).Nested() {
			continue // a project's own servers inside ~/.claude.json: TestClaudeLocalSync
		}
		res, err := w.registry().Resolve(fx.Profile)
		if err != nil {
			t.Fatal(err)
		}
		// servers the fixture already holds are left out: Antigravity keeps such an entry
		// as the person's and only merges filters into it (C6)
		have := entriesIn(t, p, fx.Name, fixtures.File(fx.Name))
		all := slices.DeleteFunc(slices.Clone(res.Servers), func(n string) bool { _, ok := have[n]; return ok })
		if len(all) < 2 {
			t.Fatalf("%s: profile %s has fewer than two servers", fx.Name, fx.Profile)
		}
		slices.Sort(all)
		sc := syncCase{fx: fx, p: p, first: all[:1], rest: all[1:]}
		if fx.Scope != string(p.DefaultScope) {
			sc.scope = providers.Scope(fx.Scope)
		}
		out = append(out, sc)
	}
	return out
}

// full is the request of the fixture's profile (its servers the fixture does not hold).
func (sc syncCase) full(w *world) write.Request {
	r := w.request(sc.p.Name, sc.scope, sc.fx.Profile)
	r.Servers = append(slices.Clone(sc.first), sc.rest...)
	return r
}

// smaller is the request of the smaller profile: the same filters, the first server.
func (sc syncCase) smaller(w *world) write.Request {
	r := w.request(sc.p.Name, sc.scope, sc.fx.Profile)
	r.Servers = sc.first
	return r
}

// place puts the fixture at its destination and returns the path.
func (sc syncCase) place(w *world) string {
	path := w.dest(sc.p, providers.Scope(sc.fx.Scope))
	w.place(path, fixtures.File(sc.fx.Name))
	return path
}

// TestProfileSync: for every provider with a servers file, injecting a profile and
// then a profile with fewer servers leaves exactly what injecting the smaller profile
// alone leaves — the entries the first profile added and the second does not select
// are removed in the same transaction, with their filters (Claude deny rules, opencode
// tools keys), from the file and the ownership record; every entry mcpwire did not
// write stays — and the inject result names what it removed. An --servers injection
// of the same one server removes nothing (additive).
//
// spec: B7 C4 C6 F3
func TestProfileSync(t *testing.T) {
	for _, sc := range syncCases(t) {
		t.Run(sc.fx.Name, func(t *testing.T) {
			want := newWorld(t)
			wantPath := sc.place(want)
			if _, err := write.Inject(fsys.NewOS(), sc.smaller(want)); err != nil {
				t.Fatal(err)
			}

			w := newWorld(t)
			path := sc.place(w)
			if _, err := write.Inject(fsys.NewOS(), sc.full(w)); err != nil {
				t.Fatal(err)
			}
			// --servers is additive: nothing goes
			add := w.request(sc.p.Name, sc.scope, "", sc.first...)
			add.Inject.KeepFilters = true
			res, err := write.Inject(fsys.NewOS(), add)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Removed) > 0 || !hasAll(entryDigests(t, sc.p, path), sc.rest) {
				t.Fatalf("--servers removed %v", res.Removed)
			}
			res, err = write.Inject(fsys.NewOS(), sc.smaller(w))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Unselected, sc.rest) || !slices.Equal(res.Removed, sc.rest) {
				t.Errorf("removed %v (unselected %v), want %v", res.Removed, res.Unselected, sc.rest)
			}
			sameSyncState(t, sc.p, want, wantPath, w, path)
		})
	}
}

// TestProfileSyncKeepsChanged: an entry the first profile wrote that the person
// changed since is kept when the second profile does not select it, with a WARNING
// naming it and the file, and (Claude Code) its deny rules stay: a server that stays
// never loses its restrictions. An entry mcpwire never wrote is never touched.
//
// spec: B7 C4 C6
func TestProfileSyncKeepsChanged(t *testing.T) {
	for _, sc := range syncCases(t) {
		t.Run(sc.fx.Name, func(t *testing.T) {
			w := newWorld(t)
			path := sc.place(w)
			if _, err := write.Inject(fsys.NewOS(), sc.full(w)); err != nil {
				t.Fatal(err)
			}
			var settings string
			var rulesBefore []string
			if sc.p.Settings != nil {
				settings = w.settingsDest(sc.p, providers.Scope(sc.fx.Scope))
				rulesBefore = denyOf(t, settings)
			}
			edited := sc.rest[0]
			editEntry(t, sc.p, path, edited)
			w.warns = nil
			res, err := write.Inject(fsys.NewOS(), sc.smaller(w))
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(res.Removed, edited) || !slices.Equal(res.Unselected, sc.rest[1:]) {
				t.Errorf("removed %v, want %v (%s kept)", res.Removed, sc.rest[1:], edited)
			}
			if _, ok := entryDigests(t, sc.p, path)[edited]; !ok {
				t.Errorf("the changed entry %s was removed", edited)
			}
			wantWarning(t, w.warns, edited, path)
			if settings == "" {
				return
			}
			dr := sc.p.Dialect().DenyRules()
			deny := denyOf(t, settings)
			n := 0
			for _, r := range rulesBefore {
				if dr.Owns(r, edited) {
					n++
					if !slices.Contains(deny, r) {
						t.Errorf("deny rule %s of the kept server %s was removed", r, edited)
					}
				}
				if slices.ContainsFunc(sc.rest[1:], func(s string) bool { return dr.Owns(r, s) }) && slices.Contains(deny, r) {
					t.Errorf("deny rule %s of a removed server stays", r)
				}
			}
			if n == 0 {
				t.Fatalf("the fixture gives %s no deny rule: the test proves nothing", edited)
			}
		})
	}
}

// TestProfileSyncEmptyProfile: an empty profile removes every entry mcpwire wrote, and
// leaves the rest; on a file mcpwire never wrote to it changes nothing.
//
// spec: B7 R7
func TestProfileSyncEmptyProfile(t *testing.T) {
	w := newWorld(t)
	p := w.provider("cursor")
	path := w.dest(p, providers.Project)
	w.place(path, fixtures.File("cursor/project.dev.mcp.json"))
	before := entryDigests(t, p, path)
	if _, err := write.Inject(fsys.NewOS(), w.request("cursor", "", "dev")); err != nil {
		t.Fatal(err)
	}
	empty := w.request("cursor", "", "dev")
	empty.Servers = nil
	res, err := write.Inject(fsys.NewOS(), empty)
	if err != nil {
		t.Fatal(err)
	}
	if got := entryDigests(t, p, path); !maps.Equal(got, before) || len(res.Unselected) != 3 {
		t.Errorf("after the empty profile: %v (removed %v), want the fixture's %v", got, res.Unselected, before)
	}
	res, err = write.Inject(fsys.NewOS(), empty)
	if err != nil || len(res.Changed) > 0 || len(res.Notes) != 1 {
		t.Errorf("second run: %v, changed %v, notes %q", err, res.Changed, res.Notes)
	}
}

func hasAll(m map[string]string, names []string) bool {
	for _, n := range names {
		if _, ok := m[n]; !ok {
			return false
		}
	}
	return true
}

// container is where a provider keeps its servers, as mcpwire reads it.
func container(p *providers.Provider) format.Container {
	c := format.Container{Path: []string{p.ServersKey}, NameKey: p.EntryName}
	if p.Owner == providers.OwnerMarkers {
		c.Frame = p.Frame
	}
	return c
}

// entryDigests maps the server entries of a client file to their digests.
func entryDigests(t *testing.T, p *providers.Provider, path string) map[string]string {
	t.Helper()
	return entriesIn(t, p, path, read(t, path))
}

// entriesIn maps the server entries of a client file's content to their digests.
func entriesIn(t *testing.T, p *providers.Provider, path string, content []byte) map[string]string {
	t.Helper()
	return mapEntries(t, p, path, content, func(e format.Entry) string { return e.Digest() })
}

// mapEntries maps the server entries of a client file's content through f.
func mapEntries(t *testing.T, p *providers.Provider, path string, content []byte, f func(format.Entry) string) map[string]string {
	t.Helper()
	doc, err := format.Parse(p.Format, path, content, true)
	if err != nil {
		t.Fatal(err)
	}
	es, err := doc.Entries(container(p))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range es.Names() {
		e, _ := es.Get(n)
		out[n] = f(e)
	}
	return out
}

// editEntry changes one entry of a client file as a person would: another command.
func editEntry(t *testing.T, p *providers.Provider, path, name string) {
	t.Helper()
	doc, err := format.Parse(p.Format, path, read(t, path), true)
	if err != nil {
		t.Fatal(err)
	}
	es, err := doc.Entries(container(p))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := es.Set(name, format.Object{{Key: "command", Value: "edited-by-hand"}}); err != nil {
		t.Fatal(err)
	}
	b, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameSyncState compares two worlds after an injection: the client file (its whole
// decoded content for JSON and TOML, its entries otherwise), Claude's deny array, and
// the ownership records' entries.
func sameSyncState(t *testing.T, p *providers.Provider, want *world, wantPath string, got *world, gotPath string) {
	t.Helper()
	if g, w := entryJSON(t, p, got, gotPath), entryJSON(t, p, want, wantPath); !maps.Equal(g, w) {
		t.Errorf("entries %v, want %v", g, w)
	}
	if g, w := decoded(t, p, got, gotPath), decoded(t, p, want, wantPath); !reflect.DeepEqual(g, w) {
		t.Errorf("file content differs:\n%v\nwant\n%v", g, w)
	}
	if p.Settings != nil {
		for _, s := range []providers.Scope{providers.Project, providers.User} {
			gs, ws := got.settingsDest(p, s), want.settingsDest(p, s)
			if _, err := os.Stat(ws); err == nil {
				if g, w := denyOf(t, gs), denyOf(t, ws); !slices.Equal(g, w) {
					t.Errorf("deny %q, want %q", g, w)
				}
			}
		}
	}
	if g, w := ownedNames(t, p, got, gotPath), ownedNames(t, p, want, wantPath); !slices.Equal(g, w) {
		t.Errorf("ownership record names %v, want %v", g, w)
	}
}

// entryJSON maps the server entries of a client file to their JSON, with the world's
// paths made alike.
func entryJSON(t *testing.T, p *providers.Provider, w *world, path string) map[string]string {
	t.Helper()
	return mapEntries(t, p, path, read(t, path), func(e format.Entry) string { return string(w.normalize(format.Canonical(e.JSON()))) })
}

// decoded is a client file's content as data, with the world's paths made alike.
func decoded(t *testing.T, p *providers.Provider, w *world, path string) any {
	t.Helper()
	b := w.normalize(read(t, path))
	var v any
	switch p.Format {
	case format.JSON, format.JSONC:
		std, err := hujson.Standardize(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(std, &v); err != nil {
			t.Fatal(err)
		}
	case format.TOML:
		if err := toml.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// ownedNames lists the names the world's one ownership record holds, after checking
// that each server entry's digest is the file's (no staged record left).
func ownedNames(t *testing.T, p *providers.Provider, w *world, path string) []string {
	t.Helper()
	recs := recordFiles(t, w.layer, render.OwnershipDir)
	if len(recs) != 1 {
		t.Fatalf("%d ownership records, want 1", len(recs))
	}
	var r struct{ Entries map[string]string }
	if err := json.Unmarshal(read(t, recs[0]), &r); err != nil {
		t.Fatal(err)
	}
	current := entryDigests(t, p, path)
	for n, d := range r.Entries {
		if !strings.Contains(n, ":") && current[n] != d {
			t.Errorf("record entry %s: digest %s, the file's %s", n, d, current[n])
		}
	}
	if staged, _ := filepath.Glob(filepath.Join(w.layer, render.OwnershipDir, "*.staged")); len(staged) > 0 {
		t.Errorf("staged records left: %v", staged)
	}
	return slices.Sorted(maps.Keys(r.Entries))
}
