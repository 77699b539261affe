package layers

import (
	"encoding/json"
	"github.com/mcpwire/mcpwire/fixtures"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/winetest"
)

var addA = Delta{Kind: Servers, Set: map[string]json.RawMessage{"a": json.RawMessage(`{"name":"a","command":"x"}`)}}

// spec: L8 L10
func TestCheckWrite(t *testing.T) {
	tests := []struct {
		name string
		// setup builds the directories under root and returns the layer list.
		setup func(t *testing.T, root string) []string
		// fold forces the case probe's answer (nil: the real probe).
		fold *bool
		want string // "" = allowed
	}{
		{name: "distinct directories", setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/me"}
		}},
		{name: "same directory twice", setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/org"}
		}, want: "is the same directory as the lower layer"},
		{name: "same directory twice, written differently", setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/org")
			return []string{root + "/org", root + "/x/../org/"}
		}, want: "is the same directory as the lower layer"},
		{name: "same missing directory twice", setup: func(t *testing.T, root string) []string {
			return []string{root + "/a/b", root + "/a/b"}
		}, want: "is the same directory"},
		{name: "the write layer listed twice, not last-but-one", setup: func(t *testing.T, root string) []string {
			return []string{root + "/me", root + "/team", root + "/me"}
		}, want: "is the same directory as the lower layer " + "ROOT/me"},
		{name: "symlink alias of a lower layer as write layer", setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/org")
			symlink(t, root+"/org", root+"/alias")
			return []string{root + "/org", root + "/alias"}
		}, want: "the write layer ROOT/alias is the same directory as the lower layer ROOT/org"},
		{name: "lower layer is the alias", setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/me")
			symlink(t, root+"/me", root+"/alias")
			return []string{root + "/alias", root + "/me"}
		}, want: "is the same directory"},
		{name: "dangling symlink alias", setup: func(t *testing.T, root string) []string {
			symlink(t, root+"/org", root+"/alias")
			return []string{root + "/org", root + "/alias"}
		}, want: "is the same directory"},
		{name: "symlinked ancestor alias", setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/real/org")
			symlink(t, root+"/real", root+"/dots")
			return []string{root + "/real/org", root + "/dots/org"}
		}, want: "is the same directory"},
		{name: "write directory nested inside a lower layer", setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/org/me"}
		}, want: "the write layer ROOT/org/me is inside the lower layer ROOT/org"},
		{name: "write directory nested through a symlink", setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/org/sub")
			symlink(t, root+"/org/sub", root+"/me")
			return []string{root + "/org", root + "/me"}
		}, want: "is inside the lower layer"},
		{name: "lower layer nested inside the write layer is allowed", setup: func(t *testing.T, root string) []string {
			return []string{root + "/me/org", root + "/me"}
		}},
		{name: "sibling with a common prefix is not nested", setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/org2"}
		}},
		{name: "write file hard-linked to a lower file", setup: func(t *testing.T, root string) []string {
			fixtures.WriteFiles(t, root, map[string]string{"org/mcp-servers.json": `{}`})
			mkdir(t, root+"/me")
			if err := os.Link(root+"/org/mcp-servers.json", root+"/me/mcp-servers.json"); err != nil {
				t.Fatal(err)
			}
			return []string{root + "/org", root + "/me"}
		}, want: "the write layer file ROOT/me/mcp-servers.json is the lower layer file ROOT/org/mcp-servers.json"},
		{name: "write profiles file hard-linked to a lower servers file", setup: func(t *testing.T, root string) []string {
			fixtures.WriteFiles(t, root, map[string]string{"org/mcp-servers.json": `{}`})
			mkdir(t, root+"/me")
			if err := os.Link(root+"/org/mcp-servers.json", root+"/me/mcp-profiles.json"); err != nil {
				t.Fatal(err)
			}
			return []string{root + "/org", root + "/me"}
		}, want: "the write layer file ROOT/me/mcp-profiles.json is the lower layer file ROOT/org/mcp-servers.json"},
		{name: "missing suffix differing in case, case-sensitive filesystem", fold: ptr(false), setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/ORG"}
		}},
		{name: "missing suffix differing in case, case-insensitive filesystem", fold: ptr(true), setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/ORG"}
		}, want: "is the same directory"},
		{name: "nested with a different case, case-insensitive filesystem", fold: ptr(true), setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/org")
			return []string{root + "/org", root + "/ORG/me"}
		}, want: "is inside the lower layer"},
		{name: "nested with a different case, case-sensitive filesystem", fold: ptr(false), setup: func(t *testing.T, root string) []string {
			mkdir(t, root+"/org")
			return []string{root + "/org", root + "/ORG/me"}
		}},
		{name: "real probe on this filesystem", setup: func(t *testing.T, root string) []string {
			return []string{root + "/org", root + "/ORG"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.fold != nil {
				old := caseInsensitive
				t.Cleanup(func() { caseInsensitive = old })
				caseInsensitive = func(string) bool { return *tt.fold }
			}
			if (tt.fold == nil || !*tt.fold) && probeCaseInsensitive(root) {
				// a case-sensitive answer here would contradict what the
				// filesystem itself says (Windows, macOS)
				t.Skip("the test directory is on a case-insensitive filesystem")
			}
			dirs := tt.setup(t, root)
			// a missing lower layer is refused on load (L13): create them, so that the
			// overlap checks of the write layer are what is tested
			for _, d := range dirs[:len(dirs)-1] {
				if _, err := os.Stat(d); os.IsNotExist(err) {
					mkdir(t, d)
				}
			}
			before := fixtures.Tree(t, root)
			set, err := Load(fsys.NewOS(), Config{Dirs: dirs, Layered: true})
			if err != nil {
				t.Fatal(err)
			}
			err = set.Save(addA)
			want := strings.ReplaceAll(tt.want, "ROOT", root)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Save: %v", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), "overlapping configuration layer targets: ") || !strings.Contains(err.Error(), want) {
				t.Fatalf("Save: %v, want %q", err, want)
			}
			fixtures.SameTree(t, before, fixtures.Tree(t, root))
			if _, ok := set.Write().Servers.Entries["a"]; ok {
				t.Error("the refused entry is in memory")
			}
		})
	}
}

// spec: L8
func TestProbeCaseInsensitive(t *testing.T) {
	dir := t.TempDir()
	got := probeCaseInsensitive(dir)
	// compare with what the filesystem says about an upper-case file
	f := filepath.Join(dir, "UPPER")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := os.Stat(filepath.Join(dir, "upper"))
	if got != (err == nil) {
		t.Fatalf("probe says case-insensitive=%v, the filesystem disagrees", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the probe left files behind: %v", entries)
	}
	// a file path probes its directory
	if probeCaseInsensitive(f) != got {
		t.Error("probing a file path must probe its directory")
	}
	// an ancestor where no file can be created is treated as case-insensitive
	if !probeCaseInsensitive("/proc") {
		t.Error("an unprobeable directory must count as case-insensitive")
	}
}

// spec: L4 L10 L11 W4
func TestSave(t *testing.T) {
	t.Run("comments, order and other members survive; apiVersion and kind written", func(t *testing.T) {
		root := t.TempDir()
		src := `// org-managed overlay: keep this comment
{
  "servers": {
    // first
    "old": {"command": "o"}, // after old
    "gone": {"command": "g"},
  },
  "x-note": "kept", /* trailing */
}
`
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": src})
		set, err := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err != nil {
			t.Fatal(err)
		}
		err = set.Save(Delta{Kind: Servers,
			Set:    map[string]json.RawMessage{"new": json.RawMessage(`{"name":"new","command":"n"}`)},
			Delete: []string{"gone"},
			Top:    map[string]json.RawMessage{"credentialPolicy": json.RawMessage(`"none"`)},
		})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(root, "me/mcp-servers.json"))
		got := string(b)
		for _, want := range []string{"// org-managed overlay: keep this comment", "// first", "// after old", "/* trailing */",
			`"x-note": "kept"`, `"apiVersion": "aiwg.io/v1"`, `"kind": "McpServerRegistry"`, `"credentialPolicy": "none"`, `"new"`} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in\n%s", want, got)
			}
		}
		if strings.Contains(got, `"gone"`) {
			t.Errorf("deleted entry still there:\n%s", got)
		}
		f := set.Write().Servers
		if _, ok := f.Entries["new"]; !ok || len(f.Entries) != 2 || string(f.Top["credentialPolicy"]) != `"none"` {
			t.Errorf("in-memory file not refreshed: %v %q", f.Entries, f.Top)
		}
		// a nil Top value removes the member
		if err := set.Save(Delta{Kind: Servers, Top: map[string]json.RawMessage{"credentialPolicy": nil}}); err != nil {
			t.Fatal(err)
		}
		b, _ = os.ReadFile(filepath.Join(root, "me/mcp-servers.json"))
		if strings.Contains(string(b), "credentialPolicy") || !strings.Contains(string(b), "// first") {
			t.Errorf("after removing the policy:\n%s", b)
		}
	})
	t.Run("new file 0600 in new 0700 directories", func(t *testing.T) {
		root := t.TempDir()
		set, err := Load(fsys.NewOS(), cfgOf(root, "a/b/me"))
		if err != nil {
			t.Fatal(err)
		}
		if err := set.Save(addA); err != nil {
			t.Fatal(err)
		}
		dirMode, fileMode := fsys.EffectiveDirMode(0o700), fsys.EffectiveMode(0o600)
		for p, want := range map[string]fs.FileMode{"a": dirMode, "a/b": dirMode, "a/b/me": dirMode, "a/b/me/mcp-servers.json": fileMode} {
			fi, err := os.Stat(filepath.Join(root, p))
			if err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: %v %v, want %v", p, fi.Mode().Perm(), err, want)
			}
		}
		if _, err := os.Stat(filepath.Join(root, "a/b/me/mcp-profiles.json")); err == nil {
			t.Error("an untouched registry file was created")
		}
		b, _ := os.ReadFile(filepath.Join(root, "a/b/me/mcp-servers.json"))
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(b, &doc); err != nil || string(doc["apiVersion"]) != `"aiwg.io/v1"` || string(doc["kind"]) != `"McpServerRegistry"` {
			t.Errorf("new file:\n%s", b)
		}
	})
	t.Run("an existing file is made 0600", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-profiles.json": `{"profiles": {}}`})
		os.Chmod(filepath.Join(root, "me/mcp-profiles.json"), 0o644)
		set, _ := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err := set.Save(Delta{Kind: Profiles, Set: map[string]json.RawMessage{"p": json.RawMessage(`{"servers":[]}`)}}); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(filepath.Join(root, "me/mcp-profiles.json"))
		if fi.Mode().Perm() != fsys.EffectiveMode(0o600) {
			t.Errorf("mode %v", fi.Mode().Perm())
		}
	})
	t.Run("a file holding only comments keeps them", func(t *testing.T) {
		set, b := saveAddA(t, "// servers go here")
		if !strings.HasPrefix(string(b), "// servers go here\n") || !strings.Contains(string(b), `"a"`) {
			t.Errorf("got\n%s", b)
		}
		if len(set.Write().Servers.Entries) != 1 {
			t.Error("in-memory entries not refreshed")
		}
	})
	t.Run("an empty delta writes nothing", func(t *testing.T) {
		root := t.TempDir()
		set, _ := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err := set.Save(Delta{Kind: Servers}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(root, "me")); err == nil {
			t.Error("an empty delta created the layer directory")
		}
	})
	t.Run("writes go to the last layer only", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"org/mcp-servers.json": `{"servers": {"a": {"command": "org"}}}`})
		set, _ := Load(fsys.NewOS(), cfgOf(root, "org", "me"))
		before, _ := os.ReadFile(filepath.Join(root, "org/mcp-servers.json"))
		if err := set.Save(addA); err != nil {
			t.Fatal(err)
		}
		after, _ := os.ReadFile(filepath.Join(root, "org/mcp-servers.json"))
		if string(before) != string(after) {
			t.Error("the lower layer changed")
		}
		if _, err := os.Stat(filepath.Join(root, "me/mcp-servers.json")); err != nil {
			t.Error(err)
		}
	})
	// spec: L11
	t.Run("a write layer file that became malformed is refused, unchanged", func(t *testing.T) {
		for content, want := range map[string]string{
			`{"servers": {`: "invalid JSON: line 1, column 14: unexpected end of input, expected an object key",
			`[1]`:           "the top level must be an object, not an array",
		} {
			root := t.TempDir()
			fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": `{"servers": {}}`})
			set, _ := Load(fsys.NewOS(), cfgOf(root, "me"))
			fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": content})
			before := fixtures.Tree(t, root)
			err := set.Save(addA)
			if path := filepath.Join(root, "me/mcp-servers.json"); err == nil || err.Error() != path+": "+want {
				t.Fatalf("err = %v, want %s: %s", err, path, want)
			}
			fixtures.SameTree(t, before, fixtures.Tree(t, root))
		}
	})
	t.Run("a byte order mark is kept", func(t *testing.T) {
		set, b := saveAddA(t, "\ufeff// mine\n{\"servers\": {\"b\": {\"command\": \"y\"}}}\n")
		if !strings.HasPrefix(string(b), "\ufeff// mine\n{") || strings.Count(string(b), "\ufeff") != 1 || !strings.Contains(string(b), `"a": {`) {
			t.Errorf("got\n%q", b)
		}
		if len(set.Write().Servers.Entries) != 2 {
			t.Errorf("in-memory entries %q", set.Write().Servers.Entries)
		}
	})
}

// saveAddA saves addA into a write layer whose servers file holds content and
// returns the set and the file's new bytes.
func saveAddA(t *testing.T, content string) (*Set, []byte) {
	t.Helper()
	root := t.TempDir()
	fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": content})
	set, err := Load(fsys.NewOS(), cfgOf(root, "me"))
	if err != nil {
		t.Fatal(err)
	}
	if err := set.Save(addA); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "me/mcp-servers.json"))
	if err != nil {
		t.Fatal(err)
	}
	return set, b
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	winetest.Skip(t, winetest.Symlinks)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
