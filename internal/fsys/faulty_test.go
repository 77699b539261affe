package fsys_test

// The transactions of this file run on fsystest.Faulty, the real filesystem with
// injected failures, which records every call: an external test, as fsystest
// imports fsys.

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

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/internal/winetest"
)

// TestGuardedTargetTakesItsGuardsLock: a target with a Guard is written under its
// guard's lock, taken once for both, and no lock file of its own is ever created
// (issue 13: one file creation fewer per staged record).
//
// spec: W8
func TestGuardedTargetTakesItsGuardsLock(t *testing.T) {
	dir := t.TempDir()
	var locked []string
	o := fsys.NewOSWith(fsys.OSOptions{AfterStep: func(stage, name string) {
		if stage == "lock" {
			locked = append(locked, filepath.Base(name))
		}
	}})
	if _, err := fsys.Apply(o, fsys.GuardedTargets(dir, "{}")); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(locked, []string{"r.json"}) {
		t.Errorf("locked %q, want only the guard r.json", locked)
	}
	f := &fsystest.Faulty{}
	if _, err := fsys.Apply(f, fsys.GuardedTargets(dir, "{\"a\":1}")); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Calls() {
		if c == "lock "+filepath.Join(dir, "r.json.staged") {
			t.Errorf("the staged copy was locked on its own: %q", f.Calls())
		}
	}
	fsys.NoTemp(t, dir)
}

// TestApplyLocksTargetWithLeftovers: a target that needs no change is locked all the
// same when an interrupted run left a temporary or lock file of it, so that they go
// (issue 11); without leftovers it is not locked.
func TestApplyLocksTargetWithLeftovers(t *testing.T) {
	for _, left := range []string{"", ".f.json.mcpwire-abc.tmp", "f.json" + fsys.LockSuffix} {
		t.Run(left, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.json")
			fsys.WriteTestFile(t, p, "same", 0o600)
			if left != "" {
				fsys.WriteTestFile(t, filepath.Join(dir, left), "partial", 0o600)
			}
			f := &fsystest.Faulty{}
			res, err := fsys.Apply(f, []fsys.Target{{Path: p, Edit: fsys.EditSet("same", 0o600)}})
			if err != nil || res[0].Changed {
				t.Fatalf("Apply = %+v, %v", res, err)
			}
			var want []string
			if left != "" {
				want = []string{"lock " + p}
			}
			if got := f.Calls(); !reflect.DeepEqual(got, want) {
				t.Errorf("calls %q, want %q", got, want)
			}
			if got := fsys.ListTree(t, dir); !reflect.DeepEqual(got, []string{"f.json"}) {
				t.Errorf("dir holds %q", got)
			}
		})
	}
}

// TestApplyLocksLaterTargetAfterAWriteRedo: a's write meets another writer's change
// (W8) and is redone; b, absent and not needing to exist until then, must now be
// created: it gets its directory and its lock, and is written.
//
// spec: W7 W8
func TestApplyLocksLaterTargetAfterAWriteRedo(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "rec", "b.json")
	fsys.WriteTestFile(t, a, "a\n", 0o600)
	checks := 0
	check := func() error {
		checks++
		if checks == 2 { // just before a's rename: another writer
			fsys.WriteTestFile(t, a, "a changed\n", 0o600)
		}
		return nil
	}
	targets, _ := fsys.Dependent(t, a, b, check)
	f := &fsystest.Faulty{}
	res, err := fsys.Apply(f, targets)
	if err != nil {
		t.Fatal(err)
	}
	if got := fsys.FileState(t, a); got != fsys.State(0o600, "a changed\nx\n") {
		t.Errorf("a = %q", got)
	}
	if got := fsys.FileState(t, b); got != fsys.State(0o600, "record of a changed\n") {
		t.Errorf("b = %q: the later target was not written after the redo", got)
	}
	if !res[1].Changed {
		t.Errorf("b not reported changed")
	}
	calls := f.Calls()
	if !slices.Contains(calls, "lock "+b) || !slices.Contains(calls, "mkdir "+filepath.Dir(b)+" 0700") {
		t.Errorf("calls = %q: want b's directory created and b locked", calls)
	}
	fsys.NoTemp(t, dir)
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
	fsys.WriteTestFile(t, a, "a0", 0o600)
	fsys.WriteTestFile(t, b, "b0", 0o600)
	checks, edits := 0, 0
	f := &fsystest.Faulty{}
	_, err := fsys.Apply(f, []fsys.Target{
		{Path: a, Edit: fsys.EditAppend("+a", 0o600)},
		{Path: b, Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if edits++; edits == 2 {
				return nil, 0, false, fmt.Errorf("%s: %w", b, fsys.ErrChanged)
			}
			return append(cur.Data, "+b"...), 0o600, false, nil
		}, Check: func() error {
			if checks++; checks == 2 { // just before b's first rename: another process writes b
				fsys.WriteTestFile(t, b, "b1", 0o600)
			}
			return nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if fsys.FileState(t, a) != fsys.State(0o600, "a0+a\n") || fsys.FileState(t, b) != fsys.State(0o600, "b1+b") {
		t.Errorf("a %q, b %q", fsys.FileState(t, a), fsys.FileState(t, b))
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
	fsys.NoTemp(t, dir)
}

// spec: W6
func TestApplyModeOnlyIsChmod(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix modes")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	fsys.WriteTestFile(t, p, "same\n", 0o644)
	before, _ := os.Lstat(p)
	f := &fsystest.Faulty{}
	res, err := fsys.Apply(f, []fsys.Target{{Path: p, Edit: fsys.EditSet("same\n", 0o600)}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Lstat(p)
	if !os.SameFile(before, after) || fsys.FileState(t, p) != fsys.State(0o600, "same\n") {
		t.Errorf("got %q, same inode %v", fsys.FileState(t, p), os.SameFile(before, after))
	}
	if want := []string{"lock " + p, "chmod " + p + " 0600"}; !reflect.DeepEqual(f.Calls(), want) {
		t.Errorf("calls = %q, want %q", f.Calls(), want)
	}
	if !res[0].Changed {
		t.Error("Changed = false")
	}
	fsys.NoTemp(t, dir)
}

// failedWrite applies the rollbackFixture targets with the nth write failing at stage:
// the transaction fails naming the file, every file is as before, and the directory
// holds what it held, plus the directories created (which stay).
func failedWrite(t *testing.T, dir string, targets []fsys.Target, before map[string]string, n int, stage string) {
	t.Helper()
	names0 := fsys.ListTree(t, dir)
	res, err := fsys.Apply(&fsystest.Faulty{FailWrite: n, WriteStage: stage}, targets)
	if !errors.Is(err, fsystest.ErrInjected) || res != nil {
		t.Fatalf("Apply = %v, %v; want the injected fault", res, err)
	}
	if !strings.HasPrefix(err.Error(), "write "+targets[n-1].Path+": ") {
		t.Errorf("error %q does not name the file", err)
	}
	if errors.As(err, new(*fsys.RollbackError)) {
		t.Errorf("error %q is a RollbackError: the rollback completed", err)
	}
	for p, want := range before {
		if got := fsys.FileState(t, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	if got, want := fsys.ListTree(t, dir), fsys.KeptDirs(names0, "a/", "a/b/"); !reflect.DeepEqual(got, want) {
		t.Errorf("dir holds %q, want %q", got, want)
	}
}

// spec: W7
func TestApplyRollback(t *testing.T) {
	for _, stage := range []string{fsystest.StageWrite, fsystest.StageRename} {
		for n := 1; n <= 3; n++ {
			t.Run(fmt.Sprintf("%s/%d", stage, n), func(t *testing.T) {
				dir, targets, before := fsys.RollbackFixture(t)
				failedWrite(t, dir, targets, before, n, stage)
			})
		}
	}
}

// spec: W7
func TestApplySuccess(t *testing.T) {
	dir, targets, _ := fsys.RollbackFixture(t)
	res, err := fsys.Apply(&fsystest.Faulty{}, targets)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		targets[0].Path: fsys.State(0o644, "one\n+1\n"),
		targets[1].Path: fsys.State(0o600, "two\n"),
		targets[2].Path: fsys.State(0o640, "three\n+3\n"),
	}
	for p, w := range want {
		if got := fsys.FileState(t, p); got != w {
			t.Errorf("%s = %q, want %q", p, got, w)
		}
	}
	if m := fsys.FileMode(t, filepath.Join(dir, "a")); m != fsys.EffectiveDirMode(0o700) {
		t.Errorf("created dir mode %s", fsys.Octal(m))
	}
	for i, r := range res {
		if r.Path != targets[i].Path || !r.Changed || r.Removed {
			t.Errorf("result %d = %+v", i, r)
		}
	}
	fsys.NoTemp(t, dir)
}

// spec: W7
func TestApplyRollbackRemoveAndChmod(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "gone.json")
	chm := filepath.Join(dir, "chmod.json")
	last := filepath.Join(dir, "last.json")
	fsys.WriteTestFile(t, gone, "keep me\n", 0o640)
	fsys.WriteTestFile(t, chm, "c\n", 0o644)
	names0 := fsys.ListTree(t, dir)
	targets := []fsys.Target{
		{Path: gone, Edit: fsys.EditRemove},
		{Path: chm, Edit: fsys.EditSet("c\n", 0o600)},
		{Path: last, Edit: fsys.EditSet("x", 0o600)},
	}
	_, err := fsys.Apply(&fsystest.Faulty{FailWrite: 1, WriteStage: fsystest.StageRename}, targets)
	if !errors.Is(err, fsystest.ErrInjected) {
		t.Fatalf("err = %v", err)
	}
	if got := fsys.FileState(t, gone); got != fsys.State(0o640, "keep me\n") {
		t.Errorf("removed file = %q", got)
	}
	if got := fsys.FileState(t, chm); got != fsys.State(0o644, "c\n") {
		t.Errorf("chmod file = %q", got)
	}
	if got := fsys.ListTree(t, dir); !reflect.DeepEqual(got, names0) {
		t.Errorf("dir holds %q", got)
	}

	res, err := fsys.Apply(fsys.OS{}, targets)
	if err != nil {
		t.Fatal(err)
	}
	if fsys.FileState(t, gone) != "absent" || !res[0].Removed || res[0].New != nil {
		t.Errorf("remove: %q %+v", fsys.FileState(t, gone), res[0])
	}
}

// spec: W7
func TestApplyRollbackErrorsAreJoined(t *testing.T) {
	dir, targets, _ := fsys.RollbackFixture(t)
	// The third write fails; undoing the second (a new file) fails too.
	f := &fsystest.Faulty{FailWrite: 3, FailRemove: 1}
	_, err := fsys.Apply(f, targets)
	if !errors.Is(err, fsystest.ErrInjected) {
		t.Fatalf("err = %v", err)
	}
	var rb *fsys.RollbackError
	if !errors.As(err, &rb) || len(rb.Errs) != 1 {
		t.Errorf("err = %v: want a RollbackError of the one failed undo", err)
	}
	msg := err.Error()
	two := targets[1].Path
	if !strings.Contains(msg, "write "+targets[2].Path+": injected fault") ||
		!strings.Contains(msg, "rollback "+two+": remove "+two+": injected fault") {
		t.Errorf("error = %q", msg)
	}
	if got := fsys.FileState(t, targets[0].Path); got != fsys.State(0o644, "one\n") {
		t.Errorf("first file not restored: %q", got)
	}
	if got := fsys.FileState(t, two); got != fsys.State(0o600, "two\n") {
		t.Errorf("second file = %q (its removal failed)", got)
	}
	fsys.NoTemp(t, dir)
}

// spec: W7
func TestApplyPlanFailureWritesNothing(t *testing.T) {
	errEdit := errors.New("x.json: malformed")
	tests := []struct {
		name    string
		target  func(t *testing.T, dir string) fsys.Target
		wantErr string
	}{
		{"edit error", func(t *testing.T, dir string) fsys.Target {
			return fsys.Target{Path: filepath.Join(dir, "x.json"), Edit: func(fsys.Snapshot) ([]byte, fs.FileMode, bool, error) { return nil, 0, false, errEdit }}
		}, "x.json: malformed"},
		{"check error", func(t *testing.T, dir string) fsys.Target {
			return fsys.Target{Path: filepath.Join(dir, "x.json"), Edit: fsys.EditSet("x", 0o600), Check: func() error { return errors.New("checked") }}
		}, "checked"},
		{"symlink", func(t *testing.T, dir string) fsys.Target {
			p := filepath.Join(dir, "link.json")
			winetest.Skip(t, winetest.Symlinks)
			if err := os.Symlink("target", p); err != nil {
				t.Skip(err)
			}
			return fsys.Target{Path: p, Edit: fsys.EditSet("x", 0o600)}
		}, "DIR/link.json: is a symlink"},
		{"missing parent", func(t *testing.T, dir string) fsys.Target {
			return fsys.Target{Path: filepath.Join(dir, "no", "x.json"), Edit: fsys.EditSet("x", 0o600)}
		}, "DIR/no/x.json: directory DIR/no does not exist"},
		{"no mode", func(t *testing.T, dir string) fsys.Target {
			return fsys.Target{Path: filepath.Join(dir, "x.json"), Edit: fsys.EditSet("x", 0)}
		}, "DIR/x.json: no mode given for the new file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			first := fsys.Target{Path: filepath.Join(dir, "sub", "first.json"), Edit: fsys.EditSet("1", 0o600), DirPerm: 0o700}
			last := tt.target(t, dir)
			names0 := fsys.ListTree(t, dir)
			f := &fsystest.Faulty{}
			_, err := fsys.Apply(f, []fsys.Target{first, last})
			if want := strings.ReplaceAll(filepath.FromSlash(tt.wantErr), "DIR", dir); err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
			if len(f.Calls()) != 0 {
				t.Errorf("calls = %q, want none", f.Calls())
			}
			if got := fsys.ListTree(t, dir); !reflect.DeepEqual(got, names0) {
				t.Errorf("dir holds %q", got)
			}
		})
	}
}

// spec: W7
func TestApplyRollbackAfterMkdirOrChmodFailure(t *testing.T) {
	tests := []struct {
		name    string
		f       *fsystest.Faulty
		wantErr string
		kept    []string
	}{
		{"second mkdir fails", &fsystest.Faulty{FailMkdir: 2}, "mkdir DIR/a/b: injected fault", []string{"a/"}},
		{"chmod fails", &fsystest.Faulty{FailChmod: 1}, "chmod DIR/c.json: injected fault", []string{"a/", "a/b/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, targets, before := fsys.RollbackFixture(t)
			chm := filepath.Join(dir, "c.json")
			fsys.WriteTestFile(t, chm, "c\n", 0o644)
			before[chm] = fsys.FileState(t, chm)
			if len(tt.kept) == 1 {
				delete(before, filepath.Join(dir, "a", "b"))
			}
			// 0444: a mode change on Windows too (read-only), where 0600 is 0644.
			targets = append(targets, fsys.Target{Path: chm, Edit: fsys.EditSet("c\n", 0o444)})
			names0 := fsys.ListTree(t, dir)
			_, err := fsys.Apply(tt.f, targets)
			if want := strings.ReplaceAll(filepath.FromSlash(tt.wantErr), "DIR", dir); err == nil || err.Error() != want {
				t.Fatalf("err = %v, want %q", err, want)
			}
			for p, want := range before {
				if got := fsys.FileState(t, p); got != want {
					t.Errorf("%s = %q, want %q", p, got, want)
				}
			}
			if got, want := fsys.ListTree(t, dir), fsys.KeptDirs(names0, tt.kept...); !reflect.DeepEqual(got, want) {
				t.Errorf("dir holds %q, want %q", got, want)
			}
		})
	}
}

// TestApplyBatchedRollback fails each write of a batched transaction in turn, at every
// stage of it (its temporary file created, written, synced, renamed): the
// transaction fails naming the file, every file is as before, and no temporary file
// is left.
//
// spec: W3 W7
func TestApplyBatchedRollback(t *testing.T) {
	for _, stage := range []string{fsystest.StageOpen, fsystest.StageWrite, fsystest.StageSync, fsystest.StageRename} {
		for n := 1; n <= 3; n++ {
			t.Run(fmt.Sprintf("%s/%d", stage, n), func(t *testing.T) {
				dir, targets, before := fsys.RollbackFixture(t)
				for i := range targets {
					targets[i].Batch = 1 + i/2 // 1, 1, 2: write order is target order
				}
				failedWrite(t, dir, targets, before, n, stage)
			})
		}
	}
}

// TestApplyFailedRollbackKeepsEarlierBatches: a batched transaction whose third
// write (batch 3) fails and whose rollback of the second (batch 2, a new file) fails
// too keeps the first (batch 1) as written, as a crash after the second batch would
// leave it: a batch is on disk only with every batch before it, so that an earlier
// batch's file (a staged ownership record) still settles a later one that stays.
// The error is a RollbackError naming the failed undo.
//
// spec: W7 K10
func TestApplyFailedRollbackKeepsEarlierBatches(t *testing.T) {
	dir, targets, _ := fsys.RollbackFixture(t)
	for i := range targets {
		targets[i].Batch = 1 + i // write order is target order
	}
	_, err := fsys.Apply(&fsystest.Faulty{FailWrite: 3, WriteStage: fsystest.StageRename, FailRemove: 1}, targets)
	var rb *fsys.RollbackError
	if !errors.As(err, &rb) || len(rb.Errs) != 1 || !strings.Contains(rb.Error(), "rollback "+targets[1].Path+": ") {
		t.Fatalf("err = %v: want a RollbackError of the second file's undo", err)
	}
	for i, want := range []string{fsys.State(0o644, "one\n+1\n"), fsys.State(0o600, "two\n"), fsys.State(0o600, "three\n")} {
		if got := fsys.FileState(t, targets[i].Path); got != want {
			t.Errorf("%s = %q, want %q", targets[i].Path, got, want)
		}
	}
	fsys.NoTemp(t, dir)
}
