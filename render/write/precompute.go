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
// transaction held its locks). Each edit reads its ownership records and its client
// file and computes its result into its memo (editMemo), keeping the read (preRead);
// the transaction's ordered plan, under the locks, then looks at the file and the
// records again and takes the memo only for the same bytes (fileEdit.read,
// fileEdit.compute): a file or a record another program changed in between is read
// and computed again, as before.
//
// An edit of a file mcpwire writes for other clients too is held until every request
// is prepared: the transaction may write the file for one of them as well, and then
// the later edit computes from the earlier one's output (linkSharedEdits, which
// forgets anything computed for an edit it links). Once the edits of the other files
// are done, the held ones are computed, a chain of edits of one file at a time.
//
// It runs only on a filesystem whose reads may run on several goroutines while
// nothing is written (fsys.ConcurrentReads: the real one, not the counting and
// fault-injecting fakes of tests, whose calls keep their order), and with a second
// core to run on.
type precompute struct {
	f      fsys.FS
	edits  chan *fileEdit
	done   sync.WaitGroup
	waited bool
}

// startPrecompute starts the worker, or returns nil (every method is a no-op on nil).
func startPrecompute(f fsys.FS, n int) *precompute {
	if n < 2 || runtime.GOMAXPROCS(0) < 2 || !fsys.ConcurrentReads(f) {
		return nil
	}
	p := &precompute{f: f, edits: make(chan *fileEdit, n)}
	p.done.Go(func() { p.work(p.edits) })
	return p
}

// work computes the edits of edits until there are no more.
func (p *precompute) work(edits chan *fileEdit) {
	for e := range edits {
		e.precompute(p.f)
	}
}

// add hands an edit prepared in full to the worker, unless its file is written for
// other clients too (held: wait computes it).
func (p *precompute) add(e *fileEdit) {
	if p != nil && e != nil && !e.held() {
		p.edits <- e
	}
}

// held reports an edit of a file mcpwire writes for other clients too.
func (e *fileEdit) held() bool { return len(e.Writers) > 0 }

// wait computes, beside the worker, the edits it has not begun yet; then, with
// nothing running beside, links the edits of shared files (linkSharedEdits) and
// computes the held ones and every chain of edits of one file, each chain whole on
// one core. It returns once everything has finished: the edits are the caller's
// again. Waiting again does nothing.
func (p *precompute) wait(preps []*Prepared) {
	if p == nil || p.waited {
		return
	}
	p.waited = true // a panic in the work below leaves the deferred wait nothing to do
	close(p.edits)
	p.work(p.edits)
	p.done.Wait()
	linkSharedEdits(preps)
	var chains []*fileEdit // the last edit of each
	for _, pr := range preps {
		if e := pr.edit; e != nil && e.after == nil && (e.held() || e.before != nil) {
			chains = append(chains, e)
		}
	}
	last := make(chan *fileEdit, len(chains))
	for _, e := range chains {
		last <- e
	}
	close(last)
	if len(chains) > 1 {
		p.done.Go(func() { p.work(last) })
	}
	p.work(last)
	p.done.Wait()
}

// precomputeHook, when set (tests), runs before each edit (or chain of edits of one
// file) is computed ahead; applyHook before each edit is computed (fileEdit.apply).
var (
	precomputeHook func(path string)
	applyHook      func()
)

// precompute reads the ownership records of the edits of e's file up to e (e alone,
// unless linkSharedEdits linked it), the client file, and computes them on it,
// keeping both for the ordered plan. Nothing is refused here: an error is memoized
// with the result it belongs to; a corrupt record is kept (loadErr) for PrepareAll to
// refuse in its request's turn; a read that failed is left for the ordered plan to
// meet. A mapped file another program cut short faults (internal/bigbuf): the fault
// is dropped with what was computed, and the ordered plan reads the file again.
func (e *fileEdit) precompute(f fsys.FS) {
	root := e.root()
	// a record or client file of 1 MiB or more is mapped: its faults are this
	// goroutine's to catch (SetPanicOnFault is a goroutine's own)
	if bigbuf.Guard(func() { e.precomputeChain(f, root) }) != nil {
		for x := root; x != e.after; x = x.after {
			x.memo, x.loadErr = nil, nil
		}
		e.preRead = nil
		e.setLoaded(false) // the ordered plan loads, reads and computes it all again
	}
}

// precomputeChain is precompute's work, from the chain's first edit root to e.
func (e *fileEdit) precomputeChain(f fsys.FS, root *fileEdit) {
	if precomputeHook != nil {
		precomputeHook(e.path)
	}
	for x := root; x != e.after; x = x.after {
		if !x.own.Loaded() {
			if x.loadErr = x.own.Load(); x.loadErr != nil {
				e.setLoaded(false)
				return // a corrupt record: PrepareAll refuses it in its request's turn
			}
			x.loaded = true // compute does not read it again
		}
	}
	cur, err := fsys.ReadSnapshotChecked(f, e.path)
	if err != nil {
		e.setLoaded(false) // the ordered plan meets the error, and loads the records again
		return
	}
	e.computeChain(cur)
	e.preRead = &cur
}

// forgetPrecomputed drops what precompute computed for the edit alone: it is one of
// several edits of a shared file, computed from the earlier one's output.
func (e *fileEdit) forgetPrecomputed() {
	e.memo, e.preRead = nil, nil
}
