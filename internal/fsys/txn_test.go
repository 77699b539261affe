package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// editSet returns an Edit that writes data with perm.
func editSet(data string, perm fs.FileMode) func(Snapshot) ([]byte, fs.FileMode, bool, error) {
	return func(Snapshot) ([]byte, fs.FileMode, bool, error) { return []byte(data), perm, false, nil }
}

// editAppend returns an Edit that appends line to the current content.
func editAppend(line string, perm fs.FileMode) func(Snapshot) ([]byte, fs.FileMode, bool, error) {
	return func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
		return append(append([]byte(nil), cur.Data...), line+"\n"...), perm, false, nil
	}
}

func editRemove(Snapshot) ([]byte, fs.FileMode, bool, error) { return nil, 0, true, nil }

// spec: W6
func TestApplyNoWriteWhenUnchanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "same\n", 0o640)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Lstat(p)
	var steps []string
	f := NewOSWith(OSOptions{AfterStep: func(stage, name string) { steps = append(steps, stage+" "+name) }})
	res, err := Apply(f, []Target{{Path: p, Edit: editSet("same\n", 0o640)}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Lstat(p)
	if !os.SameFile(before, after) || !after.ModTime().Equal(old) {
		t.Errorf("file was touched: inode same=%v mtime %v", os.SameFile(before, after), after.ModTime())
	}
	if len(steps) != 0 {
		t.Errorf("steps = %q, want none (not even a lock)", steps)
	}
	m := effectiveMode(0o640)
	want := []Result{{Path: p, Old: Snapshot{Exists: true, Data: []byte("same\n"), Mode: m}, New: []byte("same\n"), Mode: m}}
	for i := range res {
		res[i].Old.stat = nil // the file description is internal
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("results = %+v", res)
	}
}

// spec: W8
func TestApplyRedoesEditAfterConcurrentChange(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "base\n", 0o600)
	calls := 0
	edit := func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
		calls++
		switch calls {
		case 1: // after the plan read: the lock phase sees the change and edits again
			writeTestFile(t, p, "base\nother writer\n", 0o600)
		case 2: // under the lock, before the rename: the write is redone (W8)
			writeTestFile(t, p, "base\nother writer\nsecond\n", 0o600)
		}
		return editAppend("mine", 0o600)(cur)
	}
	res, err := Apply(OS{}, []Target{{Path: p, Edit: edit}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fileState(t, p); got != state(0o600, "base\nother writer\nsecond\nmine\n") {
		t.Errorf("file = %q, want the other writer's line kept", got)
	}
	if calls != 3 {
		t.Errorf("Edit ran %d times, want 3 (plan, lock, retry)", calls)
	}
	if string(res[0].Old.Data) != "base\nother writer\nsecond\n" || string(res[0].New) != "base\nother writer\nsecond\nmine\n" {
		t.Errorf("result = %+v", res[0])
	}
	noTemp(t, dir)
}

// spec: W8
func TestApplyGivesUpAfterRetries(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "0\n", 0o600)
	calls := 0
	edit := func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
		calls++
		writeTestFile(t, p, fmt.Sprintf("other %d\n", calls), 0o600)
		return []byte("mine\n"), 0o600, false, nil
	}
	_, err := Apply(OS{}, []Target{{Path: p, Edit: edit}})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if want := fmt.Sprintf(state(0o600, "other %d\n"), calls); fileState(t, p) != want {
		t.Errorf("file = %q, want %q", fileState(t, p), want)
	}
	if calls != 2+maxRetries {
		t.Errorf("Edit ran %d times", calls)
	}
	noTemp(t, dir)
}

// rollbackFixture is three targets: an existing 0644 file, a new file in two new
// directories, an existing 0600 file whose mode changes too. before is every file's
// state after a rollback: as it was, except that the new directories stay (a
// rollback never removes a directory: Apply).
func rollbackFixture(t *testing.T) (dir string, targets []Target, before map[string]string) {
	t.Helper()
	dir = t.TempDir()
	one := filepath.Join(dir, ".mcp.json")
	two := filepath.Join(dir, "a", "b", "settings.json")
	three := filepath.Join(dir, "record.json")
	writeTestFile(t, one, "one\n", 0o644)
	writeTestFile(t, three, "three\n", 0o600)
	targets = []Target{
		{Path: one, Edit: editAppend("+1", 0o644)},
		{Path: two, Edit: editSet("two\n", 0o600), DirPerm: 0o700},
		{Path: three, Edit: editAppend("+3", 0o640)},
	}
	before = map[string]string{one: fileState(t, one), two: "absent", three: fileState(t, three), filepath.Join(dir, "a", "b"): dirState(0o700)}
	return dir, targets, before
}

// keptDirs is the listing of a rollbackFixture directory after a rollback: names0,
// the listing before, plus the created directories, which stay.
func keptDirs(names0 []string, dirs ...string) []string {
	out := append(slices.Clone(names0), dirs...)
	slices.Sort(out)
	return out
}

// spec: W5
func TestApplyRepeatsCheckBeforeRename(t *testing.T) {
	_, targets, before := rollbackFixture(t)
	calls := 0
	targets[2].Check = func() error {
		calls++
		if calls == 2 {
			return errors.New("parent became a symlink")
		}
		return nil
	}
	_, err := Apply(OS{}, targets)
	if err == nil || err.Error() != "write "+targets[2].Path+": parent became a symlink" {
		t.Fatalf("err = %v", err)
	}
	for p, want := range before {
		if got := fileState(t, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
}

// spec: W9
func TestApplyDryRun(t *testing.T) {
	dir, targets, before := rollbackFixture(t)
	names0 := listTree(t, dir)
	d := NewDryRun(OS{})
	res, err := Apply(d, targets)
	if err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dir); !reflect.DeepEqual(got, names0) {
		t.Errorf("dir holds %q", got)
	}
	delete(before, filepath.Join(dir, "a", "b")) // a dry run creates no directory
	for p, want := range before {
		if got := fileState(t, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if len(res) != 3 || string(res[1].New) != "two\n" {
		t.Errorf("results = %+v", res)
	}
	var ops []string
	for _, in := range d.Intents() {
		ops = append(ops, in.Op+" "+filepath.ToSlash(strings.TrimPrefix(in.Path, dir)))
	}
	want := []string{"mkdir /a", "mkdir /a/b", "write /.mcp.json", "write /a/b/settings.json", "write /record.json"}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("intents = %q, want %q", ops, want)
	}
}

// spec: W7 W8
func TestApplyEditsLaterTargetsAgainAfterARedo(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	writeTestFile(t, a, "a\n", 0o600)
	aCalls, bCalls := 0, 0
	seen := ""
	targets := []Target{
		{Path: a, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			aCalls++
			if aCalls == 1 {
				writeTestFile(t, a, "a changed\n", 0o600)
			}
			seen = string(cur.Data) // what a later target depends on
			return append(cur.Data, "x\n"...), 0o600, false, nil
		}},
		{Path: b, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
			bCalls++
			return []byte("record of " + seen), 0o600, false, nil
		}},
	}
	if _, err := Apply(OS{}, targets); err != nil {
		t.Fatal(err)
	}
	if aCalls != 2 || bCalls != 2 {
		t.Errorf("edits: a %d, b %d; want 2 and 2 (plan, then again under the lock)", aCalls, bCalls)
	}
	if got := fileState(t, b); got != state(0o600, "record of a changed\n") {
		t.Errorf("b = %q: the later target was not edited again", got)
	}
	// An unchanged file is not edited again under the lock.
	calls := 0
	if _, err := Apply(OS{}, []Target{{Path: a, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
		calls++
		return []byte("new\n"), 0o600, false, nil
	}}}); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("Edit ran %d times for a file nobody changed, want 1", calls)
	}
}
