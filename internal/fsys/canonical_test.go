package fsys

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpwire/mcpwire/internal/winetest"
)

// TestCanonical: the canonical path of a file resolves every symlink of its longest
// existing prefix (dangling ones as far as they go, relative ones from their
// directory) and keeps the missing components as written; a path with no symlink in
// it is its own canonical path, and a file used as a directory or a symlink loop is an
// error. Every answer is the component walk's, and on Linux a path with no symlink
// in it is answered without the walk (one openat2 call instead of an lstat per
// component: Canonical runs for every client file and record of a transaction).
//
// spec: C3 L8
func TestCanonical(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	in := func(p ...string) string { return filepath.Join(append([]string{root}, p...)...) }
	for _, d := range []string{"real/sub", "other"} {
		if err := os.MkdirAll(in(d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeTestFile(t, in("real", "sub", "f.json"), "{}", 0o600)
	writeTestFile(t, in("file"), "x", 0o600)
	links := map[string]string{
		"link":      in("real"),
		"rel":       "real/sub",
		"chain":     "link",
		"dangling":  in("nowhere", "deeper"),
		"loop1":     "loop2",
		"loop2":     "loop1",
		"real/back": "../other",
	}
	winetest.Skip(t, winetest.Symlinks)
	for name, target := range links {
		if err := os.Symlink(target, in(name)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	for _, c := range []struct {
		path, want string
		free       bool // no symlink in the path
		fails      bool
	}{
		{path: in("real", "sub", "f.json"), want: in("real", "sub", "f.json"), free: true},
		{path: in("real", "sub", "new.json"), want: in("real", "sub", "new.json"), free: true},
		{path: in("real", "missing", "deeper", "x.json"), want: in("real", "missing", "deeper", "x.json"), free: true},
		{path: in("real", "sub"), want: in("real", "sub"), free: true},
		{path: in("link", "sub", "f.json"), want: in("real", "sub", "f.json")},
		{path: in("link", "missing", "x.json"), want: in("real", "missing", "x.json")},
		{path: in("rel", "f.json"), want: in("real", "sub", "f.json")},
		{path: in("chain", "sub", "f.json"), want: in("real", "sub", "f.json")},
		{path: in("dangling"), want: in("nowhere", "deeper")},
		{path: in("dangling", "x.json"), want: in("nowhere", "deeper", "x.json")},
		{path: in("real", "back", "x.json"), want: in("other", "x.json")},
		{path: in("file", "x.json"), fails: true},
		{path: in("loop1", "x.json"), fails: true},
	} {
		before := walks.Load()
		got, err := Canonical(c.path)
		walked := walks.Load() > before
		switch {
		case c.fails && err == nil:
			t.Errorf("Canonical(%s) = %s, want an error", c.path, got)
		case c.fails:
		case err != nil:
			t.Errorf("Canonical(%s): %v", c.path, err)
		case got != c.want:
			t.Errorf("Canonical(%s) = %s, want %s", c.path, got, c.want)
		}
		slow, slowErr := resolve(c.path, 0)
		if (slowErr != nil) != (err != nil) || err == nil && slow != got {
			t.Errorf("Canonical(%s) = %q, %v; the walk says %q, %v", c.path, got, err, slow, slowErr)
		}
		if runtime.GOOS == "linux" && !noOpenat2.Load() && walked == c.free {
			t.Errorf("Canonical(%s): walked %v, want %v", c.path, walked, !c.free)
		}
	}
}
