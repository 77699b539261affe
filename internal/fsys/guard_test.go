package fsys

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// guardedTargets are a record and its staged copy, guarded by the record's lock, each
// writing data.
func guardedTargets(dir, data string) []Target {
	rec := filepath.Join(dir, "r.json")
	write := func(Snapshot) ([]byte, fs.FileMode, bool, error) { return []byte(data), 0o600, false, nil }
	return []Target{
		{Path: rec + ".staged", Guard: rec, Edit: write, Batch: 1},
		{Path: rec, Edit: write, Batch: 2},
	}
}

// TestGuardedTargetRemovesItsOldLockFile: a lock file an earlier mcpwire left beside a
// guarded target (it locked the file on its own) is removed under the guard's lock,
// even when nothing needs writing, and the next run finds nothing left over.
//
// spec: W8
func TestGuardedTargetRemovesItsOldLockFile(t *testing.T) {
	dir := t.TempDir()
	o := NewOS()
	if _, err := Apply(o, guardedTargets(dir, "{}")); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "r.json.staged"+LockSuffix)
	writeTestFile(t, old, "", 0o600)
	if _, err := Apply(o, guardedTargets(dir, "{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(old); !os.IsNotExist(err) {
		t.Errorf("%s left: %v", filepath.Base(old), err)
	}
	if got := listTree(t, dir); !slices.Equal(got, []string{"r.json", "r.json.staged"}) {
		t.Errorf("left %q", got)
	}
}
