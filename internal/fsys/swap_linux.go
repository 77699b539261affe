package fsys

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the files at a and b atomically (renameat2 RENAME_EXCHANGE).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// renameNoReplace renames a to b unless b exists (renameat2 RENAME_NOREPLACE; EEXIST
// then).
func renameNoReplace(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_NOREPLACE)
}

// unsupported reports a filesystem or kernel without renameat2 flags (EXDEV: some
// union filesystems refuse them where a plain rename works).
func unsupported(err error) bool {
	return errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EXDEV)
}
