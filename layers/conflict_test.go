package layers

import (
	"encoding/json"
	"errors"
	"github.com/mcpwire/mcpwire/fixtures"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

const meServers = `{
  "servers": {
    // x's comment
    "x": {"command": "old", /* inside */ "injectedProviders": ["codex"]},
    "y": {"command": "y"}
  }
}
`

// loadMe writes me/mcp-servers.json and loads the single layer "me".
func loadMe(t *testing.T, content string) (root string, set *Set) {
	t.Helper()
	root = t.TempDir()
	fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": content})
	set, err := Load(fsys.NewOS(), cfgOf(root, "me"))
	if err != nil {
		t.Fatal(err)
	}
	return root, set
}

func readMe(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "me/mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// spec: W8 L10
func TestSaveExpect(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name   string
		other  string // the file as another process left it ("" = unchanged)
		expect map[string]json.RawMessage
		top    map[string]json.RawMessage
		want   string // "" = saved
	}{
		{name: "entry present, read as absent", expect: map[string]json.RawMessage{"x": nil}, want: `server "x" was added to`},
		{name: "entry unchanged, written differently",
			other:  `{"servers": {"x": {"injectedProviders": ["codex"], "command": "old"}, "y": {"command": "y"}}}`,
			expect: map[string]json.RawMessage{"x": raw(`{"command":"old","injectedProviders":["codex"]}`)}},
		{name: "entry changed",
			other:  `{"servers": {"x": {"command": "new", "injectedProviders": ["codex"]}}}`,
			expect: map[string]json.RawMessage{"x": raw(`{"command":"old","injectedProviders":["codex"]}`)},
			want:   `server "x" in `},
		{name: "entry removed",
			other:  `{"servers": {"y": {"command": "y"}}}`,
			expect: map[string]json.RawMessage{"x": raw(`{"command":"old","injectedProviders":["codex"]}`)},
			want:   `server "x" was removed from `},
		{name: "entry added", expect: map[string]json.RawMessage{"new": nil},
			other: `{"servers": {"new": {"command": "n"}}}`, want: `server "new" was added to `},
		{name: "absent entry still absent", expect: map[string]json.RawMessage{"new": nil}},
		{name: "huge numbers compare", other: `{"servers": {"x": {"timeout": 1e999}}}`,
			expect: map[string]json.RawMessage{"x": raw(`{"timeout":1e999}`)}},
		{name: "top-level member changed", other: `{"credentialPolicy": "none", "servers": {}}`,
			top: map[string]json.RawMessage{"credentialPolicy": nil}, want: "credentialPolicy was added to "},
		{name: "top-level member as read", other: `{"credentialPolicy": "none", "servers": {}}`,
			top: map[string]json.RawMessage{"credentialPolicy": raw(`"none"`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, set := loadMe(t, meServers)
			if tt.other != "" {
				fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": tt.other})
			}
			before := fixtures.Tree(t, root)
			mem := *set.Write().Servers
			err := set.Save(Delta{Kind: Servers,
				Set:       map[string]json.RawMessage{"mine": raw(`{"command":"m"}`)},
				Expect:    tt.expect,
				ExpectTop: tt.top,
			})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(readMe(t, root), `"mine"`) {
					t.Fatal("not saved")
				}
				return
			}
			path := filepath.Join(root, "me/mcp-servers.json")
			var ce *ConflictError
			if !errors.As(err, &ce) || !errors.Is(err, ErrConflict) || ce.Path != path {
				t.Fatalf("err = %v, want a *ConflictError", err)
			}
			for _, part := range []string{tt.want, path, "by another process after mcpwire read it; nothing was written; run the command again"} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("%q lacks %q", err, part)
				}
			}
			fixtures.SameTree(t, before, fixtures.Tree(t, root))
			if got := set.Write().Servers; len(got.Entries) != len(mem.Entries) || got.Path != mem.Path {
				t.Error("in-memory file changed")
			}
		})
	}
}

// A change another process makes between the plan and the lock is caught under the
// lock: the edit is redone on the new content and the expectation fails there.
//
// spec: W8
func TestSaveExpectUnderTheLock(t *testing.T) {
	root, set := loadMe(t, meServers)
	set.fs = &lockHook{FS: set.fs, before: func() {
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": `{"servers": {"x": {"command": "other"}}}`})
	}}
	err := set.Save(Delta{Kind: Servers,
		Set:    map[string]json.RawMessage{"x": json.RawMessage(`{"command":"mine"}`)},
		Expect: map[string]json.RawMessage{"x": set.Write().Servers.Entries["x"]},
	})
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	if got := readMe(t, root); !strings.Contains(got, `"other"`) || strings.Contains(got, `"mine"`) {
		t.Fatalf("the other process's change was overwritten:\n%s", got)
	}
}

// lockHook runs before once, just before the first lock is taken.
type lockHook struct {
	fsys.FS
	before func()
}

func (h *lockHook) Lock(name string) (func() error, error) {
	if h.before != nil {
		h.before()
		h.before = nil
	}
	return h.FS.Lock(name)
}

// spec: W8 L11
func TestSavePatch(t *testing.T) {
	addCursor := func(cur json.RawMessage) (map[string]json.RawMessage, error) {
		if cur == nil {
			return nil, nil
		}
		var e struct {
			InjectedProviders []string `json:"injectedProviders"`
		}
		if err := json.Unmarshal(cur, &e); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(append(e.InjectedProviders, "cursor"))
		return map[string]json.RawMessage{"injectedProviders": b}, nil
	}
	t.Run("a patch changes one member of the entry as it is in the file", func(t *testing.T) {
		root, set := loadMe(t, meServers)
		// another process changes x after this one read it
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": strings.Replace(meServers, `"old"`, `"theirs"`, 1)})
		set.fs = &lockHook{FS: set.fs, before: func() {
			// and again between the plan and the lock
			fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": strings.Replace(meServers, `"old"`, `"theirs-2"`, 1)})
		}}
		err := set.Save(Delta{Kind: Servers, Patch: map[string]func(json.RawMessage) (map[string]json.RawMessage, error){
			"x": addCursor, "gone": addCursor,
		}})
		if err != nil {
			t.Fatal(err)
		}
		got := readMe(t, root)
		for _, want := range []string{`"theirs-2"`, "// x's comment", "/* inside */", `["codex", "cursor"]`} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %s in\n%s", want, got)
			}
		}
		if strings.Contains(got, `"gone"`) {
			t.Errorf("a patch of an absent entry created it:\n%s", got)
		}
		if e := string(set.Write().Servers.Entries["x"]); !strings.Contains(e, "theirs-2") || !strings.Contains(e, "cursor") {
			t.Errorf("in-memory file not refreshed: %s", e)
		}
	})
	t.Run("a nil member value removes the member", func(t *testing.T) {
		root, set := loadMe(t, meServers)
		err := set.Save(Delta{Kind: Servers, Patch: map[string]func(json.RawMessage) (map[string]json.RawMessage, error){
			"x": func(json.RawMessage) (map[string]json.RawMessage, error) {
				return map[string]json.RawMessage{"injectedProviders": nil}, nil
			},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if got := readMe(t, root); strings.Contains(got, "injectedProviders") || !strings.Contains(got, `"old"`) {
			t.Fatalf("got\n%s", got)
		}
	})
	t.Run("a patch error names the file and entry, nothing written", func(t *testing.T) {
		root, set := loadMe(t, meServers)
		before := fixtures.Tree(t, root)
		err := set.Save(Delta{Kind: Servers, Patch: map[string]func(json.RawMessage) (map[string]json.RawMessage, error){
			"x": func(json.RawMessage) (map[string]json.RawMessage, error) { return nil, errors.New("boom") },
		}})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "me/mcp-servers.json")+`: server "x": boom`) {
			t.Fatalf("err = %v", err)
		}
		fixtures.SameTree(t, before, fixtures.Tree(t, root))
	})
}

// spec: P4 W8
func TestSaveDropTopIf(t *testing.T) {
	for _, tt := range []struct {
		file string
		kept bool
	}{
		{`{"credentialPolicy": "literal", "servers": {}}`, false},
		{`{"credentialPolicy": "none", "servers": {}}`, true},
		{`{"servers": {}}`, false},
	} {
		root, set := loadMe(t, tt.file)
		err := set.Save(Delta{Kind: Servers, DropTopIf: map[string]json.RawMessage{"credentialPolicy": json.RawMessage(`"literal"`)}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(readMe(t, root), "credentialPolicy"); got != tt.kept {
			t.Errorf("%s: kept = %v\n%s", tt.file, got, readMe(t, root))
		}
	}
}
