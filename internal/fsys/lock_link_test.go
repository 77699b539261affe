//go:build unix && !solaris && !aix

package fsys

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// olderLock is the lock of an mcpwire built before issue 31, verbatim but for the
// timeout: one lock file per file, created (or opened), flocked, checked to be still
// at its name, removed and unlocked on release.
func olderLock(path string) (func() error, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
		if err != nil {
			return nil, err
		}
		for syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			if time.Now().After(deadline) {
				f.Close()
				return nil, fmt.Errorf("lock %s: timed out", path)
			}
			time.Sleep(time.Millisecond)
		}
		if sameFile(f, path) {
			return func() error {
				rmErr := os.Remove(path)
				if errors.Is(rmErr, os.ErrNotExist) {
					rmErr = nil
				}
				return errors.Join(rmErr, syscall.Flock(int(f.Fd()), syscall.LOCK_UN), f.Close())
			}, nil
		}
		f.Close()
	}
}

// asyncLock runs lock in a goroutine; the channel yields its release once it holds it.
func asyncLock(t *testing.T, lock func() (func() error, error)) <-chan func() error {
	got := make(chan func() error, 1)
	go func() {
		release, err := lock()
		if err != nil {
			t.Error(err)
			close(got)
			return
		}
		got <- release
	}()
	return got
}

// TestLockLinksOneInode: the locks one process holds at once on one filesystem are
// names of one lock file (issue 31: one file created per transaction, not one per
// file), in any directory of it; each name goes with its release, the file with the
// last.
//
// spec: W8
func TestLockLinksOneInode(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "sub", "b.json")
	if err := os.Mkdir(filepath.Dir(b), 0o700); err != nil {
		t.Fatal(err)
	}
	relA, err := (OS{}).Lock(a)
	if err != nil {
		t.Fatal(err)
	}
	relB, err := (OS{}).Lock(b)
	if err != nil {
		t.Fatal(err)
	}
	fa, errA := os.Lstat(a + LockSuffix)
	fb, errB := os.Lstat(b + LockSuffix)
	if errA != nil || errB != nil || !os.SameFile(fa, fb) {
		t.Fatalf("the two locks are not one file: %v %v", errA, errB)
	}
	if err := relA(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(a + LockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("released lock file still there: %v", err)
	}
	if err := relB(); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dir); len(got) != 1 || got[0] != "sub/" {
		t.Errorf("left behind: %q", got)
	}
}

// TestLockExcludesOlderMcpwire: an mcpwire built before issue 31 (one lock file per
// file) and this one never hold the lock of one file at once, whichever comes first:
// a lock of this one that is a link to its transaction's lock file is that file for
// the older one, held; and a lock file of the older one is a name this one cannot
// link over, so it waits on it as it always did (docs/writes.md, "Other mcpwire
// processes"). flock locks belong to open files, so two in one process exclude each
// other as two processes do.
//
// spec: W8
func TestLockExcludesOlderMcpwire(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")

	// this one first: b is a link to a's lock file, held
	relA, err := (OS{}).Lock(a)
	if err != nil {
		t.Fatal(err)
	}
	relB, err := (OS{}).Lock(b)
	if err != nil {
		t.Fatal(err)
	}
	got := asyncLock(t, func() (func() error, error) { return olderLock(b + LockSuffix) })
	waitsThenGets(t, got, func() {
		if err := relB(); err != nil {
			t.Error(err)
		}
		if err := relA(); err != nil {
			t.Error(err)
		}
	})

	// the older one first: this one waits for its lock file
	relOld, err := olderLock(b + LockSuffix)
	if err != nil {
		t.Fatal(err)
	}
	relA, err = (OS{}).Lock(a)
	if err != nil {
		t.Fatal(err)
	}
	waitsThenGets(t, lockAsync(t, b), func() {
		if err := relOld(); err != nil {
			t.Error(err)
		}
	})
	if err := relA(); err != nil {
		t.Fatal(err)
	}
	noTemp(t, dir)
	if got := listTree(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}

// TestLockDiesWithProcessLinked: a process killed while it held two locks linked to
// one lock file leaves both names; each is taken at the first try afterwards, and
// taking one does not hold the other.
//
// spec: W8
func TestLockDiesWithProcessLinked(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	cmd, _ := startLockHelper(t, a+string(filepath.ListSeparator)+b)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	fa, errA := os.Lstat(a + LockSuffix)
	fb, errB := os.Lstat(b + LockSuffix)
	if errA != nil || errB != nil || !os.SameFile(fa, fb) {
		t.Fatalf("the dead process's lock files are not one file: %v %v", errA, errB)
	}
	relB, err := lockAtFirstTry(b)
	if err != nil {
		t.Fatalf("Lock(b) = %v, want the lock at the first try", err)
	}
	got := asyncLock(t, func() (func() error, error) { return olderLock(a + LockSuffix) })
	select {
	case rel, ok := <-got:
		if !ok {
			t.Fatal("the older lock of a failed")
		}
		if err := rel(); err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("holding b's lock holds a's: the dead process's link")
	}
	if err := relB(); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}
