package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// OS is the real filesystem. Its WriteFile is an atomic replace (W3) with exact modes
// (W4), a refusal to write through a symlink (W5) and a compare-before-rename check (W8).
// The zero value is ready to use.
type OS struct {
	// hook, when set, runs at named stages of the mutating calls (see
	// [OSOptions.Fault]).
	hook func(stage, name string) error
	// intr, when set, stops writes cleanly (signals).
	intr *Interrupt
	// step, when set, runs right after each step that changed the disk (see
	// [OSOptions.AfterStep]).
	step func(stage, name string)
}

var _ FS = OS{}

// NewOS returns the real filesystem.
func NewOS() FS { return OS{} }

// ConcurrentReads reports whether f's reads (ReadFile, Lstat, Stat, ReadDir,
// EvalSymlinks) may run on several goroutines at once while nothing is written
// through f: the real filesystem's may (its hooks are on the writes alone); a dry run
// is not safe for concurrent use, and the fakes of tests count and order their calls.
func ConcurrentReads(f FS) bool {
	_, ok := f.(OS)
	return ok
}

// OSOptions configure the real filesystem returned by [NewOSWith].
type OSOptions struct {
	// Interrupt, when set, lets a signal stop the writes cleanly (see [Interrupt]).
	Interrupt *Interrupt
	// AfterStep, when set, runs right after each step that changed the disk, in
	// order: "lock" and "unlock" (a target's lock taken or released), "mkdir", "clean"
	// (a stale temporary file removed), "temp" (a temporary file created, still
	// empty), "partial" (its first MiB written, for larger files), "synced" (written
	// and synced in full), "rename" (the destination replaced), "remove" and "chmod".
	// name is the file the step is about. Tests only: the crash tests of cmd/mcpwire
	// kill the process there.
	AfterStep func(stage, name string)
	// Fault, when set, runs at named stages of the mutating calls ("open", "write",
	// "sync", "rename", "mkdir", "remove", "chmod"); an error it returns is the call's
	// failure, so that the real clean-up paths run. name is the file the call is
	// about, except at "open", which runs before each attempt to create the temporary
	// file and gets that temporary file's name. Tests only: fault injection
	// (internal/fsys/fsystest).
	Fault func(stage, name string) error
}

// NewOSWith returns the real filesystem with options.
func NewOSWith(opt OSOptions) OS {
	return OS{intr: opt.Interrupt, step: opt.AfterStep, hook: opt.Fault}
}

func (o OS) interrupt() *Interrupt { return o.intr }

func (o OS) fault(stage, name string) error {
	if o.hook == nil {
		return nil
	}
	return o.hook(stage, name)
}

// after reports a finished step to the step hook.
func (o OS) after(stage, name string) {
	if o.step != nil {
		o.step(stage, name)
	}
}

// ReadFile returns the contents of the named file.
func (OS) ReadFile(name string) ([]byte, error) { return readFile(name) }

// Lstat describes the named file without following a final symlink.
func (OS) Lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }

// Stat describes the named file, following symlinks.
func (OS) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }

// ReadDir lists a directory, sorted by name. Anything else, a FIFO included, is refused
// by the open itself (K2).
func (OS) ReadDir(name string) ([]fs.DirEntry, error) {
	if dirOnly == 0 {
		return os.ReadDir(name)
	}
	f, err := openFile(name, os.O_RDONLY|dirOnly, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// EvalSymlinks returns the path with every symlink resolved.
func (OS) EvalSymlinks(name string) (string, error) { return filepath.EvalSymlinks(name) }

// Symlink creates newname as a symlink to oldname.
func (OS) Symlink(oldname, newname string) error { return os.Symlink(oldname, newname) }

// Mkdir creates one directory with exactly mode perm, whatever the umask.
func (o OS) Mkdir(name string, perm fs.FileMode) error {
	if err := o.fault("mkdir", name); err != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: err}
	}
	if err := os.Mkdir(name, perm); err != nil {
		return err
	}
	if err := os.Chmod(name, perm); err != nil {
		_ = os.Remove(name)
		return err
	}
	o.after("mkdir", name)
	return nil
}

// MkdirTemp creates a new 0700 directory in dir (os.TempDir when empty); see
// [os.MkdirTemp] for pattern.
func (OS) MkdirTemp(dir, pattern string) (string, error) {
	name, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(name, 0o700); err != nil {
		_ = os.Remove(name)
		return "", err
	}
	return name, nil
}

// Remove removes a file or an empty directory.
func (o OS) Remove(name string) error {
	if err := o.fault("remove", name); err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	if err := os.Remove(name); err != nil {
		return err
	}
	o.after("remove", name)
	return nil
}

// Chmod sets the mode of name.
func (o OS) Chmod(name string, perm fs.FileMode) error {
	if err := o.fault("chmod", name); err != nil {
		return &fs.PathError{Op: "chmod", Path: name, Err: err}
	}
	if err := os.Chmod(name, effectiveMode(perm)); err != nil {
		return err
	}
	o.after("chmod", name)
	return nil
}

// WriteFile atomically replaces (or creates) name with data and exactly mode perm (W3,
// W4): it creates an exclusive temporary file .<base>.mcpwire-<random>.tmp in the same
// directory, sets its mode, writes and syncs it, runs opts (W5, W8) and renames it over
// name (with opts.Expect on Linux and macOS, an atomic swap checked afterwards; on
// Windows a move that never replaces a file expected absent: see replace), then syncs
// the directory. Every failure removes the temporary file, except a
// *[DisplacedError], where the temporary file holds another program's file (it is
// then renamed .<base>.mcpwire-<random>.kept when possible). A destination that is a
// symlink or not a regular file is refused. An [Interrupt] stops the write before the
// rename, the temporary file removed.
func (o OS) WriteFile(name string, data []byte, perm fs.FileMode, opts *WriteOptions) (err error) {
	return o.WriteContent(name, ContentOf(data), perm, opts)
}

// WriteContent is [OS.WriteFile] of c, written to the temporary file piece by piece.
func (o OS) WriteContent(name string, c Content, perm fs.FileMode, opts *WriteOptions) (err error) {
	if err := o.intr.begin(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	defer o.intr.end()
	w, err := o.StageContent(name, c, perm)
	if err != nil {
		return err
	}
	defer w.discard()
	if err := syncPending([]*PendingWrite{w}); err != nil {
		return err
	}
	if err := w.commit(opts); err != nil {
		return err
	}
	syncDirs([]string{filepath.Dir(name)})
	return nil
}

// writeChunk is how much of the temporary file is written between two checks of the
// Interrupt.
const writeChunk = 1 << 20

// fill sets the temporary file's mode and writes c to it, piece by piece and a chunk
// at a time, checking the Interrupt in between; syncPending syncs and closes it.
func (o OS) fill(f *os.File, tmp, name string, c Content, perm fs.FileMode) error {
	if err := f.Chmod(effectiveMode(perm)); err != nil { // beat the umask
		return err
	}
	if err := o.fault("write", name); err != nil {
		return err
	}
	if err := o.intr.check(); err != nil {
		return err
	}
	left, first := c.Len(), true
	var err error
	c.each(func(p []byte) bool {
		for len(p) > 0 {
			if !first {
				if err = o.intr.check(); err != nil {
					return false
				}
			}
			n := min(len(p), writeChunk)
			if err = writePiece(f, p[:n]); err != nil {
				return false
			}
			p, left = p[n:], left-n
			if first && left > 0 {
				o.after("partial", tmp)
			}
			first = false
		}
		return true
	})
	return err
}

// writePiece writes p to f. A stretch of a mapped file (the unchanged bytes of a
// large file's edit) is copied from the file by the kernel (copy_file_range), never
// touched by the process; where the kernel cannot, it is written from the mapping
// and its pages dropped after. A file cut short meanwhile is ErrChanged: the
// transaction reads it again.
func writePiece(f *os.File, p []byte) error {
	m, off := bigbuf.Lookup(p)
	if m == nil {
		_, err := f.Write(p)
		return err
	}
	err := m.CopyRange(int(f.Fd()), off, len(p))
	if bigbuf.IsNoCopy(err) {
		_, err = f.Write(p)
		bigbuf.Release(p)
		if errors.Is(err, syscall.EFAULT) {
			err = bigbuf.ErrShort
		}
	}
	if errors.Is(err, bigbuf.ErrShort) {
		return fmt.Errorf("%w (%w)", ErrChanged, err)
	}
	return err
}

// removeTemp removes the temporary file of a failed write, unless it holds another
// program's file (a *DisplacedError): that one is never deleted, only renamed
// .<base>.mcpwire-<random>.kept, out of the way of the clean-up of stale temporary
// files (see CleanStale); the error then names the new name.
func removeTemp(tmp string, err error) {
	var de *DisplacedError
	if !errors.As(err, &de) {
		_ = os.Remove(tmp)
		return
	}
	kept := strings.TrimSuffix(de.Kept, tempSuffix) + keptSuffix
	if de.Kept == tmp && os.Rename(tmp, kept) == nil {
		de.Kept = kept
	}
}

// DisplacedError reports that another program put its own file at Name while mcpwire
// was swapping its file in (W8), and that mcpwire could not put that file back: it is
// kept at Kept (never deleted) for the person to merge. Written reports that Name
// holds mcpwire's new file (the swap back failed, with Err); otherwise a third write
// replaced mcpwire's file at Name, and Name holds that one.
type DisplacedError struct {
	Name, Kept string
	Written    bool
	Err        error
}

func (e *DisplacedError) Error() string {
	took := "a newer write by another program took its place"
	if e.Written {
		took = "mcpwire's version took its place"
	}
	msg := "another program replaced " + e.Name + " while mcpwire was writing it, and its version could not be put back"
	if e.Err != nil {
		msg += " (" + e.Err.Error() + ")"
	}
	return msg + " (" + took + "): it is kept in " + e.Kept + "; compare it with " + e.Name + " and merge by hand"
}

func (e *DisplacedError) Unwrap() error { return e.Err }

// checkDest refuses a destination that exists and is not a regular file.
func checkDest(name string) error {
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return ErrSymlink
	case !fi.Mode().IsRegular():
		return ErrNotRegular
	}
	return nil
}

// createTemp creates the temporary file for name exclusively, with mode perm (before
// the umask).
func (o OS) createTemp(name string, perm fs.FileMode) (string, *os.File, error) {
	dir, base := filepath.Split(name)
	for range 100 {
		tmp := filepath.Join(dir, tempPrefix(base)+strconv.FormatUint(rand.Uint64(), 36)+tempSuffix)
		if err := o.intr.check(); err != nil {
			return "", nil, err
		}
		if err := o.fault("open", tmp); err != nil {
			return "", nil, err
		}
		f, err := openFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, effectiveMode(perm))
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmp, f, err
	}
	return "", nil, errors.New("cannot create a unique temporary file")
}

// expect reports ErrChanged unless name still holds what want describes.
func expect(name string, want *Snapshot) error {
	same, err := OS{}.sameContent(name, *want)
	if err != nil {
		return err
	}
	if !same {
		return ErrChanged
	}
	return nil
}
