//go:build linux || darwin

package fsys

import (
	"errors"
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
