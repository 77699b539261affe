package fsys

import (
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// dependent returns two targets: a appends "x" to its file and remembers what it read;
// b holds "record of " + what a read, and is removed (or stays absent) while a reads
// "a\n". b's Edit depends on a's, as an ownership record depends on its client file.
func dependent(t *testing.T, a, b string, check func() error) ([]Target, *int) {
	t.Helper()
	seen := ""
	bCalls := 0
	return []Target{
		{Path: a, Check: check, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			seen = string(cur.Data)
			return append(slices.Clone(cur.Data), "x\n"...), 0o600, false, nil
		}},
		{Path: b, DirPerm: 0o700, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			bCalls++
			if seen == "a\n" {
				if cur.Exists {
					return cur.Data, 0, false, nil
				}
				return nil, 0, true, nil
			}
			return []byte("record of " + seen), 0o600, false, nil
		}},
	}, &bCalls
}

// TestApplyEditsUnchangedLaterTargetAgain: a later target that needed no change at
// plan time is edited again under the lock when an earlier target was, and written
// when it now needs a change.
//
// spec: W7 W8
func TestApplyEditsUnchangedLaterTargetAgain(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	writeTestFile(t, a, "a\n", 0o600)
	writeTestFile(t, b, "record of a\n", 0o600)
	targets, bCalls := dependent(t, a, b, nil)
	edit := targets[0].Edit
	aCalls := 0
	targets[0].Edit = func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
		aCalls++
		if aCalls == 1 { // another process changes a after the plan read
			writeTestFile(t, a, "a changed\n", 0o600)
		}
		return edit(cur)
	}
	// b needs no change at plan time: it already holds what a's plan-time edit implies
	res, err := Apply(OS{}, targets)
	if err != nil {
		t.Fatal(err)
	}
	if got := fileState(t, a); got != state(0o600, "a changed\nx\n") {
		t.Errorf("a = %q", got)
	}
	if got := fileState(t, b); got != state(0o600, "record of a changed\n") {
		t.Errorf("b = %q: the later target, unchanged at plan time, was not edited again", got)
	}
	if *bCalls != 2 || !res[1].Changed {
		t.Errorf("b edited %d times (want 2), changed %v", *bCalls, res[1].Changed)
	}
	noTemp(t, dir)
}
