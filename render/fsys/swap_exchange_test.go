//go:build linux || darwin

package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setSwapHook installs swapHook for one test.
func setSwapHook(t *testing.T, h func(stage string) error) {
	t.Helper()
	swapHook = h
	t.Cleanup(func() { swapHook = nil })
}

// once returns a hook for OS that runs f at stage the first time only.
func once(stage string, f func()) func(string, string) error {
	done := false
	return func(s, _ string) error {
		if s == stage && !done {
			done = true
			f()
		}
		return nil
	}
}

// TestWriteFileThirdWriterSupersedes: between mcpwire's compare and its swap another
// program renamed its file in, and right after the swap a third write replaced
// mcpwire's file. The displaced file would have been replaced by that third write
// without mcpwire too, so it is dropped, and the write reports ErrChanged (the edit is
// redone on the newest content); the third writer's file stays in place.
//
// spec: W8
func TestWriteFileThirdWriterSupersedes(t *testing.T) {
	dir := t.TempDir()
	requireSwap(t, dir)
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "read by mcpwire", 0o600)
	o := OS{hook: once("rename", func() { foreignRename(t, p, "other writer") })}
	setSwapHook(t, func(stage string) error {
		if stage == "swapped" {
			foreignRename(t, p, "third writer")
		}
		return nil
	})
	err := o.WriteFile(p, []byte("mine"), 0o600, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("read by mcpwire")}})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if got := fileState(t, p); got != state(0o600, "third writer") {
		t.Errorf("destination = %q, want the third writer's file", got)
	}
	noTemp(t, dir)
}

// TestApplySwapBackFailure: the swap back of another program's file fails. That file
// is kept (never deleted), the error says so, and since mcpwire's file is in place the
// transaction knows it wrote it: the rollback puts the content mcpwire read back.
//
// spec: W8 W7
func TestApplySwapBackFailure(t *testing.T) {
	dir := t.TempDir()
	requireSwap(t, dir)
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "read by mcpwire", 0o600)
	o := OS{hook: once("rename", func() { foreignRename(t, p, "other writer") })}
	setSwapHook(t, func(stage string) error {
		if stage == "swapback" {
			return errors.New("injected swap-back failure")
		}
		return nil
	})
	_, err := Apply(o, []Target{{Path: p, Edit: editSet("mine", 0o600)}})
	var de *DisplacedError
	if !errors.As(err, &de) || !de.Written {
		t.Fatalf("err = %v, want a DisplacedError with Written", err)
	}
	if got := fileState(t, de.Kept); got != state(0o600, "other writer") || !strings.HasSuffix(de.Kept, keptSuffix) {
		t.Errorf("kept %s = %q, want the other writer's file, named *%s", de.Kept, got, keptSuffix)
	}
	if got := fileState(t, p); got != state(0o600, "read by mcpwire") {
		t.Errorf("destination = %q: the rollback did not undo mcpwire's write", got)
	}
	// the next run's clean-up of temporary files leaves it alone
	swapHook = nil
	if _, err := Apply(OS{}, []Target{{Path: p, Edit: editSet("mine", 0o600)}}); err != nil {
		t.Fatal(err)
	}
	if got := fileState(t, de.Kept); got != state(0o600, "other writer") {
		t.Errorf("kept file after the next write: %q", got)
	}
}

// TestApplyRecordsSwapWhenOldFileStays: removing the old file after a successful swap
// fails. The write happened, so it succeeds and is undone by a later failure's
// rollback (the old file may stay behind under the temporary name).
//
// spec: W7 W3
func TestApplyRecordsSwapWhenOldFileStays(t *testing.T) {
	dir := t.TempDir()
	requireSwap(t, dir)
	p, q := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	writeTestFile(t, p, "old", 0o600)
	failed := false
	setSwapHook(t, func(stage string) error {
		if stage == "remove" && !failed {
			failed = true
			return errors.New("injected remove failure")
		}
		return nil
	})
	f := &Faulty{FailWrite: 2}
	_, err := Apply(f, []Target{{Path: p, Edit: editSet("new", 0o600)}, {Path: q, Edit: editSet("b", 0o600)}})
	if !errors.Is(err, ErrInjected) {
		t.Fatalf("err = %v, want the injected failure of the second write", err)
	}
	if !failed {
		t.Fatal("the old file's removal was never attempted")
	}
	if got := fileState(t, p); got != state(0o600, "old") {
		t.Errorf("a = %q: the first write was not undone", got)
	}
	if got := fileState(t, q); got != "absent" {
		t.Errorf("b = %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 2 {
		t.Logf("left behind: %v", entries) // the old file, under its temporary name
	}
}
