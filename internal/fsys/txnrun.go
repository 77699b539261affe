package fsys

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// txn is the state of a running transaction: what to undo.
type txn struct {
	f        FS
	intr     *Interrupt
	releases []func() error
	held     map[string]bool // paths locked
	done     []undo          // finished writes, in order
	redo     bool            // a write was redone after a concurrent change
	stale    bool            // every edit must run again before the writes
	dirs     []string        // directories of batched renames not synced yet
	b        Batcher         // the filesystem, when this run's writes are batched
}

// undo restores one finished write.
type undo struct {
	path    string
	old     Snapshot
	wrote   Content // content written
	removed bool    // the file was removed
	chmod   bool    // only the mode was changed
	// from is the file an adopted write renamed over path (Target.From): the undo
	// writes it back before it removes path, so that a staged record stays while
	// the rollback of the client file it describes may still fail
	from string
	perm fs.FileMode
	// batch is the write's Batch when the transaction's writes were batched, else 0
	batch int
}

// runAll runs the transaction (steps 2 and 3 of Apply). When an Edit reports that a
// file it depends on changed ([ErrChanged] from the Edit, not from a write), the
// writes done so far are undone under the locks still held and the transaction runs
// again with every target edited afresh, up to maxRetries times.
func (tx *txn) runAll(plans []*plan) ([]Result, error) {
	for try := 0; ; try++ {
		results, err := tx.run(plans)
		if err == nil || !isEditChanged(err) || try == maxRetries {
			return results, err
		}
		if rerr := rollbackError(tx.undoDone()); rerr != nil {
			return nil, errors.Join(err, rerr)
		}
		backoff(try)
		tx.redo, tx.stale = false, true
	}
}

// run locks and writes the plans once.
func (tx *txn) run(plans []*plan) ([]Result, error) {
	locked, err := tx.lockAll(plans)
	if err != nil {
		return nil, err
	}
	order, b := writeOrder(tx.f, plans)
	tx.b = b
	pend := make([]*PendingWrite, len(plans))
	defer func() {
		for _, w := range pend {
			w.discard()
		}
	}()
	if b != nil {
		if err := tx.stageAll(b, plans, locked, order, pend); err != nil {
			return nil, err
		}
	}
	results := make([]Result, len(plans))
	for k, i := range order {
		p := plans[i]
		if k > 0 && p.t.Batch != plans[order[k-1]].t.Batch {
			tx.syncDirs() // every rename of a batch is durable before the next batch's
		}
		if err := tx.intr.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", p.t.Path, err)
		}
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
		changed, err := tx.write(p, pend[i])
		pend[i] = nil
		if err != nil {
			return nil, err
		}
		results[i] = Result{Path: p.t.Path, Old: p.snap, Mode: p.perm, Changed: changed, Removed: p.remove && changed}
		if !p.remove {
			if !p.data.Split() {
				results[i].New = p.data.Bytes()
			}
		}
	}
	tx.syncDirs()
	return results, nil
}

// Batcher is a filesystem on which a transaction waits for the disk a few times
// rather than once per file: it takes all its locks first and then removes the
// stale temporary files of the locked files with one listing per directory, and
// when every target has a [Target.Batch] it writes a batch's temporary files first,
// syncs them all at once, then renames each over its file and syncs the batch's
// directories at once. [OS] is one. A filesystem of tests that wraps one (fault
// injection, a simulated crash) implements Batcher by forwarding to it, overriding
// what it observes, so that the transactions it runs take production's order.
type Batcher interface {
	FS
	// LockOnly is [FS.Lock] without the removal of the file's stale temporary files,
	// which the transaction leaves to CleanStale once it holds all its locks.
	LockOnly(name string) (release func() error, err error)
	// CleanStale removes the temporary files that interrupted runs left beside
	// names, whose locks are held.
	CleanStale(names ...string)
	// CleanLocks removes the lock files of names that the locks held now guard.
	CleanLocks(names ...string)
	// StageWrite is the first half of [FS.WriteFile]: it creates name's temporary
	// file with data and exactly mode perm, not yet synced (the transaction syncs a
	// batch's temporary files together). Its errors name the file.
	StageWrite(name string, data []byte, perm fs.FileMode) (*PendingWrite, error)
	// Adopt is StageWrite for a new file name whose content the file from beside it
	// holds already, synced (see [Target.From]): no temporary file is written, and
	// CommitWrite renames from itself over name. It fails, changing nothing, when from
	// does not hold exactly data with mode perm; a failed commit or a discard leaves
	// from in place.
	Adopt(name, from string, data []byte, perm fs.FileMode) (*PendingWrite, error)
	// CommitWrite is the second half: it runs opts' checks (W5, W8) and renames the
	// synced temporary file of w over its file; the directory is synced with the
	// batch's. On failure the temporary file is removed (or kept, for a
	// *[DisplacedError]).
	CommitWrite(w *PendingWrite, opts *WriteOptions) error
}

var _ Batcher = OS{}

// writeOrder returns the order in which the plans are written, and the Batcher when
// their writes are batched: every target has a Batch and f can batch. Otherwise the
// targets are written in their order, each made durable on its own.
func writeOrder(f FS, plans []*plan) ([]int, Batcher) {
	order := make([]int, len(plans))
	for i := range order {
		order[i] = i
	}
	b, ok := f.(Batcher)
	if !ok || slices.ContainsFunc(plans, func(p *plan) bool { return p.t.Batch <= 0 }) {
		return order, nil
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(plans[x].t.Batch, plans[y].t.Batch) })
	return order, b
}

// stageAll writes the temporary file of every locked plan that rewrites its file, in
// write order, and syncs them all at once (batched writes, see [Target.Batch]).
// (Creating them concurrently as well gained nothing measurable on 2 cores.)
func (tx *txn) stageAll(b Batcher, plans []*plan, locked []bool, order []int, pend []*PendingWrite) error {
	var ws []*PendingWrite
	for _, i := range order {
		p := plans[i]
		if !locked[i] || !p.rewrites() {
			continue
		}
		if err := tx.intr.check(); err != nil {
			return fmt.Errorf("%s: %w", p.t.Path, err)
		}
		if p.t.From != "" && !p.snap.Exists {
			if w, err := b.Adopt(p.t.Path, p.t.From, p.data.Bytes(), p.perm); err == nil {
				pend[i] = w // durable already: nothing to sync
				continue
			}
		}
		w, err := stageContent(b, p.t.Path, p.data, p.perm)
		if err != nil {
			return err
		}
		w.from = p.snap.Data
		pend[i] = w
		ws = append(ws, w)
	}
	return syncPending(ws)
}

// syncDirs makes the renames of batched writes done so far durable.
func (tx *txn) syncDirs() {
	if len(tx.dirs) > 0 {
		syncDirs(tx.dirs)
		tx.dirs = nil
	}
}

// lockAll takes the locks of the targets that must change (step 2 of Apply) and
// reports which are locked.
func (tx *txn) lockAll(plans []*plan) ([]bool, error) {
	locked := make([]bool, len(plans))
	dirty := tx.stale
	tx.stale = false
	for {
		if err := tx.intr.check(); err != nil {
			return nil, err
		}
		// Under the lock, if any target's file changed since its last edit, edit every
		// target again, in order, whether or not it needed a change so far: a later
		// edit (an ownership record) may depend on an earlier one's result, and an
		// edit may have read a later target's file (see Target.Edit).
		for _, p := range plans {
			if !dirty {
				break
			}
			if err := p.edit(tx.f); err != nil {
				return nil, err
			}
		}
		grew := false
		for i, p := range plans {
			if !locked[i] && (!p.unchanged() || p.stale) {
				locked[i], grew = true, true
			}
		}
		if !grew {
			return locked, nil
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
		dirty = false
		for _, p := range plans {
			if same, err := unchangedSince(tx.f, p.t.Path, p.snap); err != nil || !same {
				dirty = true
				break
			}
		}
	}
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
	}
	return nil
}

// lock takes the lock of every given target not locked yet, in sorted order. A
// target that needs no change and is locked only to remove an interrupted run's
// leftovers is skipped when its lock cannot be taken (a lock file another user
// left, for example): the transaction does not need it. The stale temporary files of
// the targets locked are removed once they are all locked (see [OS.Lock]).
func (tx *txn) lock(plans []*plan) error {
	required := map[string]bool{}
	guarded := map[string][]string{} // lock path → the targets it guards
	perm := map[string]fs.FileMode{} // lock path → the mode of directories created for it
	var orphans []string             // guarded targets that may have a lock file of their own
	for _, p := range plans {
		path := p.t.lockPath()
		required[path] = required[path] || !p.unchanged()
		perm[path] = max(perm[path], p.t.DirPerm)
		guarded[path] = append(guarded[path], filepath.Clean(p.t.Path))
		if p.stale && path != filepath.Clean(p.t.Path) {
			orphans = append(orphans, p.t.Path)
		}
	}
	sl, batched := tx.f.(Batcher)
	var taken []string
	defer func() {
		if len(taken) > 0 {
			sl.CleanStale(taken...)
			sl.CleanLocks(orphans...)
		}
	}()
	for _, path := range slices.Sorted(maps.Keys(required)) {
		if tx.held[path] {
			continue
		}
		lock := func() (func() error, error) {
			if batched {
				return sl.LockOnly(path)
			}
			return tx.f.Lock(path)
		}
		release, err := lock()
		for try := 0; IsNotExist(err) && perm[path] != 0 && try < maxRetries; try++ {
			// its directory went since it was created: another mcpwire removed the
			// empty directories it had created, with the file it had created there
			// (H7). Create it again.
			if tx.mkdirs(Target{Path: path, DirPerm: perm[path]}) != nil {
				break
			}
			release, err = lock()
		}
		if err != nil && !required[path] {
			continue
		}
		if err != nil {
			return err
		}
		if tx.held == nil {
			tx.held = map[string]bool{}
		}
		tx.releases = append(tx.releases, release)
		tx.held[path] = true
		if batched {
			taken = append(taken, guarded[path]...)
		}
	}
	return nil
}

// write applies one plan, redoing the edit when another process changed the file.
// It reports whether the file was changed. w, when set, is the plan's temporary file
// written beforehand (batched writes): it is renamed in place if it still holds the
// plan's content, removed otherwise.
func (tx *txn) write(p *plan, w *PendingWrite) (bool, error) {
	defer w.discard()
	for try := 0; ; try++ {
		if p.unchanged() {
			return false, nil
		}
		err := tx.writeOnce(p, w)
		w = nil // renamed, or removed by its failure
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

func (tx *txn) writeOnce(p *plan, w *PendingWrite) error {
	f, path := tx.f, p.t.Path
	if tx.b != nil {
		n := len(tx.done)
		defer func() {
			for i := n; i < len(tx.done); i++ {
				tx.done[i].batch = p.t.Batch
			}
		}()
	}
	switch {
	case p.remove:
		if err := tx.removeChecked(path, p.snap, p.t.Check); err != nil {
			return err
		}
		tx.done = append(tx.done, undo{path: path, old: p.snap, removed: true})
	case !p.rewrites():
		if err := f.Chmod(path, p.perm); err != nil {
			return err
		}
		tx.done = append(tx.done, undo{path: path, old: p.snap, wrote: p.data, chmod: true})
	default:
		snap := p.snap
		opts := &WriteOptions{Expect: &snap, Check: p.t.Check}
		var err error
		from := ""
		if w.holds(p.data, p.perm, p.snap.Data) {
			if w.adopted {
				from = w.tmp
			}
			err = tx.b.CommitWrite(w, opts)
			tx.dirs = append(tx.dirs, filepath.Dir(path))
		} else {
			w.discard()
			err = writeContent(f, path, p.data, p.perm, opts)
		}
		if err != nil {
			var de *DisplacedError
			if errors.As(err, &de) && de.Written {
				// mcpwire's file is in place all the same: the rollback must undo it
				tx.done = append(tx.done, undo{path: path, old: p.snap, wrote: p.data})
			}
			return err
		}
		tx.done = append(tx.done, undo{path: path, old: p.snap, wrote: p.data, from: from, perm: p.perm})
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
	cur, err := ReadSnapshot(tx.f, path)
	if err != nil {
		return err
	}
	if cur.Exists != want.Exists || !bigbuf.Same(cur.Data, want.Data) {
		return fmt.Errorf("remove %s: %w", path, ErrChanged)
	}
	return tx.f.Remove(path)
}

// backoff waits before retry n (0-based) after another writer changed the file: a
// few milliseconds, doubling, with jitter, so that a client rewriting its file in a
// burst is given room instead of racing it (W8).
func backoff(n int) {
	d := time.Duration(2<<n) * time.Millisecond
	time.Sleep(d + time.Duration(rand.Int64N(int64(d))))
}
