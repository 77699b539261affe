//go:build (unix && !solaris && !aix) || windows

package fsys

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLockDiesWithProcess: a process holding the lock is killed (as by kill -9 or a
// crash); the system drops its lock (flock, LockFileEx), and the next Lock takes it
// at once although the lock file is still there.
//
// spec: W8
func TestLockDiesWithProcess(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.json")
	cmd, _ := startLockHelper(t, p) // stdin stays open: the helper keeps the lock
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Lstat(p + LockSuffix); err != nil {
		t.Fatalf("the dead process's lock file: %v", err)
	}
	release, err := lockAtFirstTry(p)
	if err != nil {
		t.Fatalf("Lock = %v, want the lock at the first try", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
}
