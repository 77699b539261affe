//go:build unix && !solaris && !aix

package fsys

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// locksDieWithProcess: flock: the system drops a lock when its process dies.
const locksDieWithProcess = true

// lockFile takes an exclusive flock on path, creating it with mode 0600. Because
// release unlinks the file, a lock taken on an inode that is no longer at path is
// worthless: after flock succeeds the inode is compared with path's, and on a
// mismatch the lock is dropped and taken again. An error from stop ends the wait.
func lockFile(path string, stop func() error) (unlock func() error, err error) {
	deadline := time.Now().Add(lockTimeout)
	for try := 0; ; try++ {
		f, err := openFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			_ = f.Close() // a FIFO or device someone put there: refused, left alone (K2)
			if err != nil {
				return nil, fmt.Errorf("lock %s: %w", path, err)
			}
			return nil, &NotRegularError{Path: path, Mode: fi.Mode().Type()}
		}
		_ = f.Chmod(0o600) // beat the umask; fails harmlessly on another user's file
		if err := flockWait(f, deadline, stop); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if sameFile(f, path) {
			return func() error {
				rmErr := os.Remove(path)
				if errors.Is(rmErr, os.ErrNotExist) {
					rmErr = nil
				}
				unErr := syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				return errors.Join(rmErr, unErr, f.Close())
			}, nil
		}
		_ = f.Close() // the holder before us removed the file; start over
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: timed out after %v waiting for another mcpwire process", path, lockTimeout)
		}
	}
}

// flockWait polls for an exclusive flock on f until deadline or an error from stop.
func flockWait(f *os.File, deadline time.Time, stop func() error) error {
	for try := 0; ; try++ {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		case time.Now().After(deadline):
			return fmt.Errorf("timed out after %v waiting for another mcpwire process", lockTimeout)
		}
		if err := stop(); err != nil {
			return err
		}
		time.Sleep(lockBackoff(try))
	}
}
