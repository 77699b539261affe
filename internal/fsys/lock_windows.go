package fsys

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// errLockMoved reports a lock taken on a lock file that another process's release
// had already removed from its name.
var errLockMoved = errors.New("lock file replaced")

// locksDieWithProcess: LockFileEx: the system drops a lock when its process dies.
const locksDieWithProcess = true

// lockFile takes an exclusive LockFileEx lock on the first byte of path, creating the
// file (mode 0600 means nothing more than "not read-only" there: see
// effectiveMode). Windows has no flock; like flock, a LockFileEx lock belongs to the
// open handle and the system drops it when the process dies, so a crashed run leaves
// no lock held. Every mcpwire opens the lock file with FILE_SHARE_DELETE so that a
// release can delete it while others wait on it; as on Unix, a lock taken on a file
// that is no longer at path is dropped and taken again, and a lock file being deleted
// (which Windows refuses to open) counts as held. An error from stop ends the wait.
func lockFile(path string, stop func() error) (unlock func() error, err error) {
	deadline := time.Now().Add(lockTimeout)
	for try := 0; ; try++ {
		f, err := openLock(path)
		if err == nil {
			ol := new(windows.Overlapped)
			err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
			if err == nil && sameFile(f, path) {
				return func() error {
					rmErr := os.Remove(path)
					if errors.Is(rmErr, os.ErrNotExist) {
						rmErr = nil
					}
					unErr := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
					return errors.Join(rmErr, unErr, f.Close())
				}, nil
			}
			if err == nil {
				err = errLockMoved
			}
			_ = f.Close()
		}
		if !lockBusy(err, path) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: timed out after %v waiting for another mcpwire process", path, lockTimeout)
		}
		if err := stop(); err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		time.Sleep(lockBackoff(try))
	}
}

// openLock opens or creates the lock file, refusing a symlink or junction planted at
// its name (as O_NOFOLLOW does on Unix).
func openLock(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, err
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		_ = windows.CloseHandle(h)
		return nil, err
	}
	if info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		_ = windows.CloseHandle(h)
		return nil, ErrSymlink
	}
	return os.NewFile(uintptr(h), path), nil
}

// lockBusy reports the errors that mean another process holds or is releasing the
// lock at path. Access is denied to a lock file being deleted (its name stays until
// the last handle closes) as well as in a directory mcpwire may not write: only the
// first is a wait.
func lockBusy(err error, path string) bool {
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		_, serr := os.Lstat(path)
		return !errors.Is(serr, os.ErrNotExist)
	}
	return errors.Is(err, errLockMoved) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION) ||
		errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_DELETE_PENDING)
}
