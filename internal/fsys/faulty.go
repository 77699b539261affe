package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

// ErrInjected is the failure [Faulty] injects.
var ErrInjected = errors.New("injected fault")

// Fault stages of [Faulty.WriteStage].
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
// failed WriteFile removes its temporary file as it would in production.
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
	calls                          []string
}

var _ FS = (*Faulty)(nil)

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
func failAt(n, fail int, stage string) OS {
	if fail == 0 || n != fail {
		return OS{}
	}
	return OS{hook: func(s, _ string) error {
		if s == stage {
			return ErrInjected
		}
		return nil
	}}
}

// ReadFile returns the contents of the named file.
func (*Faulty) ReadFile(name string) ([]byte, error) { return OS{}.ReadFile(name) }

// Lstat describes the named file without following a final symlink.
func (*Faulty) Lstat(name string) (fs.FileInfo, error) { return OS{}.Lstat(name) }

// Stat describes the named file, following symlinks.
func (*Faulty) Stat(name string) (fs.FileInfo, error) { return OS{}.Stat(name) }

// ReadDir lists a directory.
func (*Faulty) ReadDir(name string) ([]fs.DirEntry, error) { return OS{}.ReadDir(name) }

// EvalSymlinks returns the path with every symlink resolved.
func (*Faulty) EvalSymlinks(name string) (string, error) { return OS{}.EvalSymlinks(name) }

// WriteFile is [OS.WriteFile], failing when this is the FailWrite-th call.
func (f *Faulty) WriteFile(name string, data []byte, perm fs.FileMode, opts *WriteOptions) error {
	return f.nextWrite(name, perm).WriteFile(name, data, perm, opts)
}

// nextWrite counts a write and returns the filesystem it runs on.
func (f *Faulty) nextWrite(name string, perm fs.FileMode) OS {
	n := f.record(&f.writes, fmt.Sprintf("write %s %#o", name, perm))
	stage := f.WriteStage
	if stage == "" {
		stage = StageWrite
	}
	return failAt(n, f.FailWrite, stage)
}

// stageWrite is the first half of [Faulty.WriteFile] in a batched transaction (see
// [Target.Batch]): the same call count, the same fault stages.
func (f *Faulty) stageWrite(name string, data []byte, perm fs.FileMode) (*pendingWrite, error) {
	return f.nextWrite(name, perm).stageWrite(name, data, perm)
}

// Mkdir is [OS.Mkdir], failing when this is the FailMkdir-th call.
func (f *Faulty) Mkdir(name string, perm fs.FileMode) error {
	n := f.record(&f.mkdir, fmt.Sprintf("mkdir %s %#o", name, perm))
	return failAt(n, f.FailMkdir, "mkdir").Mkdir(name, perm)
}

// MkdirTemp is [OS.MkdirTemp].
func (f *Faulty) MkdirTemp(dir, pattern string) (string, error) {
	name, err := OS{}.MkdirTemp(dir, pattern)
	f.record(nil, "mkdirtemp "+name)
	return name, err
}

// Remove is [OS.Remove], failing when this is the FailRemove-th call.
func (f *Faulty) Remove(name string) error {
	n := f.record(&f.removes, "remove "+name)
	return failAt(n, f.FailRemove, "remove").Remove(name)
}

// Chmod is [OS.Chmod], failing when this is the FailChmod-th call.
func (f *Faulty) Chmod(name string, perm fs.FileMode) error {
	n := f.record(&f.chmods, fmt.Sprintf("chmod %s %#o", name, perm))
	return failAt(n, f.FailChmod, "chmod").Chmod(name, perm)
}

// Symlink is [OS.Symlink].
func (f *Faulty) Symlink(oldname, newname string) error {
	f.record(nil, "symlink "+newname+" -> "+oldname)
	return OS{}.Symlink(oldname, newname)
}

// Lock is [OS.Lock].
func (f *Faulty) Lock(name string) (func() error, error) {
	f.record(nil, "lock "+name)
	return OS{}.Lock(name)
}
