package fsys

import (
	"errors"
	"fmt"
	"slices"
)

// rollback undoes the finished writes in reverse and releases the locks; it returns
// what went wrong. Created directories stay (see Apply). An Interrupt does not stop
// it.
func (tx *txn) rollback() []error {
	errs := tx.undoDone()
	if err := tx.release(); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// undoDone undoes the finished writes in reverse, whatever the Interrupt says, and
// forgets them; it returns what went wrong.
func (tx *txn) undoDone() []error {
	defer tx.intr.hold()()
	var errs []error
	for _, u := range slices.Backward(tx.done) {
		if err := tx.undo(u); err != nil {
			errs = append(errs, fmt.Errorf("rollback %s: %w", u.path, err))
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
