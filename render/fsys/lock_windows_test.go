package fsys

import (
	"path/filepath"
	"testing"
	"time"
)

// TestLockFileLeftBehindOnWindows: a lock file nobody holds (left by a process that
// died: Windows dropped its LockFileEx lock) is taken at once, and removed on release.
//
// spec: W8
func TestLockFileLeftBehindOnWindows(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p+LockSuffix, "", 0o600)
	start := time.Now()
	release, err := (OS{}).Lock(p)
	if err != nil || time.Since(start) > time.Second {
		t.Fatalf("Lock = %v after %v", err, time.Since(start))
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}
