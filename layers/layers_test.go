package layers

import (
	"encoding/json"
	"errors"
	"github.com/mcpwire/mcpwire/fixtures"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/winetest"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// osPath spells a test's slash path the system's way: on Windows, an absolute one
// ("/h") is on the drive of the working directory, as filepath.Abs makes it.
func osPath(t *testing.T, p string) string {
	t.Helper()
	if runtime.GOOS == "windows" && strings.HasPrefix(p, "/") {
		cwd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		p = filepath.VolumeName(cwd) + p
	}
	return filepath.FromSlash(p)
}

// osList spells a test's ":"-separated list with the system's separator (";" on Windows).
func osList(l string) string { return strings.ReplaceAll(l, ":", string(os.PathListSeparator)) }

// spec: L1 L2
func TestResolve(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	abs := func(p string) string { return filepath.Join(cwd, p) }
	tests := []struct {
		name     string
		vars     map[string]string
		explicit string
		home     string
		want     []string
		layered  bool
		wantErr  string
	}{
		{name: "L1 default is ~/.aiwg", home: "/h", want: []string{"/h/.aiwg"}},
		{name: "L1 AIWG_CONFIG", vars: map[string]string{EnvConfig: "/cfg"}, home: "/h", want: []string{"/cfg"}},
		{name: "L1 AIWG_CONFIG trimmed and ~ expanded", vars: map[string]string{EnvConfig: " ~/cfg "}, home: "/h", want: []string{"/h/cfg"}},
		{name: "L1 blank AIWG_CONFIG falls back to home", vars: map[string]string{EnvConfig: "  "}, home: "/h", want: []string{"/h/.aiwg"}},
		{name: "L1 no home and nothing set", wantErr: "home directory"},
		{name: "L1 --config-dir wins over layers and AIWG_CONFIG", explicit: "/x",
			vars: map[string]string{EnvConfig: "/cfg", EnvLayers: "/a:/b"}, home: "/h", want: []string{"/x"}},
		{name: "L1 relative --config-dir made absolute", explicit: "rel/dir", want: []string{abs("rel/dir")}},
		{name: "L2 layers in order, AIWG_CONFIG ignored", vars: map[string]string{EnvConfig: "/cfg", EnvLayers: "/org:/team:/me"},
			want: []string{"/org", "/team", "/me"}, layered: true},
		{name: "L2 entries trimmed, empties dropped", vars: map[string]string{EnvLayers: " /org : :/me:: "},
			want: []string{"/org", "/me"}, layered: true},
		{name: "L2 relative entries made absolute", vars: map[string]string{EnvLayers: "org:./me"},
			want: []string{abs("org"), abs("me")}, layered: true},
		{name: "L2 entries cleaned", vars: map[string]string{EnvLayers: "/org/:/a/../me"},
			want: []string{"/org", "/me"}, layered: true},
		{name: "L2 ~ expanded", vars: map[string]string{EnvLayers: "~/org:/me"}, home: "/h",
			want: []string{"/h/org", "/me"}, layered: true},
		{name: "L2 blank layers variable means single directory", vars: map[string]string{EnvLayers: "   ", EnvConfig: "/cfg"},
			want: []string{"/cfg"}},
		{name: "L2 only separators means single directory", vars: map[string]string{EnvLayers: " : ", EnvConfig: "/cfg"},
			want: []string{"/cfg"}},
		{name: "L2 one layer is still layered", vars: map[string]string{EnvLayers: "/only"}, want: []string{"/only"}, layered: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{}
			for k, v := range tt.vars {
				vars[k] = v
				if k == EnvLayers {
					vars[k] = osList(v)
				}
			}
			home := tt.home
			if home != "" {
				home = osPath(t, home)
			}
			cfg, err := Resolve(env(vars), tt.explicit, home, "")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, osPath(t, w))
			}
			if !slices.Equal(cfg.Dirs, want) || cfg.Layered != tt.layered {
				t.Fatalf("got %q layered=%v, want %q layered=%v", cfg.Dirs, cfg.Layered, want, tt.layered)
			}
		})
	}
}

func cfgOf(root string, dirs ...string) Config {
	c := Config{Layered: len(dirs) > 1}
	for _, d := range dirs {
		c.Dirs = append(c.Dirs, filepath.Join(root, d))
	}
	return c
}

// spec: L1 L3 L9 L11 L12
func TestLoad(t *testing.T) {
	t.Run("missing files and a missing write layer are empty layers", func(t *testing.T) {
		root := t.TempDir()
		mkdir(t, filepath.Join(root, "org"))
		s, err := Load(fsys.NewOS(), cfgOf(root, "org", "me"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range s.Layers {
			for _, f := range []*File{l.Servers, l.Profiles} {
				if f.Exists || len(f.Entries) != 0 || len(f.Top) != 0 {
					t.Errorf("%s: %+v, want an empty missing file", f.Path, f)
				}
			}
		}
		if s.Write().Dir != filepath.Join(root, "me") || len(s.Lower()) != 1 {
			t.Errorf("write layer %s, %d lower", s.Write().Dir, len(s.Lower()))
		}
	})
	t.Run("JSONC: comments and trailing commas", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": `// my servers
{
  /* block */ "apiVersion": "aiwg.io/v1",
  "x-top": {"keep": [1, 2,],},
  "servers": {
    "a": {"command": "x", "args": ["--y",],}, // trailing
    "b": {"url": "https://e.example/mcp"},
  },
}
`})
		s, err := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err != nil {
			t.Fatal(err)
		}
		f := s.Write().Servers
		if !f.Exists || len(f.Entries) != 2 {
			t.Fatalf("entries %v", f.Entries)
		}
		var a struct {
			Command string
			Args    []string
		}
		if err := json.Unmarshal(f.Entries["a"], &a); err != nil || a.Command != "x" || !slices.Equal(a.Args, []string{"--y"}) {
			t.Fatalf("entry a = %s (%v)", f.Entries["a"], err)
		}
		if !json.Valid(f.Top["x-top"]) || string(f.Top["apiVersion"]) != `"aiwg.io/v1"` {
			t.Fatalf("top = %q", f.Top)
		}
		if _, ok := f.Top["servers"]; ok {
			t.Fatal("the collection must not be in Top")
		}
	})
	t.Run("whitespace or comments only is an empty registry", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": "\n  \n", "me/mcp-profiles.json": "// nothing yet\n/* later */"})
		s, err := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Write().Servers.Entries)+len(s.Write().Profiles.Entries) != 0 {
			t.Fatal("entries found in empty files")
		}
	})
	t.Run("a byte order mark is allowed", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": "\ufeff{\"servers\": {\"a\": {\"command\": \"x\"}}}",
			"me/mcp-profiles.json": "\ufeff\n"})
		s, err := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(s.Write().Servers.Entries["a"]); got != `{"command": "x"}` {
			t.Fatalf("entry a = %q", got)
		}
	})
	t.Run("null collection is empty", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"me/mcp-servers.json": `{"servers": null}`})
		if _, err := Load(fsys.NewOS(), cfgOf(root, "me")); err != nil {
			t.Fatal(err)
		}
	})

	bad := []struct {
		name, content, want string
	}{
		{"truncated", `{"servers": {`, "invalid JSON: line 1, column 14: unexpected end of input"},
		{"garbage", `{"servers": {}} x`, "invalid JSON: line 1, column 17: invalid character 'x' after the top-level value"},
		{"single quotes", `{'servers': {}}`, "invalid JSON: line 1, column 2"},
		{"two trailing commas", `{"servers": {},,}`, "invalid JSON"},
		{"unterminated comment", "{} /* x", "invalid JSON: line 1, column 4: unterminated comment"},
		{"lone slash", `{"a": 1 / 2}`, "invalid JSON"},
		{"bad escape", `{"a": "\x"}`, "invalid JSON: line 1, column 8: invalid escape sequence in string"},
		{"control character", "{\"a\": \"x\ty\"}", "invalid control character"},
		{"leading zero", `{"a": 01}`, "invalid number"},
		{"byte order mark twice", "\ufeff\ufeff{}", "invalid JSON: line 1, column 1: invalid character U+FEFF (byte order mark), expected a value"},
		{"array root", `[]`, "the top level must be an object, not an array"},
		{"string root", `"x"`, "the top level must be an object, not a string"},
		{"collection not an object", `{"servers": []}`, `"servers" must be an object, not an array`},
		{"collection a string", `{"servers": "a"}`, `"servers" must be an object, not a string`},
	}
	for _, tt := range bad {
		t.Run("L11 "+tt.name, func(t *testing.T) {
			root := t.TempDir()
			fixtures.WriteFiles(t, root, map[string]string{"org/mcp-servers.json": tt.content})
			path := filepath.Join(root, "org", "mcp-servers.json")
			_, err := Load(fsys.NewOS(), cfgOf(root, "org", "me"))
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %s: …%s…", err, path, tt.want)
			}
		})
	}

	t.Run("L12 every bad file is named in one error, in layer order", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{
			"org/mcp-servers.json":   `{`,
			"team/mcp-servers.json":  `{"servers": {}}`,
			"team/mcp-profiles.json": `{"profiles": 3}`,
			"me/mcp-profiles.json":   `nope`,
		})
		set, err := LoadAll(fsys.NewOS(), cfgOf(root, "org", "team", "me"))
		var le *LoadError
		if !errors.As(err, &le) || len(le.Problems) != 3 {
			t.Fatalf("err = %v", err)
		}
		for i, p := range []string{"org/mcp-servers.json", "team/mcp-profiles.json", "me/mcp-profiles.json"} {
			if !strings.HasPrefix(le.Problems[i], filepath.Join(root, p)+": ") {
				t.Errorf("problem %d = %q, want it to start with %s", i, le.Problems[i], p)
			}
		}
		if !strings.HasPrefix(err.Error(), "3 configuration problems:\n  ") {
			t.Errorf("message %q", err.Error())
		}
		// LoadAll keeps the readable files, and marks the bad ones.
		if set == nil || set.Layers[1].Servers.Err != nil || !set.Layers[1].Servers.Exists || set.Layers[0].Servers.Err == nil {
			t.Fatalf("LoadAll set = %+v", set)
		}
		if s, err := Load(fsys.NewOS(), cfgOf(root, "org", "team", "me")); s != nil || err == nil {
			t.Fatal("Load must return no set with the error")
		}
	})

	t.Run("L9 a symlinked layer file is refused", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"real/mcp-servers.json": `{"servers": {}}`})
		if err := os.MkdirAll(filepath.Join(root, "me"), 0o755); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(root, "me", "mcp-servers.json")
		winetest.Skip(t, winetest.Symlinks)
		if err := os.Symlink(filepath.Join(root, "real", "mcp-servers.json"), link); err != nil {
			t.Fatal(err)
		}
		_, err := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err == nil || !strings.Contains(err.Error(), link+": is a symlink") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("L9 a symlinked layer directory and ancestor are fine", func(t *testing.T) {
		root := t.TempDir()
		fixtures.WriteFiles(t, root, map[string]string{"dotfiles/aiwg/mcp-servers.json": `{"servers": {"a": {"command": "x"}}}`})
		winetest.Skip(t, winetest.Symlinks)
		if err := os.Symlink(filepath.Join(root, "dotfiles"), filepath.Join(root, "linked")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, "linked", "aiwg"), filepath.Join(root, "cfg")); err != nil {
			t.Fatal(err)
		}
		s, err := Load(fsys.NewOS(), cfgOf(root, "cfg"))
		if err != nil || len(s.Write().Servers.Entries) != 1 {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a directory in place of a layer file is refused", func(t *testing.T) {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "me", "mcp-profiles.json"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Load(fsys.NewOS(), cfgOf(root, "me"))
		if err == nil || !strings.Contains(err.Error(), "mcp-profiles.json: not a regular file") {
			t.Fatalf("err = %v", err)
		}
	})
}

// statFS fails Stat of one path with an error.
type statFS struct {
	fsys.FS
	path string
	err  error
}

func (f statFS) Stat(name string) (fs.FileInfo, error) {
	if name == f.path {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: f.err}
	}
	return f.FS.Stat(name)
}

// lockedDirFS is a directory of mode 000 as a user other than root sees it: the
// directory itself stats fine, but it cannot be listed and nothing in it can be
// reached.
type lockedDirFS struct {
	fsys.FS
	dir string
}

func (f lockedDirFS) denied(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: syscall.EACCES}
}

func (f lockedDirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.dir {
		return nil, f.denied("open", name)
	}
	return f.FS.ReadDir(name)
}

func (f lockedDirFS) Lstat(name string) (fs.FileInfo, error) {
	if filepath.Dir(name) == f.dir {
		return nil, f.denied("lstat", name)
	}
	return f.FS.Lstat(name)
}

func (f lockedDirFS) ReadFile(name string) ([]byte, error) {
	if filepath.Dir(name) == f.dir {
		return nil, f.denied("open", name)
	}
	return f.FS.ReadFile(name)
}

// readsFS counts the registry files read.
type readsFS struct {
	fsys.FS
	reads *int
}

func (f readsFS) ReadFile(name string) ([]byte, error) { *f.reads++; return f.FS.ReadFile(name) }

func (f readsFS) Lstat(name string) (fs.FileInfo, error) { *f.reads++; return f.FS.Lstat(name) }

// spec: L13 — a lower layer whose directory is missing, not a directory or unreadable
// fails the load naming it as given and as resolved, every one in one error, before
// any registry file is read; the write layer may be missing.
func TestLoadMissingLowerLayer(t *testing.T) {
	root := t.TempDir()
	fixtures.WriteFiles(t, root, map[string]string{"org/mcp-servers.json": `{"credentialPolicy": "references"}`, "file": "x"})
	in := func(p string) string { return filepath.Join(root, p) }
	list := func(dirs ...string) string { return strings.Join(dirs, string(os.PathListSeparator)) }
	typo := osPath(t, "/typo/org")
	tests := []struct {
		name   string
		layers string
		fs     func(fsys.FS) fsys.FS
		want   []string
	}{
		{name: "missing", layers: list(typo, in("me")),
			want: []string{`configuration layer 1 of 2 "` + typo + `" (resolved: ` + typo + `): does not exist`}},
		{name: "relative, shown as given and resolved", layers: list("org2", in("me")),
			want: []string{`configuration layer 1 of 2 "org2" (resolved: ` + in("org2") + `): does not exist`}},
		{name: "a file", layers: list(in("file"), in("me")),
			want: []string{`"` + in("file") + `" (resolved: ` + in("file") + `): is not a directory`}},
		{name: "unreadable", layers: list(in("org"), in("me")),
			fs:   func(f fsys.FS) fsys.FS { return statFS{f, in("org"), syscall.EACCES} },
			want: []string{`configuration layer 1 of 2 "` + in("org") + `" (resolved: ` + in("org") + `): cannot be read: permission denied`}},
		{name: "mode 000: stats, but cannot be listed", layers: list(in("org"), in("me")),
			fs:   func(f fsys.FS) fsys.FS { return lockedDirFS{f, in("org")} },
			want: []string{`configuration layer 1 of 2 "` + in("org") + `" (resolved: ` + in("org") + `): cannot be read: permission denied`}},
		{name: "every bad layer at once", layers: list(osPath(t, "/typo/a"), in("org"), osPath(t, "/typo/b"), in("me")),
			want: []string{"2 configuration layers cannot be read:", `layer 1 of 4 "` + osPath(t, "/typo/a") + `"`, `layer 3 of 4 "` + osPath(t, "/typo/b") + `"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Resolve(env(map[string]string{EnvLayers: tt.layers}), "", "/h", root)
			if err != nil {
				t.Fatal(err)
			}
			reads := 0
			var f fsys.FS = readsFS{fsys.NewOS(), &reads}
			if tt.fs != nil {
				f = tt.fs(f)
			}
			set, err := LoadAll(f, cfg)
			var le *LowerLayerError
			if set != nil || !errors.As(err, &le) {
				t.Fatalf("LoadAll: set %v, err %v; want a *LowerLayerError", set, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if reads != 0 {
				t.Errorf("%d registry files read before the refusal", reads)
			}
			if h := le.Hints(); len(h) == 0 || !strings.Contains(h[0], EnvLayers) {
				t.Errorf("hints %q", h)
			}
			if h := le.Hints(); le.Unreadable != strings.Contains(strings.Join(h, "\n"), "must be readable by you") {
				t.Errorf("unreadable %v, hints %q", le.Unreadable, h)
			}
		})
	}
}
