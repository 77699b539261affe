package fsys

import (
	"errors"

	"golang.org/x/sys/unix"
)

// symlinkFree reports that no component of the clean absolute path p that exists is
// a symlink, so that p is its own canonical path (Canonical keeps missing components
// as written): one openat2 call that refuses to follow any symlink, where a walk
// costs one lstat per component. It answers false whenever it cannot tell — a
// symlink on the way (ELOOP), a component that is not a directory, no permission,
// a kernel without openat2 — and the walk decides.
func symlinkFree(p string) bool {
	if noOpenat2.Load() {
		return false
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	switch {
	case err == nil:
		_ = unix.Close(fd)
		return true
	case errors.Is(err, unix.EINTR):
		return false
	case errors.Is(err, unix.ENOENT):
		// The first missing component ends the lookup; every one before it was
		// looked up and none was a symlink.
		return true
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
		noOpenat2.Store(true)
	}
	return false
}
