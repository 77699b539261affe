package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
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
	// EditContent, when set, is used instead of Edit: the same, giving the new
	// content as a [Content], which a large file's edit gives in pieces that are
	// never joined (OS writes them one after the other).
	EditContent func(cur Snapshot) (data Content, perm fs.FileMode, remove bool, err error)
	// DirPerm is the mode for missing parent directories created for this target
	// (0 = refuse when the parent is missing). Directories created are kept even when
	// the transaction fails (see [Apply]).
	DirPerm fs.FileMode
	// Check runs at plan time and again just before the rename (W5 parent checks).
	Check func() error
	// CheckKey, when set, names what Check looks at (a directory several targets
	// share): at plan time, Check runs once for all the targets of an Apply with the
	// same CheckKey; before each rename it runs for each target as always.
	CheckKey string
	// Batch, when every target of an Apply has one (> 0) and the filesystem is the
	// real one, lets Apply make its writes durable together instead of one after the
	// other (W3, docs/writes.md "Durability"). Edits run in target order as
	// always; the writes then go batch by batch in ascending Batch order (in target
	// order within a batch): every temporary file is written first and all are
	// synced at once, then each batch's files are renamed and their directories
	// synced at once before the first rename of the next batch. So a crash keeps any
	// subset of a batch's renames, and none of a batch unless every rename of the
	// batches before it: the targets of one batch must not depend on each other's
	// order on disk. After a redo (W8) the targets still to write are edited again
	// in write order, so an Edit must not depend on the Edit of a target of a later
	// batch.
	Batch int
	// Handoff, when set, may give the plan-time Edit a snapshot of Path that an
	// earlier target's Edit of the same Apply took with [ReadSnapshot] (ok true), so
	// that a large file is read once, not twice. It is asked only before the first
	// Edit of each planning; every later Edit reads the file itself.
	Handoff func() (s Snapshot, ok bool)
	// Guard, when set, is the file whose lock (W8) serialises the writes of this
	// target instead of a lock of its own: for a file mcpwire writes only beside
	// Guard and only while it holds Guard's lock (a staged ownership record, guarded
	// by its record). Every writer of the file must name the same Guard. One lock
	// file fewer is one file creation and removal fewer (issue 13).
	Guard string
	// From, when set, is a file beside Path that may already hold exactly the bytes
	// Edit returns, durably: written, synced and renamed into place before this
	// transaction began, by an earlier transaction, under the lock this target takes
	// (a staged ownership record written as the record it stages, docs/writes.md
	// "Crashes"; render/write's preStage writes it so). An earlier batch of the same
	// transaction cannot: every batch is staged before the first rename, when From
	// must exist already. When Path does not exist and From holds those bytes with
	// the target's mode, a batched write renames From over Path instead of writing a
	// temporary file: one inode, one file write and one fsync fewer. Otherwise it is
	// ignored. From is consumed by the rename; a rollback writes it back before it
	// removes Path, and a failure before the rename leaves it.
	From string
}

// lockPath is the path whose lock the target takes.
func (t Target) lockPath() string {
	if t.Guard != "" {
		return filepath.Clean(t.Guard)
	}
	return filepath.Clean(t.Path)
}

// Result says what happened to one target.
type Result struct {
	// Path is the target's path.
	Path string
	// Old is the content the final edit was computed from.
	Old Snapshot
	// New is the content written (or kept); nil when removed, and when the target's
	// EditContent gave it in pieces (a large file, never joined).
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
//     returns before anything is written, except an Edit's [ErrChanged] (a file it
//     depends on changed between two Edits): then planning starts again.
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
//     which the lock's timeout bounds). If an Edit reports [ErrChanged] itself (the
//     file of another target it read changed: an ownership record a concurrent
//     process wrote), the writes done so far are undone and steps 2 and 3 run again
//     with every target edited afresh, up to 5 times, like a client file (W8).
//  4. On a failure, undo the finished writes in reverse order (restore content and
//     mode, or remove files that did not exist) and release the locks. Rollback
//     errors are joined to the returned error, as a [RollbackError]; when a write of
//     a batch cannot be undone, the writes of the earlier batches stay (see
//     [Target.Batch]), as a crash there would leave them. Directories created in
//     step 2 stay: another process (mcpwire or the client) may already be creating a
//     file in a directory it found there, and nothing can prove that none is, so
//     removing even an empty one could make that process fail (issue 11).
//
// Targets that need no change are neither locked nor written, unless an interrupted
// run left temporary or lock files of theirs: they are locked then, which removes
// those (see [OS.Lock]). Results, in target
// order, are returned only when every write succeeded (with the error of releasing a
// lock, if that alone failed). When f can be interrupted ([NewOSWith] with an
// [Interrupt]), Stop fails the transaction at its next step the same way, rollback
// included; a transaction begun after Stop fails at once.
func Apply(f FS, targets []Target) ([]Result, error) {
	return ApplyThen(f, targets, nil)
}

// ApplyThen is [Apply], running then (when not nil) once every write succeeded,
// before the locks are released: then may remove a file the transaction wrote (a
// staged record), which no other mcpwire process can change while the lock is held,
// without locking it again. then cannot fail the transaction, and a signal does not
// stop it (as the release of the locks).
func ApplyThen(f FS, targets []Target, then func([]Result)) ([]Result, error) {
	intr := interruptOf(f)
	if err := intr.begin(); err != nil {
		return nil, err
	}
	defer intr.end()
	plans, err := prepareAll(f, targets)
	if err != nil {
		return nil, err
	}
	tx := &txn{f: f, intr: intr}
	results, err := tx.runAll(plans)
	if err != nil {
		err = errors.Join(append([]error{err}, tx.rollback()...)...)
		return nil, err
	}
	if then != nil {
		then(results)
	}
	if err := tx.release(); err != nil {
		return results, err
	}
	return results, nil
}

// prepareAll plans every target in order. An Edit that reports [ErrChanged] (another
// process wrote a file it depends on between two Edits) makes the planning start
// again, up to maxRetries times: nothing is written yet.
func prepareAll(f FS, targets []Target) ([]*plan, error) {
	for try := 0; ; try++ {
		plans := make([]*plan, len(targets))
		pl := newPlanning()
		var err error
		for i, t := range targets {
			plans[i] = &plan{t: t}
			if err = plans[i].prepare(f, pl); err != nil {
				break
			}
		}
		if err == nil || !isEditChanged(err) || try == maxRetries {
			return plans, err
		}
		backoff(try)
	}
}

// editChanged is an Edit's own [ErrChanged]: a file it read besides its target (an
// ownership record) changed since another target's Edit read it.
type editChanged struct{ err error }

func (e *editChanged) Error() string { return e.err.Error() }
func (e *editChanged) Unwrap() error { return e.err }

func isEditChanged(err error) bool {
	var ec *editChanged
	return errors.As(err, &ec)
}

// plan is one target's edit, computed from snap.
type plan struct {
	t      Target
	snap   Snapshot
	data   Content
	perm   fs.FileMode
	remove bool
	same   bool // data is the snapshot's content (the file exists and is kept)
	// stale reports a temporary file or a lock file of the target that an
	// interrupted run may have left: the target is locked even when it needs no
	// change, and taking and releasing its lock removes them.
	stale bool
}

// prepare runs the plan-time checks and the first edit. pl is what this planning
// pass has learned of the directories so far.
func (p *plan) prepare(f FS, pl *planning) error {
	if err := pl.check(p.t); err != nil {
		return err
	}
	before, err := lstatChecked(f, p.t.Path)
	if err != nil {
		return err
	}
	parent := filepath.Dir(p.t.Path)
	near, err := pl.nearestExistingDir(f, parent)
	if err != nil {
		return err
	}
	if near != parent && p.t.DirPerm == 0 {
		return fmt.Errorf("%s: directory %s does not exist", p.t.Path, parent)
	}
	if err := p.planEdit(f, before); err != nil {
		return err
	}
	if near == parent {
		p.stale = hasLeftovers(f, p.t.Path, pl.listings)
	}
	if p.needsWrite() {
		return pl.checkWritable(near)
	}
	return nil
}

// edit reads the file and runs the target's Edit on it.
func (p *plan) edit(f FS) error {
	snap, err := ReadSnapshot(f, p.t.Path)
	if err != nil {
		return err
	}
	return p.editFrom(snap)
}

// planEdit is the plan-time edit: from the target's handed-over snapshot when it has
// one, else from the file, read with before as its first look (the check of W5 that
// prepare just made: one lstat, not two).
func (p *plan) planEdit(f FS, before fs.FileInfo) error {
	if p.t.Handoff != nil {
		if snap, ok := p.t.Handoff(); ok {
			return p.editFrom(snap)
		}
	}
	snap, err := readSnapshotAfter(f, p.t.Path, before)
	if err != nil {
		return err
	}
	return p.editFrom(snap)
}

// editFrom runs the target's Edit on snap. A large file is mapped, not read
// (internal/bigbuf): when another program cuts it short meanwhile, a page of it the
// edit touches is gone (SIGBUS), which is the file changing while being read, as
// ErrChanged (the transaction reads it again), not a crash.
func (p *plan) editFrom(snap Snapshot) error {
	var err error
	if ferr := bigbuf.Guard(func() { err = p.editFromOnce(snap) }); ferr != nil {
		return &editChanged{fmt.Errorf("%s: %w (%w)", p.t.Path, ErrChanged, ferr)}
	}
	return err
}

// editFromOnce is editFrom, unguarded.
func (p *plan) editFromOnce(snap Snapshot) error {
	data, perm, remove, err := p.t.RunEdit(snap)
	if errors.Is(err, ErrChanged) {
		return &editChanged{err}
	}
	if err != nil {
		return err
	}
	if perm == 0 && !remove {
		if !snap.Exists {
			return fmt.Errorf("%s: no mode given for the new file", p.t.Path)
		}
		perm = snap.Mode
	}
	if !remove {
		perm = effectiveMode(perm)
	}
	p.snap, p.data, p.perm, p.remove = snap, data, perm, remove
	p.same = snap.Exists && !remove && data.Equal(snap.Data) // once: 50 MB to compare
	return nil
}

// RunEdit runs the target's EditContent, or its Edit, on snap.
func (t Target) RunEdit(snap Snapshot) (Content, fs.FileMode, bool, error) {
	if t.EditContent != nil {
		return t.EditContent(snap)
	}
	data, perm, remove, err := t.Edit(snap)
	return ContentOf(data), perm, remove, err
}

// unchanged reports that the edit keeps the file as it is.
func (p *plan) unchanged() bool {
	if p.remove {
		return !p.snap.Exists
	}
	return p.same && p.snap.Mode == p.perm
}

// rewrites reports that the edit writes new content (not only a mode, nor a removal).
func (p *plan) rewrites() bool {
	return !p.unchanged() && !p.remove && !p.same
}

// needsWrite reports that the edit creates, rewrites or removes the file (a mode
// change alone needs no write access to the directory).
func (p *plan) needsWrite() bool {
	return !p.unchanged() && (p.remove || !p.same)
}

// ReadSnapshot reads path as a transaction's Edit sees it; a missing file is an
// absent snapshot. A snapshot taken while the file stood still remembers its
// description, so that a later check that it is unchanged is cheap.
func ReadSnapshot(f FS, path string) (Snapshot, error) {
	before, err := f.Lstat(path)
	if IsNotExist(err) {
		return Snapshot{}, nil // nothing there: nothing to read (issue 31: one call, not two)
	} else if err != nil {
		return Snapshot{}, err
	}
	return readSnapshotAfter(f, path, before)
}

// ReadSnapshotChecked is [CheckNotSymlink] and then [ReadSnapshot] of path, with one
// look at it for both (issue 31: a transaction planning a client file looked at it
// twice in a row).
func ReadSnapshotChecked(f FS, path string) (Snapshot, error) {
	before, err := lstatChecked(f, path)
	if err != nil {
		return Snapshot{}, err
	}
	return readSnapshotAfter(f, path, before)
}

// readSnapshotAfter is ReadSnapshot with its first look at path already taken: before
// is what Lstat found there (nil: nothing). An earlier look only makes the snapshot's
// description stricter — the file must then have stood still from that look through
// the read — so it is as sound as ReadSnapshot's own.
func readSnapshotAfter(f FS, path string, before fs.FileInfo) (Snapshot, error) {
	if before == nil {
		return Snapshot{}, nil // nothing there: nothing to read
	}
	data, err := f.ReadFile(path)
	if IsNotExist(err) {
		return Snapshot{}, nil
	}
	if err != nil {
		return Snapshot{}, err
	}
	fi, err := f.Lstat(path)
	if IsNotExist(err) {
		// removed since it was read (another mcpwire's staged record, settled): it
		// is absent now, as a read a moment later would have found it
		return Snapshot{}, nil
	}
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

// Unchanged reports whether path still holds the snapshot s, as ReadSnapshot took it
// (see unchangedSince): cheap for a file that stood still while it was read.
func Unchanged(f FS, path string, s Snapshot) (bool, error) { return unchangedSince(f, path, s) }

// UnchangedChecked is CheckNotSymlink, then Unchanged, with one look at path: an error
// is the symlink's refusal (W5) or the look's; a compare of the bytes that fails
// reports the file changed, for a read of it to say why.
func UnchangedChecked(f FS, path string, s Snapshot) (bool, error) {
	fi, err := lstatChecked(f, path)
	if err != nil {
		return false, err
	}
	switch {
	case !s.Exists || fi == nil:
		return !s.Exists && fi == nil, nil // nothing there, then and now
	case s.stat != nil && sameStat(fi, s.stat):
		return true, nil
	}
	same, err := SameContent(f, path, s)
	return same && err == nil, nil
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
