//go:build linux

package fsys

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// replace puts tmp at name, checking once more that name still holds want (W8),
// without the gap a compare followed by a rename leaves: another program renaming its
// file over name between the two would be lost. An existing name is swapped with tmp
// atomically (renameat2 RENAME_EXCHANGE), and the file that left name is compared with
// want: when it is someone else's, it is swapped back (unless name changed yet again)
// and ErrChanged is returned. A name expected absent is created with RENAME_NOREPLACE.
// On success the old file is removed. handled is false when the filesystem cannot do
// this; the caller then renames plainly.
func replace(tmp, name string, want *Snapshot) (handled bool, err error) {
	if want == nil {
		return false, nil
	}
	if !want.Exists {
		err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, name, unix.RENAME_NOREPLACE)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EEXIST):
			return true, ErrChanged
		case unsupported(err):
			return false, nil
		}
		return true, &os.LinkError{Op: "rename", Old: tmp, New: name, Err: err}
	}
	ours, err := os.Lstat(tmp)
	if err != nil {
		return true, err
	}
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, name, unix.RENAME_EXCHANGE)
	switch {
	case errors.Is(err, unix.ENOENT):
		return true, ErrChanged // name was removed after the compare
	case err != nil && unsupported(err):
		return false, nil
	case err != nil:
		return true, &os.LinkError{Op: "rename", Old: tmp, New: name, Err: err}
	}
	// tmp now names the file that was at name
	if same, err := (OS{}).sameContent(tmp, *want); err == nil && same {
		if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
			return true, err
		}
		return true, nil
	}
	// someone else's file: put it back, unless name no longer holds ours either (then
	// a third write replaced ours, and that one stays); the caller removes tmp
	if cur, err := os.Lstat(name); err == nil && os.SameFile(cur, ours) {
		_ = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, name, unix.RENAME_EXCHANGE)
	}
	return true, ErrChanged
}

// unsupported reports a filesystem or kernel without renameat2 flags (EXDEV: some
// union filesystems refuse them where a plain rename works).
func unsupported(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EXDEV)
}
