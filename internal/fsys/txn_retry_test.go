package fsys

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
)

// TestApplyRetriesAnEditsErrChangedAtPlanTime: an Edit that reports ErrChanged while
// the transaction is planned (another process wrote a file it depends on between two
// Edits: issue 11 defect 6, an ownership record) makes Apply plan again, as it redoes
// a client file's edit (W8), instead of failing.
//
// spec: W8
func TestApplyRetriesAnEditsErrChangedAtPlanTime(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	calls := 0
	res, err := Apply(OS{}, []Target{
		{Path: a, Edit: editSet("a", 0o600)},
		{Path: b, Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) {
			if calls++; calls <= 2 {
				return nil, 0, false, fmt.Errorf("%s: %w", b, ErrChanged)
			}
			return []byte("b"), 0o600, false, nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if fileState(t, a) != state(0o600, "a") || fileState(t, b) != state(0o600, "b") || len(res) != 2 || calls != 3 {
		t.Errorf("a %q, b %q, %d Edits of b", fileState(t, a), fileState(t, b), calls)
	}
	noTemp(t, dir)
}
