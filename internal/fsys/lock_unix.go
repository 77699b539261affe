//go:build unix && !solaris && !aix

package fsys

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
)

// locksDieWithProcess: flock: the system drops a lock when its process dies.
const locksDieWithProcess = true

// lockInode is a lock file's inode that this process holds an flock on, with the
// names (<file>.mcpwire.lock) it is linked at. Every lock this process takes on the
// same filesystem is a hard link to it while it is held: one file created per
// transaction instead of one per file (issue 31; docs/writes.md, "Other mcpwire
// processes").
type lockInode struct {
	f     *os.File
	fi    os.FileInfo
	names map[string]bool
}

// held is the lock inodes of this process.
var held struct {
	sync.Mutex
	inodes []*lockInode
}

// lockFile takes an exclusive flock on path (mode 0600). Where this process holds a
// lock already on the same filesystem, path becomes a hard link to that lock's inode,
// which it holds: another process (an older mcpwire included, which creates, flocks
// and removes one lock file per file) that opens path finds that inode locked and
// waits, as for a lock file of its own. Otherwise path is opened or created and
// flocked as it always was. Because release unlinks the name, a lock taken on an
// inode that is no longer at path is worthless: after flock succeeds the inode is
// compared with path's, and on a mismatch the lock is dropped and taken again. An
// error from stop ends the wait.
func lockFile(path string, stop func() error) (unlock func() error, err error) {
	deadline := time.Now().Add(lockTimeout)
	for try := 0; ; try++ {
		in, err := linkHeld(path)
		if in != nil {
			return in.release(path), nil
		}
		if errors.Is(err, syscall.EEXIST) && heldHere(path) {
			// another transaction of this process holds it: wait for it to go
			if err := pause(try, deadline, stop); err != nil {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			continue
		}
		f, err := openFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			_ = f.Close() // a FIFO or device someone put there: refused, left alone (K2)
			if err != nil {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			return nil, &NotRegularError{Path: path, Mode: fi.Mode().Type()}
		}
		_ = f.Chmod(0o600) // beat the umask; fails harmlessly on another user's file
		if err := flockWait(f, path, deadline, stop); errors.Is(err, errLockMoved) {
			_ = f.Close() // its holder released it meanwhile; start over
			if time.Now().After(deadline) {
				return nil, timedOut(path)
			}
			continue
		} else if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if !sameFile(f, path) {
			_ = f.Close() // the holder before us removed the file; start over
			if time.Now().After(deadline) {
				return nil, timedOut(path)
			}
			continue
		}
		if links(f) > 1 {
			// a lock inode whose holder died while it was linked at other names too:
			// holding it would make those names look held. Drop this name (under its
			// lock, as a release does) and take the lock afresh.
			_ = os.Remove(path)
			_ = f.Close()
			continue
		}
		return hold(f, path).release(path), nil
	}
}

// linkHeld links path to a lock inode this process holds on path's filesystem and
// returns it; an error (EEXIST when path exists) when there is none or the link
// fails.
func linkHeld(path string) (*lockInode, error) {
	held.Lock()
	defer held.Unlock()
	err := error(syscall.ENOENT)
	for _, in := range held.inodes {
		for name := range in.names {
			err = os.Link(name, path)
			break
		}
		if err == nil {
			in.names[path] = true
			return in, nil
		}
		if errors.Is(err, syscall.EEXIST) {
			return nil, syscall.EEXIST
		}
		// EXDEV (another filesystem), EPERM or ENOTSUP (no hard links there),
		// EMLINK: try the next, then a lock file of path's own
	}
	return nil, err
}

// heldHere reports whether path is linked to a lock inode this process holds.
func heldHere(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	held.Lock()
	defer held.Unlock()
	return slices.ContainsFunc(held.inodes, func(in *lockInode) bool { return os.SameFile(in.fi, fi) })
}

// hold records f, flocked and linked at path alone, as a lock inode of this process.
func hold(f *os.File, path string) *lockInode {
	fi, _ := f.Stat()
	in := &lockInode{f: f, fi: fi, names: map[string]bool{path: true}}
	held.Lock()
	held.inodes = append(held.inodes, in)
	held.Unlock()
	return in
}

// release returns the release of the lock at path: its name is removed, and the
// inode is unlocked once no name is left on it, so that a process waiting on any of
// its names finds it gone from that name.
func (in *lockInode) release(path string) func() error {
	return func() error {
		held.Lock()
		defer held.Unlock()
		if !in.names[path] {
			return nil
		}
		rmErr := os.Remove(path)
		if errors.Is(rmErr, os.ErrNotExist) {
			rmErr = nil
		}
		delete(in.names, path)
		if len(in.names) > 0 {
			return rmErr
		}
		held.inodes = slices.DeleteFunc(held.inodes, func(x *lockInode) bool { return x == in })
		unErr := syscall.Flock(int(in.f.Fd()), syscall.LOCK_UN)
		return errors.Join(rmErr, unErr, in.f.Close())
	}
}

// timedOut is the error of a lock not taken by its deadline.
func timedOut(path string) error {
	return fmt.Errorf("lock %s: timed out after %v waiting for another mcpwire process", path, lockTimeout)
}

// links is the number of names f's inode has (1 when unknown).
func links(f *os.File) uint64 {
	fi, err := f.Stat()
	if err != nil {
		return 1
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// errLockMoved reports that the lock file being waited on is no longer at its name.
var errLockMoved = errors.New("lock file replaced")

// flockWait polls for an exclusive flock on f until deadline or an error from stop.
// It returns errLockMoved as soon as f is no longer at path: its holder released it
// (the inode may still be held for other names, by a process that holds several
// locks on one inode).
func flockWait(f *os.File, path string, deadline time.Time, stop func() error) error {
	for try := 0; ; try++ {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		case try > 0 && !sameFile(f, path):
			return errLockMoved
		}
		if err := pause(try, deadline, stop); err != nil {
			return err
		}
	}
}

// pause waits before the next try of a contended lock, or fails past the deadline or
// with an error from stop.
func pause(try int, deadline time.Time, stop func() error) error {
	if time.Now().After(deadline) {
		return fmt.Errorf("timed out after %v waiting for another mcpwire process", lockTimeout)
	}
	if err := stop(); err != nil {
		return err
	}
	time.Sleep(lockBackoff(try))
	return nil
}
