package fsys

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the files at a and b atomically (renamex_np RENAME_SWAP, macOS
// 10.12 and later; APFS and HFS+ support it).
func exchange(a, b string) error { return unix.RenamexNp(a, b, unix.RENAME_SWAP) }

// renameNoReplace renames a to b unless b exists (renamex_np RENAME_EXCL; EEXIST
// then).
func renameNoReplace(a, b string) error { return unix.RenamexNp(a, b, unix.RENAME_EXCL) }

// unsupported reports a filesystem without these flags (network and FAT volumes
// answer ENOTSUP; EINVAL, ENOSYS and EXDEV are treated the same for safety).
func unsupported(err error) bool {
	return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EXDEV)
}
