package fsys

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRemoveAll(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "eph")
	for _, d := range []string{dir, filepath.Join(dir, "sub")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "run.json"), filepath.Join(dir, "sub", "x")} {
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	linked := os.Symlink(outside, filepath.Join(dir, "link")) == nil // not everywhere (Windows without the privilege)
	f := NewOS()
	if err := RemoveAll(f, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("%s still there: %v", dir, err)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "keep" {
		t.Errorf("the file beside it (a symlink's target: %v) was touched: %q %v", linked, b, err)
	}
	if err := RemoveAll(f, dir); err != nil {
		t.Errorf("a missing dir: %v", err)
	}
}
