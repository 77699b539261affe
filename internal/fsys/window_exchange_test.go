//go:build linux || darwin

package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// requireSwap skips when dir's filesystem cannot swap files atomically (WriteFile then
// renames plainly, as on other systems).
func requireSwap(t *testing.T, dir string) {
	t.Helper()
	a, b := filepath.Join(dir, "probe-a"), filepath.Join(dir, "probe-b")
	writeTestFile(t, a, "a", 0o600)
	writeTestFile(t, b, "b", 0o600)
	defer os.Remove(a)
	defer os.Remove(b)
	if err := exchange(a, b); err != nil {
		t.Skipf("%s cannot swap files atomically: %v", dir, err)
	}
}

// foreignRename replaces p the way another program does: a temporary file renamed over it.
func foreignRename(t *testing.T, p, data string) {
	t.Helper()
	tmp := p + ".other-tmp"
	writeTestFile(t, tmp, data, 0o600)
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

// TestWriteFileCompareRenameWindow: another process renames its file over the
// destination after mcpwire compared the destination with what it read, just before
// mcpwire's own rename (the "rename" hook runs exactly there). Where the filesystem
// can swap two files atomically (Linux), that write is never lost: mcpwire notices it
// after swapping, puts it back and reports ErrChanged, so the edit is redone on it.
// The same for a file created there when mcpwire expected none.
//
// spec: W8 W3
func TestWriteFileCompareRenameWindow(t *testing.T) {
	for _, exists := range []bool{true, false} {
		name := map[bool]string{true: "existing", false: "new"}[exists]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			requireSwap(t, dir)
			p := filepath.Join(dir, "f.json")
			snap := &Snapshot{}
			if exists {
				writeTestFile(t, p, "read by mcpwire", 0o600)
				snap = &Snapshot{Exists: true, Data: []byte("read by mcpwire")}
			}
			o := OS{hook: func(stage, _ string) error {
				if stage == "rename" { // after the compare, before the rename
					foreignRename(t, p, "other writer")
				}
				return nil
			}}
			err := o.WriteFile(p, []byte("mine"), 0o600, &WriteOptions{Expect: snap})
			if !errors.Is(err, ErrChanged) {
				t.Fatalf("err = %v, want ErrChanged", err)
			}
			if got := fileState(t, p); got != state(0o600, "other writer") {
				t.Errorf("state = %q, want the other writer's file", got)
			}
			noTemp(t, dir)
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("left in %s: %v", dir, entries)
			}
		})
	}
}

// TestWriteFileSwapKeepsInode: the swap replaces the file like a rename does: the
// destination is mcpwire's new inode with the new mode, and the old file is gone.
//
// spec: W3 W4
func TestWriteFileSwapKeepsInode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "old", 0o644)
	before, _ := os.Stat(p)
	err := OS{}.WriteFile(p, []byte("new"), 0o600, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("old")}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	if os.SameFile(before, after) {
		t.Error("the file was rewritten in place")
	}
	if got := fileState(t, p); got != state(0o600, "new") {
		t.Errorf("state = %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in %s: %v", dir, entries)
	}
}
