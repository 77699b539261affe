package fsys

import (
	"errors"
	"fmt"
	"slices"
)

// RollbackError is the part of a transaction's error (found with errors.As) saying
// that its rollback did not complete: undoing some finished write failed — most
// often because another program changed the file since (docs/writes.md "What
// mcpwire cannot prevent"), so that mcpwire's write stays in it. Errs are the failed
// undos, each "rollback <path>: …". A caller that keeps state describing the
// transaction's writes (a staged ownership record) must keep it then: the writes may
// still be on disk.
type RollbackError struct {
	Errs []error
}

// Error lists the failed undos, one a line.
func (e *RollbackError) Error() string { return errors.Join(e.Errs...).Error() }

// Unwrap returns the failed undos.
func (e *RollbackError) Unwrap() []error { return e.Errs }

// rollbackError is the RollbackError of errs, or nil when there are none.
func rollbackError(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return &RollbackError{Errs: errs}
}

// rollback undoes the finished writes in reverse and releases the locks; it returns
// what went wrong: a [RollbackError] when an undo failed, and the error of releasing
// the locks. Created directories stay (see Apply). An Interrupt does not stop it.
func (tx *txn) rollback() []error {
	var errs []error
	if err := rollbackError(tx.undoDone()); err != nil {
		errs = append(errs, err)
	}
	if err := tx.release(); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// undoDone undoes the finished writes in reverse, whatever the Interrupt says, and
// forgets them; it returns what went wrong. When a write of a batch cannot be undone
// (its file stays as the transaction wrote it), the writes of the earlier batches
// stay too, undone or not: a batch is on disk only with every batch before it
// (Target.Batch), as after a crash, so that what they say of the later batches (a
// staged ownership record, which settles the client file it stages) is still there.
func (tx *txn) undoDone() []error {
	defer tx.intr.hold()()
	var errs []error
	kept := 0 // the lowest batch a write of which could not be undone
	for _, u := range slices.Backward(tx.done) {
		if kept > 0 && u.batch < kept {
			continue
		}
		if err := tx.undo(u); err != nil {
			errs = append(errs, fmt.Errorf("rollback %s: %w", u.path, err))
			if u.batch > 0 && (kept == 0 || u.batch < kept) {
				kept = u.batch
			}
		}
	}
	tx.done = nil
	return errs
}

func (tx *txn) undo(u undo) error {
	switch {
	case u.chmod:
		return tx.f.Chmod(u.path, u.old.Mode)
	case u.old.Exists:
		expect := &Snapshot{Exists: !u.removed, Data: u.wrote.Bytes()}
		return tx.f.WriteFile(u.path, u.old.Data, u.old.Mode, &WriteOptions{Expect: expect})
	case u.from != "":
		// the file it was renamed from first (a staged record, which settles the
		// client file if undoing that fails), then the file, as for any new file
		if err := tx.f.WriteFile(u.from, u.wrote.Bytes(), u.perm, &WriteOptions{Expect: &Snapshot{}}); err != nil {
			return err
		}
	}
	return tx.removeChecked(u.path, Snapshot{Exists: true, Data: u.wrote.Bytes()}, nil)
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
