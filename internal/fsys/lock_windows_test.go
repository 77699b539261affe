package fsys

import (
	"path/filepath"
	"testing"
)

// TestLockFileLeftBehindOnWindows: a lock file nobody holds (left by a process that
// died: Windows dropped its LockFileEx lock) is taken at once, and removed on release.
//
// spec: W8
func TestLockFileLeftBehindOnWindows(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p+LockSuffix, "", 0o600)
	release, err := lockAtFirstTry(p)
	if err != nil {
		t.Fatalf("Lock = %v, want the lock at the first try", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}
