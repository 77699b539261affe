// Package fsys is the filesystem seam every mcpwire read and write goes through (SPEC W9).
//
// There are two implementations of [FS]:
//
//   - [OS], the real filesystem, whose WriteFile is an atomic replace (W3) with a
//     compare-before-rename check (W8);
//   - [DryRun], which passes reads through, records every write as an [Intent] and
//     never touches the disk (used by --dry-run).
//
// [Apply] runs a multi-file transaction over any FS; on a [Batcher] (OS) it waits
// for the disk once per batch rather than once per file. The fakes of tests (fault
// injection, crashes) wrap OS as Batchers too: internal/fsys/fsystest, fixtures.
package fsys

import (
	"errors"
	"io/fs"
)

// FS is the small set of filesystem operations mcpwire needs. Paths are absolute.
type FS interface {
	// ReadFile returns the contents of the named file.
	ReadFile(name string) ([]byte, error)
	// Lstat describes the named file without following a final symlink.
	Lstat(name string) (fs.FileInfo, error)
	// Stat describes the named file, following symlinks.
	Stat(name string) (fs.FileInfo, error)
	// ReadDir lists a directory.
	ReadDir(name string) ([]fs.DirEntry, error)
	// EvalSymlinks returns the path with every symlink resolved.
	EvalSymlinks(name string) (string, error)

	// WriteFile atomically replaces (or creates) name with data and exactly mode perm
	// (the umask is not applied). See [WriteOptions] for the checks run before the rename.
	WriteFile(name string, data []byte, perm fs.FileMode, opts *WriteOptions) error
	// Mkdir creates one directory with exactly mode perm.
	Mkdir(name string, perm fs.FileMode) error
	// MkdirTemp creates a new 0700 directory in dir (os.TempDir when empty).
	MkdirTemp(dir, pattern string) (string, error)
	// Remove removes a file or an empty directory.
	Remove(name string) error
	// Chmod sets the mode of name.
	Chmod(name string, perm fs.FileMode) error
	// Symlink creates newname as a symlink to oldname.
	Symlink(oldname, newname string) error
	// Lock takes the advisory lock <name>.mcpwire.lock (0600) that serialises mcpwire
	// processes writing name (W8). The returned function releases it.
	Lock(name string) (release func() error, err error)
}

// Snapshot is what a file held when it was read: its bytes, or that it did not exist.
type Snapshot struct {
	Exists bool
	Data   []byte
	Mode   fs.FileMode

	// stat describes the file as it was read (nil when it changed while being read).
	stat fs.FileInfo
}

// WriteOptions are the checks [FS.WriteFile] runs after the temporary file is written
// and synced, just before the rename.
type WriteOptions struct {
	// Expect, when set, must still describe the destination: same existence and same
	// bytes. Otherwise WriteFile removes its temporary file and returns an error
	// wrapping [ErrChanged].
	Expect *Snapshot
	// Check, when set, runs just before the rename (for example to repeat the parent
	// symlink checks of W5). An error aborts the write and removes the temporary file.
	Check func() error
}

// ErrChanged reports that another process changed a file between read and rename.
var ErrChanged = errors.New("file changed while mcpwire was writing it")
