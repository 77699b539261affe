package fsys

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Target is one file of a transaction run by [Apply].
type Target struct {
	// Path is the file's absolute path.
	Path string
	// Edit computes the new content from the current one (cur.Exists false when
	// absent). It returns the new bytes and the final mode (0 keeps the mode of an
	// existing file). Returning remove=true deletes the file. Its errors are returned as
	// they are and should name the file.
	//
	// Edit may run several times: at plan time, again under the lock, and after a
	// concurrent change. It must not change any file. It may record what it computed
	// for the Edits of later targets of the same Apply (an ownership record built
	// from what the client file's Edit wrote, for example): Apply runs the Edits in
	// target order, and whenever it runs one again it runs every later target's Edit
	// again too — also those of targets that needed no change until then — before
	// it writes any of them, so a later Edit always sees the state of the last run of
	// the earlier ones. It may also read the file of another target of the same Apply
	// through the FS (a client file's Edit reads its ownership record): under the
	// lock, a change to any target's file since its Edit ran makes Apply run every
	// Edit again, in order. A file changed by another process while the writes are
	// under way (step 3 of Apply) is seen only by the Edits run after it; an Edit that
	// depends on a later target's file should let that target's Edit check that the
	// file still holds what it read, and fail with [ErrChanged] if not.
	Edit func(cur Snapshot) (data []byte, perm fs.FileMode, remove bool, err error)
	// DirPerm is the mode for missing parent directories created for this target
	// (0 = refuse when the parent is missing).
	DirPerm fs.FileMode
	// Check runs at plan time and again just before the rename (W5 parent checks).
	Check func() error
}

// Result says what happened to one target.
type Result struct {
	// Path is the target's path.
	Path string
	// Old is the content the final edit was computed from.
	Old Snapshot
	// New is the content written (or kept); nil when removed.
	New []byte
	// Mode is the file's final mode.
	Mode fs.FileMode
	// Changed reports that the file's content or mode was changed.
	Changed bool
	// Removed reports that the file was removed.
	Removed bool
}

// maxRetries is how many times a write is redone after another process changed the
// file (W8).
const maxRetries = 5

// Apply writes targets as one transaction (W6, W7, W8):
//
//  1. Plan: for every target run Check, refuse a symlink or non-regular destination,
//     a missing parent without DirPerm and (when something must change) an
//     unwritable nearest existing parent, read the file and run Edit. Any error
//     returns before anything is written.
//  2. Create missing parent directories (DirPerm), then lock every target that must
//     change, in sorted path order. Under the lock, if any target's file changed since
//     its edit, every target is read and edited again, in order (see [Target.Edit]).
//     If a target that did not need a change now needs one, the locks are released
//     and step 2 starts again with it included, so that locks are always taken in
//     sorted order.
//  3. Write in the given order. Unchanged bytes and mode: no write at all (W6). Only
//     the mode differs: Chmod. Otherwise WriteFile, checked against the content the
//     edit was computed from; if another process changed the file meanwhile, it is
//     read and edited again (up to 5 times), never clobbered (W8), and every later
//     target is edited again before it is written; a later target that only now
//     needs a change gets its directories and its lock then (out of sorted order,
//     which the lock's timeout bounds).
//  4. On a failure, undo the finished writes in reverse order (restore content and
//     mode, or remove files that did not exist), release the locks and remove the
//     directories the transaction created (deepest first, only when empty).
//     Rollback errors are joined to the returned error.
//
// Targets that need no change are neither locked nor written. Results, in target
// order, are returned only when every write succeeded (with the error of releasing a
// lock, if that alone failed).
func Apply(f FS, targets []Target) ([]Result, error) {
	plans := make([]*plan, len(targets))
	for i, t := range targets {
		p := &plan{t: t}
		if err := p.prepare(f); err != nil {
			return nil, err
		}
		plans[i] = p
	}
	tx := &txn{f: f}
	results, err := tx.run(plans)
	if err != nil {
		err = errors.Join(append([]error{err}, tx.rollback()...)...)
		return nil, err
	}
	if err := tx.release(); err != nil {
		return results, err
	}
	return results, nil
}

// plan is one target's edit, computed from snap.
type plan struct {
	t      Target
	snap   Snapshot
	data   []byte
	perm   fs.FileMode
	remove bool
}

// prepare runs the plan-time checks and the first edit.
func (p *plan) prepare(f FS) error {
	if p.t.Check != nil {
		if err := p.t.Check(); err != nil {
			return err
		}
	}
	if err := CheckNotSymlink(f, p.t.Path); err != nil {
		return err
	}
	parent := filepath.Dir(p.t.Path)
	near, err := NearestExistingDir(f, parent)
	if err != nil {
		return err
	}
	if near != parent && p.t.DirPerm == 0 {
		return fmt.Errorf("%s: directory %s does not exist", p.t.Path, parent)
	}
	if err := p.edit(f); err != nil {
		return err
	}
	if p.needsWrite() {
		return CheckWritableDir(near)
	}
	return nil
}

// edit reads the file and runs the target's Edit on it.
func (p *plan) edit(f FS) error {
	snap, err := readSnapshot(f, p.t.Path)
	if err != nil {
		return err
	}
	data, perm, remove, err := p.t.Edit(snap)
	if err != nil {
		return err
	}
	if perm == 0 && !remove {
		if !snap.Exists {
			return fmt.Errorf("%s: no mode given for the new file", p.t.Path)
		}
		perm = snap.Mode
	}
	p.snap, p.data, p.perm, p.remove = snap, data, perm, remove
	return nil
}

// unchanged reports that the edit keeps the file as it is.
func (p *plan) unchanged() bool {
	if p.remove {
		return !p.snap.Exists
	}
	return p.snap.Exists && p.snap.Mode == p.perm && bytes.Equal(p.snap.Data, p.data)
}

// needsWrite reports that the edit creates, rewrites or removes the file (a mode
// change alone needs no write access to the directory).
func (p *plan) needsWrite() bool {
	return !p.unchanged() && (p.remove || !p.snap.Exists || !bytes.Equal(p.snap.Data, p.data))
}

// readSnapshot reads path; a missing file is an absent snapshot.
func readSnapshot(f FS, path string) (Snapshot, error) {
	before, err := f.Lstat(path)
	if IsNotExist(err) {
		before = nil
	} else if err != nil {
		return Snapshot{}, err
	}
	data, err := f.ReadFile(path)
	if IsNotExist(err) {
		return Snapshot{}, nil
	}
	if err != nil {
		return Snapshot{}, err
	}
	fi, err := f.Lstat(path)
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Exists: true, Data: data, Mode: fi.Mode().Perm()}
	if before != nil && sameStat(before, fi) {
		s.stat = fi
	}
	return s, nil
}

// sameStat reports that two descriptions are of the same, unmodified file.
func sameStat(a, b fs.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}

// unchangedSince reports whether path still holds the snapshot: by its file
// description when it was taken while the file was still (cheap for a 50 MB file),
// else by its bytes. A change the description misses is still caught by the
// compare-before-rename of the write (W8).
func unchangedSince(f FS, path string, s Snapshot) (bool, error) {
	if s.Exists && s.stat != nil {
		if fi, err := f.Lstat(path); err == nil && sameStat(fi, s.stat) {
			return true, nil
		}
	}
	return SameContent(f, path, s)
}

// txn is the state of a running transaction: what to undo.
type txn struct {
	f        FS
	dirs     []string // directories created, in creation order
	releases []func() error
	held     map[string]bool // paths locked
	done     []undo          // finished writes, in order
	redo     bool            // a write was redone after a concurrent change
}

// undo restores one finished write.
type undo struct {
	path    string
	old     Snapshot
	wrote   []byte // content written
	removed bool   // the file was removed
	chmod   bool   // only the mode was changed
}

func (tx *txn) run(plans []*plan) ([]Result, error) {
	locked := make([]bool, len(plans))
	for {
		grew := false
		for i, p := range plans {
			if !locked[i] && !p.unchanged() {
				locked[i], grew = true, true
			}
		}
		if !grew {
			break
		}
		// Take the locks of the grown set afresh, in sorted order (W8).
		if err := tx.release(); err != nil {
			return nil, err
		}
		var lock []*plan
		for i, p := range plans {
			if locked[i] {
				if err := tx.mkdirs(p.t); err != nil {
					return nil, err
				}
				lock = append(lock, p)
			}
		}
		if err := tx.lock(lock); err != nil {
			return nil, err
		}
		// Under the lock, if any target's file changed since its last edit, edit every
		// target again, in order, whether or not it needed a change so far: a later
		// edit (an ownership record) may depend on an earlier one's result, and an
		// edit may have read a later target's file (see Target.Edit).
		dirty := false
		for _, p := range plans {
			same, err := unchangedSince(tx.f, p.t.Path, p.snap)
			if err != nil || !same {
				dirty = true
				break
			}
		}
		for _, p := range plans {
			if !dirty {
				break
			}
			if err := p.edit(tx.f); err != nil {
				return nil, err
			}
		}
	}
	results := make([]Result, len(plans))
	for i, p := range plans {
		if tx.redo {
			// an earlier write was redone: this edit may depend on it
			if err := p.edit(tx.f); err != nil {
				return nil, err
			}
		}
		if !locked[i] && !p.unchanged() {
			if err := tx.mkdirs(p.t); err != nil {
				return nil, err
			}
			if err := tx.lock([]*plan{p}); err != nil {
				return nil, err
			}
			locked[i] = true
			if err := p.edit(tx.f); err != nil { // read again under its lock
				return nil, err
			}
		}
		changed, err := tx.write(p)
		if err != nil {
			return nil, err
		}
		results[i] = Result{Path: p.t.Path, Old: p.snap, Mode: p.perm, Changed: changed, Removed: p.remove && changed}
		if !p.remove {
			results[i].New = p.data
		}
	}
	return results, nil
}

// mkdirs creates the missing parents of t, outermost first.
func (tx *txn) mkdirs(t Target) error {
	var missing []string
	for d := filepath.Dir(t.Path); ; d = filepath.Dir(d) {
		_, err := tx.f.Lstat(d)
		if err == nil {
			break
		}
		if !IsNotExist(err) {
			return err
		}
		if t.DirPerm == 0 {
			return fmt.Errorf("%s: directory %s does not exist", t.Path, d)
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range slices.Backward(missing) {
		err := tx.f.Mkdir(d, t.DirPerm)
		if errors.Is(err, fs.ErrExist) {
			if fi, serr := tx.f.Stat(d); serr == nil && fi.IsDir() {
				continue // created by someone else meanwhile
			}
		}
		if err != nil {
			return err
		}
		tx.dirs = append(tx.dirs, d)
	}
	return nil
}

// lock takes the lock of every given target not locked yet, in sorted order.
func (tx *txn) lock(plans []*plan) error {
	paths := make([]string, 0, len(plans))
	for _, p := range plans {
		paths = append(paths, filepath.Clean(p.t.Path))
	}
	slices.Sort(paths)
	for _, path := range slices.Compact(paths) {
		if tx.held[path] {
			continue
		}
		release, err := tx.f.Lock(path)
		if err != nil {
			return err
		}
		if tx.held == nil {
			tx.held = map[string]bool{}
		}
		tx.releases = append(tx.releases, release)
		tx.held[path] = true
	}
	return nil
}

// write applies one plan, redoing the edit when another process changed the file.
// It reports whether the file was changed.
func (tx *txn) write(p *plan) (bool, error) {
	for try := 0; ; try++ {
		if p.unchanged() {
			return false, nil
		}
		err := tx.writeOnce(p)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, ErrChanged) || try == maxRetries {
			return false, err
		}
		backoff(try)
		if err := p.edit(tx.f); err != nil {
			return false, err
		}
		tx.redo = true // later targets are edited again before they are written
	}
}

func (tx *txn) writeOnce(p *plan) error {
	f, path := tx.f, p.t.Path
	switch {
	case p.remove:
		if err := tx.removeChecked(path, p.snap, p.t.Check); err != nil {
			return err
		}
		tx.done = append(tx.done, undo{path: path, old: p.snap, removed: true})
	case p.snap.Exists && bytes.Equal(p.snap.Data, p.data):
		if err := f.Chmod(path, p.perm); err != nil {
			return err
		}
		tx.done = append(tx.done, undo{path: path, old: p.snap, wrote: p.data, chmod: true})
	default:
		snap := p.snap
		if err := f.WriteFile(path, p.data, p.perm, &WriteOptions{Expect: &snap, Check: p.t.Check}); err != nil {
			var de *DisplacedError
			if errors.As(err, &de) && de.Written {
				// mcpwire's file is in place all the same: the rollback must undo it
				tx.done = append(tx.done, undo{path: path, old: p.snap, wrote: p.data})
			}
			return err
		}
		tx.done = append(tx.done, undo{path: path, old: p.snap, wrote: p.data})
	}
	return nil
}

// removeChecked removes path if it still holds want and passes check.
func (tx *txn) removeChecked(path string, want Snapshot, check func() error) error {
	if err := CheckNotSymlink(tx.f, path); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	cur, err := readSnapshot(tx.f, path)
	if err != nil {
		return err
	}
	if cur.Exists != want.Exists || !bytes.Equal(cur.Data, want.Data) {
		return fmt.Errorf("remove %s: %w", path, ErrChanged)
	}
	return tx.f.Remove(path)
}

// rollback undoes the finished writes in reverse, releases the locks and removes
// the created directories; it returns what went wrong.
func (tx *txn) rollback() []error {
	var errs []error
	for _, u := range slices.Backward(tx.done) {
		if err := tx.undo(u); err != nil {
			errs = append(errs, fmt.Errorf("rollback %s: %w", u.path, err))
		}
	}
	if err := tx.release(); err != nil {
		errs = append(errs, err)
	}
	for _, d := range slices.Backward(tx.dirs) {
		entries, err := tx.f.ReadDir(d)
		if err != nil || len(entries) > 0 {
			continue // gone already, or holds someone else's files: leave it
		}
		if err := tx.f.Remove(d); err != nil {
			errs = append(errs, fmt.Errorf("rollback %s: %w", d, err))
		}
	}
	return errs
}

func (tx *txn) undo(u undo) error {
	switch {
	case u.chmod:
		return tx.f.Chmod(u.path, u.old.Mode)
	case u.old.Exists:
		expect := &Snapshot{Exists: !u.removed, Data: u.wrote}
		return tx.f.WriteFile(u.path, u.old.Data, u.old.Mode, &WriteOptions{Expect: expect})
	}
	return tx.removeChecked(u.path, Snapshot{Exists: true, Data: u.wrote}, nil)
}

// release releases every lock taken, once.
func (tx *txn) release() error {
	var errs []error
	for _, r := range slices.Backward(tx.releases) {
		if err := r(); err != nil {
			errs = append(errs, err)
		}
	}
	tx.releases, tx.held = nil, nil
	return errors.Join(errs...)
}

// backoff waits before retry n (0-based) after another writer changed the file: a
// few milliseconds, doubling, with jitter, so that a client rewriting its file in a
// burst is given room instead of racing it (W8).
func backoff(n int) {
	d := time.Duration(2<<n) * time.Millisecond
	time.Sleep(d + time.Duration(rand.Int64N(int64(d))))
}
