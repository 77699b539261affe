package write

import (
	"runtime"
	"sync"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// precompute computes the edits of a PrepareAll on a second core while the later
// requests are prepared (issue 31: an up-to-date injection into every client spent
// two fifths of its time computing the edits one after the other once the
// transaction held its locks). Each edit reads its client file and computes its
// result into its memo (editMemo) and keeps the read (preRead); the transaction's
// ordered plan, under the locks, then looks at the file and the records again and
// takes the memo only for the same bytes (fileEdit.read, fileEdit.compute): a file or
// a record another program changed in between is read and computed again, as before.
// An edit that turns out to share its file with another (linkSharedEdits) forgets
// what was computed here: it computes from the earlier edit's output.
//
// It runs only on a filesystem whose reads may run on several goroutines while
// nothing is written (fsys.ConcurrentReads: the real one, not the counting and
// fault-injecting fakes of tests, whose calls keep their order), and with a second
// core to run on.
type precompute struct {
	edits chan *fileEdit
	done  sync.WaitGroup
}

// startPrecompute starts the worker, or returns nil (every method is a no-op on nil).
func startPrecompute(f fsys.FS, n int) *precompute {
	if n < 2 || runtime.GOMAXPROCS(0) < 2 || !fsys.ConcurrentReads(f) {
		return nil
	}
	p := &precompute{edits: make(chan *fileEdit, n)}
	p.done.Go(func() {
		for e := range p.edits {
			e.precompute(f)
		}
	})
	return p
}

// add hands an edit prepared in full to the worker.
func (p *precompute) add(e *fileEdit) {
	if p != nil && e != nil {
		p.edits <- e
	}
}

// wait computes, beside the worker, the edits it has not begun yet, and returns once
// both have finished: the edits are the caller's again. Waiting again does nothing.
func (p *precompute) wait(f fsys.FS) {
	if p == nil || p.edits == nil {
		return
	}
	close(p.edits)
	for e := range p.edits {
		e.precompute(f)
	}
	p.done.Wait()
	p.edits = nil
}

// precomputeHook, when set (tests), runs before each edit is computed ahead; applyHook
// before each edit is computed (fileEdit.apply).
var (
	precomputeHook func(path string)
	applyHook      func()
)

// precompute reads the client file and computes the edit on it, keeping both for the
// ordered plan. Nothing is refused here: an error is memoized with the result it
// belongs to, or (a read that failed) left for the ordered plan to meet. A mapped
// file another program cut short faults (internal/bigbuf): the fault is dropped with
// what was computed, and the ordered plan reads the file again.
func (e *fileEdit) precompute(f fsys.FS) {
	if precomputeHook != nil {
		precomputeHook(e.path)
	}
	if !e.own.Loaded() {
		if e.loadErr = e.own.Load(); e.loadErr != nil {
			return // a corrupt record: PrepareAll refuses it in its request's turn
		}
		e.loaded = true // compute does not read it again
	}
	if len(e.Writers) > 0 {
		// a file mcpwire writes for other clients too: when the transaction writes it
		// for one of them as well, the later edit computes from the earlier one's
		// output (linkSharedEdits), and this one would be computed for nothing
		e.loaded = false
		return
	}
	cur, err := fsys.ReadSnapshotChecked(f, e.path)
	if err != nil {
		e.loaded = false // the ordered plan meets the error, and loads the records again
		return
	}
	if bigbuf.Guard(func() { e.compute(cur) }) != nil {
		e.memo = nil
		return
	}
	e.preRead = &cur
}

// forgetPrecomputed drops what precompute computed for the edit alone: it is one of
// several edits of a shared file, computed from the earlier one's output.
func (e *fileEdit) forgetPrecomputed() {
	e.memo, e.preRead = nil, nil
}
