package fsys

import (
	"bytes"
	"fmt"
	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// PendingWrite is the first half of [OS.WriteFile]: the temporary file of name,
// written with its new content and not yet renamed. A transaction writes the
// temporary files of all its targets first ([Batcher.StageWrite]), syncs them
// together (syncPending), then renames them ([Batcher.CommitWrite]), so that one
// round of fsyncs serves them all (see [Target.Batch]).
type PendingWrite struct {
	o         OS // the filesystem that made it, with its hooks
	name, tmp string
	data      Content
	perm      fs.FileMode
	f         *os.File // open until synced
	// err is the failure of a step after the temporary file was created: discard
	// then keeps another program's file (*DisplacedError) instead of removing it.
	err       error
	committed bool
	// adopted: tmp is not a temporary file but a file of its own that holds the
	// content (Adopt), never removed by discard.
	adopted bool
	// from is the target's file as read when data was edited from it (holds).
	from []byte
}

// StageWrite creates name's temporary file with data and mode perm, unsynced. Its
// errors name the file.
func (o OS) StageWrite(name string, data []byte, perm fs.FileMode) (*PendingWrite, error) {
	return o.StageContent(name, ContentOf(data), perm)
}

// StageContent is [OS.StageWrite] of c, written piece by piece.
func (o OS) StageContent(name string, data Content, perm fs.FileMode) (*PendingWrite, error) {
	if err := checkDest(name); err != nil {
		return nil, fmt.Errorf("write %s: %w", name, err)
	}
	tmp, f, err := o.createTemp(name, perm)
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", name, err)
	}
	w := &PendingWrite{o: o, name: name, tmp: tmp, data: data, perm: perm, f: f}
	o.after("temp", tmp)
	if err := o.fill(f, tmp, name, data, perm); err != nil {
		w.err = err
		w.discard()
		return nil, fmt.Errorf("write %s: %w", name, err)
	}
	return w, nil
}

// Adopt makes from, a file beside name that holds data with mode perm already
// (synced), the pending write of name (see [Batcher.Adopt]).
func (o OS) Adopt(name, from string, data []byte, perm fs.FileMode) (*PendingWrite, error) {
	if filepath.Dir(filepath.Clean(from)) != filepath.Dir(filepath.Clean(name)) {
		return nil, fmt.Errorf("adopt %s: %s is not beside it", name, from)
	}
	fi, err := os.Lstat(from)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != perm || fi.Size() != int64(len(data)) {
		return nil, fmt.Errorf("adopt %s: %s does not hold its content", name, from)
	}
	cur, err := o.ReadFile(from)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(cur, data) {
		return nil, fmt.Errorf("adopt %s: %s does not hold its content", name, from)
	}
	return &PendingWrite{o: o, name: name, tmp: from, data: ContentOf(data), perm: perm, adopted: true}, nil
}

// holds reports whether the temporary file holds data with mode perm, data being
// the edit of from (a target's file as read). Where either content has stretches of
// a mapped file (internal/bigbuf), comparing them byte by byte says nothing: two
// mappings of one file show its bytes as they are now, also when it was written in
// place since the temporary file was filled, which would then rename its older
// version over the newer (a batched transaction's redo edits a new read). So the
// staged content must be the same edit, or the file it was filled from must be the
// one read now, by the digests taken as each was mapped.
func (w *PendingWrite) holds(data Content, perm fs.FileMode, from []byte) bool {
	if w == nil || w.perm != perm {
		return false
	}
	if w.data.mapped() || data.mapped() {
		return w.data.identical(data) || bigbuf.Same(w.from, from) && w.data.SameAs(data)
	}
	return w.data.SameAs(data)
}

// syncPending makes the temporary files durable and closes them: their fsyncs run at
// once (a journaling filesystem commits them together), the fault and step hooks in
// order. The first error is returned, naming its file.
func syncPending(ws []*PendingWrite) error {
	for _, w := range ws {
		if err := w.o.fault("sync", w.name); err != nil {
			w.err = err
			return fmt.Errorf("write %s: %w", w.name, err)
		}
	}
	errs := parallel(len(ws), func(i int) error { return ws[i].f.Sync() })
	for i, w := range ws {
		err := errs[i]
		if cerr := w.f.Close(); err == nil {
			err = cerr
		}
		w.f = nil
		if err != nil {
			w.err = err
			return fmt.Errorf("write %s: %w", w.name, err)
		}
	}
	for _, w := range ws {
		w.o.after("synced", w.tmp)
	}
	return nil
}

// commit runs opts (W5, W8) and renames the synced temporary file over name (see
// [OS.WriteFile]); the directory is not synced. On failure the temporary file is
// removed (or kept, for a *DisplacedError).
func (w *PendingWrite) commit(opts *WriteOptions) (err error) {
	defer func() {
		if err != nil {
			w.err = err
			w.discard()
			err = fmt.Errorf("write %s: %w", w.name, err)
		}
	}()
	o, name := w.o, w.name
	if opts != nil && opts.Check != nil {
		if err := opts.Check(); err != nil {
			return err
		}
	}
	if opts != nil && opts.Expect != nil {
		if err := expect(name, opts.Expect); err != nil {
			return err
		}
	}
	if err := o.intr.check(); err != nil {
		return err
	}
	if err := o.fault("rename", name); err != nil {
		return err
	}
	if err := checkDest(name); err != nil {
		return err
	}
	var want *Snapshot
	if opts != nil {
		want = opts.Expect
	}
	if handled, err := replace(w.tmp, name, want); handled {
		if err != nil {
			return err
		}
	} else if err := os.Rename(w.tmp, name); err != nil {
		return err
	}
	w.committed = true
	o.after("rename", name)
	return nil
}

// CommitWrite renames w, staged by this filesystem or by one wrapping it, over its
// file (see [Batcher]): w keeps the hooks of the filesystem that staged it.
func (OS) CommitWrite(w *PendingWrite, opts *WriteOptions) error { return w.commit(opts) }

// discard removes the temporary file of a write not committed (nil-safe, idempotent).
func (w *PendingWrite) discard() {
	if w == nil || w.committed || w.tmp == "" {
		return
	}
	if w.adopted {
		w.tmp = "" // another file of mcpwire's, not a temporary one: it stays
		return
	}
	if w.f != nil {
		_ = w.f.Close()
		w.f = nil
	}
	removeTemp(w.tmp, w.err)
	w.tmp = ""
}

// syncDirs makes the renames in dirs durable where the platform allows it (best
// effort), each directory once, their fsyncs at once.
func syncDirs(dirs []string) {
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	parallel(len(dirs), func(i int) error {
		d, err := openFile(dirs[i], os.O_RDONLY|dirOnly, 0)
		if err != nil {
			return err
		}
		_ = d.Sync()
		return d.Close()
	})
}

// RemoveUnchanged removes each of paths that still holds the bytes want gives for it,
// and reports which are gone: removed, or not there (renamed into place as the file
// it stages, Target.From). On the real filesystem the removals run at once: a
// removed file's blocks may be discarded before unlink returns (ext4 mounted with
// discard), one disk round trip each. Errors leave a file in place.
func RemoveUnchanged(f FS, paths []string, want [][]byte) []bool {
	removed := make([]bool, len(paths))
	one := func(i int) error {
		cur, err := f.ReadFile(paths[i])
		if IsNotExist(err) || err == nil && bytes.Equal(cur, want[i]) && f.Remove(paths[i]) == nil {
			removed[i] = true
		}
		return nil
	}
	if _, real := f.(OS); real {
		parallel(len(paths), one)
		return removed
	}
	for i := range paths {
		_ = one(i) // a test filesystem may count its calls, in order
	}
	return removed
}

// syncWorkers bounds the fsyncs run at once.
const syncWorkers = 16

// parallel runs fn(0) … fn(n-1), up to syncWorkers at once, and returns their errors
// by index.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	if n == 1 {
		errs[0] = fn(0)
		return errs
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(n, syncWorkers) {
		wg.Go(func() {
			for i := range next {
				errs[i] = fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}
