package fsys

import (
	"errors"
	"sync"
)

// ErrInterrupted is wrapped by the error of a write or transaction that [Interrupt.Stop]
// stopped.
var ErrInterrupted = errors.New("interrupted")

// Interrupt lets a signal stop mcpwire's writes the way a failure would (issue 11):
// the write under way removes its temporary file, the transaction under way undoes
// its finished writes (its rollback is never interrupted), and no write starts
// afterwards. Writes check it between their steps: before and while the temporary
// file is written, before the rename, before each file of a transaction and while
// waiting for a lock. A nil *Interrupt never stops anything.
type Interrupt struct {
	mu      sync.Mutex
	err     error
	active  int // writes and transactions under way
	holding int // rollbacks under way: checks pass
	arm     func()
	disarm  func()
}

// NewInterrupt returns an Interrupt. arm runs when a write begins while none is under
// way and disarm when the last one ends, so that a signal handler is installed only
// while something is being written (either may be nil). They run with the
// Interrupt's lock held and must not call its methods.
func NewInterrupt(arm, disarm func()) *Interrupt {
	return &Interrupt{arm: arm, disarm: disarm}
}

// Stop makes the writes under way fail with err (which should wrap [ErrInterrupted]) at
// their next step, and every later write fail at once. It reports whether a write was
// under way; if not, nothing needs undoing and the caller may exit at once. Only the
// first call counts.
func (i *Interrupt) Stop(err error) (busy bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.err == nil {
		i.err = err
	}
	return i.active > 0
}

// Err returns the error given to Stop, or nil.
func (i *Interrupt) Err() error {
	if i == nil {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.err
}

// begin marks a write as under way, unless Stop was called (a rollback's writes
// begin all the same).
func (i *Interrupt) begin() error {
	if i == nil {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.err != nil && i.holding == 0 {
		return i.err
	}
	if i.active == 0 && i.arm != nil {
		i.arm()
	}
	i.active++
	return nil
}

// end marks a write begun by begin as finished.
func (i *Interrupt) end() {
	if i == nil {
		return
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.active--
	if i.active == 0 && i.disarm != nil {
		i.disarm()
	}
}

// check returns the error given to Stop, except while a rollback runs.
func (i *Interrupt) check() error {
	if i == nil {
		return nil
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.holding > 0 {
		return nil
	}
	return i.err
}

// hold makes check pass until the returned function is called: a rollback must
// finish whatever happens.
func (i *Interrupt) hold() (release func()) {
	if i == nil {
		return func() {}
	}
	i.mu.Lock()
	i.holding++
	i.mu.Unlock()
	return func() {
		i.mu.Lock()
		i.holding--
		i.mu.Unlock()
	}
}

// interruptible is implemented by filesystems a signal can stop ([OS] made by
// [NewOSWith]).
type interruptible interface {
	interrupt() *Interrupt
}

// interruptOf returns f's Interrupt, or nil.
func interruptOf(f FS) *Interrupt {
	if i, ok := f.(interruptible); ok {
		return i.interrupt()
	}
	return nil
}
