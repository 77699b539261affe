package fsys

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// dirGoneFS removes the directory of the first lock it is asked for just before
// taking it: another mcpwire removing the empty directories it had created (H7)
// between this transaction's mkdir and its lock.
type dirGoneFS struct {
	FS
	gone bool
}

func (g *dirGoneFS) Lock(name string) (func() error, error) {
	if !g.gone {
		g.gone = true
		if err := os.Remove(filepath.Dir(name)); err != nil {
			return nil, err
		}
	}
	return g.FS.Lock(name)
}

// TestLockDirectoryGone: a transaction whose file's directory goes between the mkdir
// and the lock creates it again and goes on (H7: mcpwire now removes the empty
// directories it created, so another mcpwire may find one gone).
//
// spec: H7 W8
func TestLockDirectoryGone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "f.json")
	f := &dirGoneFS{FS: OS{}}
	_, err := Apply(f, []Target{{Path: path, DirPerm: 0o700, Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) {
		return []byte("{}\n"), 0o600, false, nil
	}}})
	if err != nil || !f.gone {
		t.Fatalf("Apply: %v (directory removed: %v)", err, f.gone)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "{}\n" {
		t.Errorf("%s: %q, %v", path, b, err)
	}
}
