package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/winetest"
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
	f := &Faulty{}
	res, err := Apply(f, []Target{{Path: p, Edit: editSet("same\n", 0o640)}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Lstat(p)
	if !os.SameFile(before, after) || !after.ModTime().Equal(old) {
		t.Errorf("file was touched: inode same=%v mtime %v", os.SameFile(before, after), after.ModTime())
	}
	if len(f.Calls()) != 0 {
		t.Errorf("calls = %q, want none (not even a lock)", f.Calls())
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

// spec: W6
func TestApplyModeOnlyIsChmod(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix modes")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "same\n", 0o644)
	before, _ := os.Lstat(p)
	f := &Faulty{}
	res, err := Apply(f, []Target{{Path: p, Edit: editSet("same\n", 0o600)}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Lstat(p)
	if !os.SameFile(before, after) || fileState(t, p) != state(0o600, "same\n") {
		t.Errorf("got %q, same inode %v", fileState(t, p), os.SameFile(before, after))
	}
	if want := []string{"lock " + p, "chmod " + p + " 0600"}; !reflect.DeepEqual(f.Calls(), want) {
		t.Errorf("calls = %q, want %q", f.Calls(), want)
	}
	if !res[0].Changed {
		t.Error("Changed = false")
	}
	noTemp(t, dir)
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

// failedWrite applies the rollbackFixture targets with the nth write failing at stage:
// the transaction fails naming the file, every file is as before, and the directory
// holds what it held, plus the directories created (which stay).
func failedWrite(t *testing.T, dir string, targets []Target, before map[string]string, n int, stage string) {
	t.Helper()
	names0 := listTree(t, dir)
	res, err := Apply(&Faulty{FailWrite: n, WriteStage: stage}, targets)
	if !errors.Is(err, ErrInjected) || res != nil {
		t.Fatalf("Apply = %v, %v; want the injected fault", res, err)
	}
	if !strings.HasPrefix(err.Error(), "write "+targets[n-1].Path+": ") {
		t.Errorf("error %q does not name the file", err)
	}
	for p, want := range before {
		if got := fileState(t, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if got, want := listTree(t, dir), keptDirs(names0, "a/", "a/b/"); !reflect.DeepEqual(got, want) {
		t.Errorf("dir holds %q, want %q", got, want)
	}
}

// spec: W7
func TestApplyRollback(t *testing.T) {
	for _, stage := range []string{StageWrite, StageRename} {
		for n := 1; n <= 3; n++ {
			t.Run(fmt.Sprintf("%s/%d", stage, n), func(t *testing.T) {
				dir, targets, before := rollbackFixture(t)
				failedWrite(t, dir, targets, before, n, stage)
			})
		}
	}
}

// spec: W7
func TestApplySuccess(t *testing.T) {
	dir, targets, _ := rollbackFixture(t)
	res, err := Apply(&Faulty{}, targets)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		targets[0].Path: state(0o644, "one\n+1\n"),
		targets[1].Path: state(0o600, "two\n"),
		targets[2].Path: state(0o640, "three\n+3\n"),
	}
	for p, w := range want {
		if got := fileState(t, p); got != w {
			t.Errorf("%s = %q, want %q", p, got, w)
		}
	}
	if m := fileMode(t, filepath.Join(dir, "a")); m != effectiveDirMode(0o700) {
		t.Errorf("created dir mode %s", octal(m))
	}
	for i, r := range res {
		if r.Path != targets[i].Path || !r.Changed || r.Removed {
			t.Errorf("result %d = %+v", i, r)
		}
	}
	noTemp(t, dir)
}

// spec: W7
func TestApplyRollbackRemoveAndChmod(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone.json")
	chm := filepath.Join(dir, "chmod.json")
	last := filepath.Join(dir, "last.json")
	writeTestFile(t, gone, "keep me\n", 0o640)
	writeTestFile(t, chm, "c\n", 0o644)
	names0 := listTree(t, dir)
	targets := []Target{
		{Path: gone, Edit: editRemove},
		{Path: chm, Edit: editSet("c\n", 0o600)},
		{Path: last, Edit: editSet("x", 0o600)},
	}
	_, err := Apply(&Faulty{FailWrite: 1, WriteStage: StageRename}, targets)
	if !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v", err)
	}
	if got := fileState(t, gone); got != state(0o640, "keep me\n") {
		t.Errorf("removed file = %q", got)
	}
	if got := fileState(t, chm); got != state(0o644, "c\n") {
		t.Errorf("chmod file = %q", got)
	}
	if got := listTree(t, dir); !reflect.DeepEqual(got, names0) {
		t.Errorf("dir holds %q", got)
	}

	res, err := Apply(OS{}, targets)
	if err != nil {
		t.Fatal(err)
	}
	if fileState(t, gone) != "absent" || !res[0].Removed || res[0].New != nil {
		t.Errorf("remove: %q %+v", fileState(t, gone), res[0])
	}
}

// spec: W7
func TestApplyRollbackErrorsAreJoined(t *testing.T) {
	dir, targets, _ := rollbackFixture(t)
	// The third write fails; undoing the second (a new file) fails too.
	f := &Faulty{FailWrite: 3, FailRemove: 1}
	_, err := Apply(f, targets)
	if !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	two := targets[1].Path
	if !strings.Contains(msg, "write "+targets[2].Path+": injected fault") ||
		!strings.Contains(msg, "rollback "+two+": remove "+two+": injected fault") {
		t.Errorf("error = %q", msg)
	}
	if got := fileState(t, targets[0].Path); got != state(0o644, "one\n") {
		t.Errorf("first file not restored: %q", got)
	}
	if got := fileState(t, two); got != state(0o600, "two\n") {
		t.Errorf("second file = %q (its removal failed)", got)
	}
	noTemp(t, dir)
}

// spec: W7
func TestApplyPlanFailureWritesNothing(t *testing.T) {
	errEdit := errors.New("x.json: malformed")
	tests := []struct {
		name    string
		target  func(t *testing.T, dir string) Target
		wantErr string
	}{
		{"edit error", func(t *testing.T, dir string) Target {
			return Target{Path: filepath.Join(dir, "x.json"), Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) { return nil, 0, false, errEdit }}
		}, "x.json: malformed"},
		{"check error", func(t *testing.T, dir string) Target {
			return Target{Path: filepath.Join(dir, "x.json"), Edit: editSet("x", 0o600), Check: func() error { return errors.New("checked") }}
		}, "checked"},
		{"symlink", func(t *testing.T, dir string) Target {
			p := filepath.Join(dir, "link.json")
			winetest.Skip(t, winetest.Symlinks)
			if err := os.Symlink("target", p); err != nil {
				t.Skip(err)
			}
			return Target{Path: p, Edit: editSet("x", 0o600)}
		}, "DIR/link.json: is a symlink"},
		{"missing parent", func(t *testing.T, dir string) Target {
			return Target{Path: filepath.Join(dir, "no", "x.json"), Edit: editSet("x", 0o600)}
		}, "DIR/no/x.json: directory DIR/no does not exist"},
		{"no mode", func(t *testing.T, dir string) Target {
			return Target{Path: filepath.Join(dir, "x.json"), Edit: editSet("x", 0)}
		}, "DIR/x.json: no mode given for the new file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			first := Target{Path: filepath.Join(dir, "sub", "first.json"), Edit: editSet("1", 0o600), DirPerm: 0o700}
			last := tt.target(t, dir)
			names0 := listTree(t, dir)
			f := &Faulty{}
			_, err := Apply(f, []Target{first, last})
			if want := strings.ReplaceAll(filepath.FromSlash(tt.wantErr), "DIR", dir); err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
			if len(f.Calls()) != 0 {
				t.Errorf("calls = %q, want none", f.Calls())
			}
			if got := listTree(t, dir); !reflect.DeepEqual(got, names0) {
				t.Errorf("dir holds %q", got)
			}
		})
	}
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

// spec: W7
func TestApplyRollbackAfterMkdirOrChmodFailure(t *testing.T) {
	tests := []struct {
		name    string
		f       *Faulty
		wantErr string
		kept    []string
	}{
		{"second mkdir fails", &Faulty{FailMkdir: 2}, "mkdir DIR/a/b: injected fault", []string{"a/"}},
		{"chmod fails", &Faulty{FailChmod: 1}, "chmod DIR/c.json: injected fault", []string{"a/", "a/b/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, targets, before := rollbackFixture(t)
			chm := filepath.Join(dir, "c.json")
			writeTestFile(t, chm, "c\n", 0o644)
			before[chm] = fileState(t, chm)
			if len(tt.kept) == 1 {
				delete(before, filepath.Join(dir, "a", "b"))
			}
			// 0444: a mode change on Windows too (read-only), where 0600 is 0644.
			targets = append(targets, Target{Path: chm, Edit: editSet("c\n", 0o444)})
			names0 := listTree(t, dir)
			_, err := Apply(tt.f, targets)
			if want := strings.ReplaceAll(filepath.FromSlash(tt.wantErr), "DIR", dir); err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
			for p, want := range before {
				if got := fileState(t, p); got != want {
					t.Errorf("%s = %q, want %q", p, got, want)
				}
			}
			if got, want := listTree(t, dir), keptDirs(names0, tt.kept...); !reflect.DeepEqual(got, want) {
				t.Errorf("dir holds %q, want %q", got, want)
			}
		})
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
