package fsys

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
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

// TestApplyRetriesAnEditsErrChangedAfterAWrite: the second target's file changes
// while the first is written, and its Edit, run again, reports ErrChanged (what it
// depends on changed too). The first write is undone and the transaction runs again
// from fresh Edits (W8), and succeeds.
//
// spec: W8 W7
func TestApplyRetriesAnEditsErrChangedAfterAWrite(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	writeTestFile(t, a, "a0", 0o600)
	writeTestFile(t, b, "b0", 0o600)
	checks, edits := 0, 0
	f := &Faulty{}
	_, err := Apply(f, []Target{
		{Path: a, Edit: editAppend("+a", 0o600)},
		{Path: b, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			if edits++; edits == 2 {
				return nil, 0, false, fmt.Errorf("%s: %w", b, ErrChanged)
			}
			return append(cur.Data, "+b"...), 0o600, false, nil
		}, Check: func() error {
			if checks++; checks == 2 { // just before b's first rename: another process writes b
				writeTestFile(t, b, "b1", 0o600)
			}
			return nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if fileState(t, a) != state(0o600, "a0+a\n") || fileState(t, b) != state(0o600, "b1+b") {
		t.Errorf("a %q, b %q", fileState(t, a), fileState(t, b))
	}
	var writes []string
	for _, c := range f.Calls() {
		if rest, ok := strings.CutPrefix(c, "write "); ok {
			writes = append(writes, filepath.Base(strings.Fields(rest)[0]))
		}
	}
	if want := []string{"a.json", "b.json", "a.json", "a.json", "b.json"}; !slices.Equal(writes, want) {
		t.Errorf("writes %q, want %q (a, b changed under it, a undone, a and b again)", writes, want)
	}
	noTemp(t, dir)
}
