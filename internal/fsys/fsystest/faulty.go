// Package fsystest holds fakes of the filesystem seam for tests: [Faulty], the real
// filesystem with injected failures. Only tests import it.
package fsystest

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// ErrInjected is the failure [Faulty] injects.
var ErrInjected = errors.New("injected fault")

// Fault stages of [Faulty.WriteStage] (stages of [fsys.OSOptions.Fault]).
const (
	// StageOpen fails a WriteFile before its temporary file is created.
	StageOpen = "open"
	// StageWrite fails a WriteFile after its temporary file is created, before any byte
	// is written.
	StageWrite = "write"
	// StageSync fails a WriteFile at the fsync, after the data was written to the
	// temporary file.
	StageSync = "sync"
	// StageRename fails a WriteFile at the rename, after the temporary file was
	// written, synced and checked.
	StageRename = "rename"
)

// Faulty is the real filesystem with injected failures, used by tests to prove
// rollback (W7, W9). Counts are 1-based and cover every call of the kind, rollback
// included; 0 injects nothing. The failures go through the real code paths, so a
// failed WriteFile removes its temporary file as it would in production. It is an
// [fsys.Batcher]: transactions run on it in production's order, a batched write
// counting as one write.
type Faulty struct {
	// FailWrite makes the FailWrite-th WriteFile call fail at WriteStage.
	FailWrite int
	// WriteStage is [StageOpen], [StageWrite] (the default when empty), [StageSync]
	// or [StageRename].
	WriteStage string
	// FailRemove, FailChmod and FailMkdir make the Nth call of that kind fail before
	// it touches the disk.
	FailRemove, FailChmod, FailMkdir int

	mu                             sync.Mutex
	writes, removes, chmods, mkdir int
	pieces                         int
	calls                          []string
}

var _ fsys.Batcher = (*Faulty)(nil)

// Calls lists the mutating calls made so far, such as "write /p 0600",
// "mkdir /d 0700", "remove /p", "chmod /p 0644", "symlink /new -> old", "lock /p",
// in order, failed ones included.
func (f *Faulty) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// record appends a call and returns the new count for the counter it bumps.
func (f *Faulty) record(counter *int, call string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, call)
	if counter == nil {
		return 0
	}
	*counter++
	return *counter
}

// failAt returns an OS that fails at stage when n is the configured call number.
func failAt(n, fail int, stage string) fsys.OS {
	if fail == 0 || n != fail {
		return fsys.OS{}
	}
	return fsys.NewOSWith(fsys.OSOptions{Fault: func(s, _ string) error {
		if s == stage {
			return ErrInjected
		}
		return nil
	}})
}

// ReadFile returns the contents of the named file.
func (*Faulty) ReadFile(name string) ([]byte, error) { return fsys.OS{}.ReadFile(name) }

// Lstat describes the named file without following a final symlink.
func (*Faulty) Lstat(name string) (fs.FileInfo, error) { return fsys.OS{}.Lstat(name) }

// Stat describes the named file, following symlinks.
func (*Faulty) Stat(name string) (fs.FileInfo, error) { return fsys.OS{}.Stat(name) }

// ReadDir lists a directory.
func (*Faulty) ReadDir(name string) ([]fs.DirEntry, error) { return fsys.OS{}.ReadDir(name) }

// EvalSymlinks returns the path with every symlink resolved.
func (*Faulty) EvalSymlinks(name string) (string, error) { return fsys.OS{}.EvalSymlinks(name) }

// WriteFile is [fsys.OS.WriteFile], failing when this is the FailWrite-th call.
func (f *Faulty) WriteFile(name string, data []byte, perm fs.FileMode, opts *fsys.WriteOptions) error {
	return f.nextWrite(name, perm).WriteFile(name, data, perm, opts)
}

// nextWrite counts a write and returns the filesystem it runs on.
func (f *Faulty) nextWrite(name string, perm fs.FileMode) fsys.OS {
	n := f.record(&f.writes, fmt.Sprintf("write %s %#o", name, perm))
	stage := f.WriteStage
	if stage == "" {
		stage = StageWrite
	}
	return failAt(n, f.FailWrite, stage)
}

// WriteContent is [fsys.OS.WriteContent] (a content written piece by piece, never
// joined), counted and failing as WriteFile.
func (f *Faulty) WriteContent(name string, c fsys.Content, perm fs.FileMode, opts *fsys.WriteOptions) error {
	f.countPieces()
	return f.nextWrite(name, perm).WriteContent(name, c, perm, opts)
}

// StageContent is [fsys.OS.StageContent], counted and failing as StageWrite.
func (f *Faulty) StageContent(name string, c fsys.Content, perm fs.FileMode) (*fsys.PendingWrite, error) {
	f.countPieces()
	return f.nextWrite(name, perm).StageContent(name, c, perm)
}

// countPieces counts a write given in pieces.
func (f *Faulty) countPieces() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pieces++
}

// PieceWrites is the number of writes given in pieces (WriteContent, StageContent)
// so far, failed ones included.
func (f *Faulty) PieceWrites() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pieces
}

// StageWrite is the first half of [Faulty.WriteFile] in a batched transaction (see
// [fsys.Target.Batch]): the same call count, the same fault stages.
func (f *Faulty) StageWrite(name string, data []byte, perm fs.FileMode) (*fsys.PendingWrite, error) {
	return f.nextWrite(name, perm).StageWrite(name, data, perm)
}

// Adopt is [fsys.OS.Adopt], counted as a write like StageWrite: when it is the
// FailWrite-th write, at whatever stage, its CommitWrite fails at the rename (an
// adopted write has no temporary file to open, fill or sync).
func (f *Faulty) Adopt(name, from string, data []byte, perm fs.FileMode) (*fsys.PendingWrite, error) {
	if _, err := (fsys.OS{}).Adopt(name, from, data, perm); err != nil {
		return nil, err // not adopted, and not counted: the write that follows is
	}
	n := f.record(&f.writes, fmt.Sprintf("write %s %#o", name, perm))
	return failAt(n, f.FailWrite, StageRename).Adopt(name, from, data, perm)
}

// CommitWrite is the second half, failing at [StageRename] when its StageWrite was
// the FailWrite-th write.
func (*Faulty) CommitWrite(w *fsys.PendingWrite, opts *fsys.WriteOptions) error {
	return fsys.OS{}.CommitWrite(w, opts)
}

// Mkdir is [fsys.OS.Mkdir], failing when this is the FailMkdir-th call.
func (f *Faulty) Mkdir(name string, perm fs.FileMode) error {
	n := f.record(&f.mkdir, fmt.Sprintf("mkdir %s %#o", name, perm))
	return failAt(n, f.FailMkdir, "mkdir").Mkdir(name, perm)
}

// MkdirTemp is [fsys.OS.MkdirTemp].
func (f *Faulty) MkdirTemp(dir, pattern string) (string, error) {
	name, err := fsys.OS{}.MkdirTemp(dir, pattern)
	f.record(nil, "mkdirtemp "+name)
	return name, err
}

// Remove is [fsys.OS.Remove], failing when this is the FailRemove-th call.
func (f *Faulty) Remove(name string) error {
	n := f.record(&f.removes, "remove "+name)
	return failAt(n, f.FailRemove, "remove").Remove(name)
}

// Chmod is [fsys.OS.Chmod], failing when this is the FailChmod-th call.
func (f *Faulty) Chmod(name string, perm fs.FileMode) error {
	n := f.record(&f.chmods, fmt.Sprintf("chmod %s %#o", name, perm))
	return failAt(n, f.FailChmod, "chmod").Chmod(name, perm)
}

// Symlink is [fsys.OS.Symlink].
func (f *Faulty) Symlink(oldname, newname string) error {
	f.record(nil, "symlink "+newname+" -> "+oldname)
	return fsys.OS{}.Symlink(oldname, newname)
}

// Lock is [fsys.OS.Lock].
func (f *Faulty) Lock(name string) (func() error, error) {
	f.record(nil, "lock "+name)
	return fsys.OS{}.Lock(name)
}

// LockOnly is [fsys.OS.LockOnly], recorded as a lock.
func (f *Faulty) LockOnly(name string) (func() error, error) {
	f.record(nil, "lock "+name)
	return fsys.OS{}.LockOnly(name)
}

// CleanStale is [fsys.OS.CleanStale].
func (*Faulty) CleanStale(names ...string) { fsys.OS{}.CleanStale(names...) }

// CleanLocks is [fsys.OS.CleanLocks].
func (*Faulty) CleanLocks(names ...string) { fsys.OS{}.CleanLocks(names...) }
