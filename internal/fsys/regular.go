package fsys

import (
	"io/fs"

	"github.com/mcpwire/mcpwire/internal/limits"
)

// NotRegularError is a file mcpwire refuses to read or write because it is not a
// regular file (SPEC K2): a FIFO, which a read would wait on for ever; a device such as
// /dev/zero, which never ends; a socket; a directory; or a symlink to one (git stores
// symlinks, so a cloned project can hold `.mcp.json -> /dev/zero`). It matches
// ErrNotRegular and limits.ErrRefused.
type NotRegularError struct {
	Path string
	Mode fs.FileMode // the type bits of what is there
}

func (e *NotRegularError) Error() string {
	return e.Path + ": refused: " + kindOf(e.Mode) + ", not a regular file"
}

// Is reports whether target is ErrNotRegular or limits.ErrRefused.
func (e *NotRegularError) Is(target error) bool {
	return target == ErrNotRegular || target == limits.ErrRefused
}

// kindOf names the kind of file a mode describes.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "an irregular file"
}
