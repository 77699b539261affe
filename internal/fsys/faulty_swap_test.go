//go:build linux || darwin

package fsys_test

// The transactions of this file run on fsystest.Faulty, the real filesystem with
// injected failures, which records every call: an external test, as fsystest
// imports fsys.

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
)

// TestApplyRecordsSwapWhenOldFileStays: removing the old file after a successful swap
// fails. The write happened, so it succeeds and is undone by a later failure's
// rollback (the old file may stay behind under the temporary name).
//
// spec: W7 W3
func TestApplyRecordsSwapWhenOldFileStays(t *testing.T) {
	dir := t.TempDir()
	fsys.RequireSwap(t, dir)
	p, q := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	fsys.WriteTestFile(t, p, "old", 0o600)
	failed := false
	fsys.SetSwapHook(t, func(stage string) error {
		if stage == "remove" && !failed {
			failed = true
			return errors.New("injected remove failure")
		}
		return nil
	})
	f := &fsystest.Faulty{FailWrite: 2}
	_, err := fsys.Apply(f, []fsys.Target{{Path: p, Edit: fsys.EditSet("new", 0o600)}, {Path: q, Edit: fsys.EditSet("b", 0o600)}})
	if !errors.Is(err, fsystest.ErrInjected) {
		t.Fatalf("err = %v, want the injected failure of the second write", err)
	}
	if !failed {
		t.Fatal("the old file's removal was never attempted")
	}
	if got := fsys.FileState(t, p); got != fsys.State(0o600, "old") {
		t.Errorf("a = %q: the first write was not undone", got)
	}
	if got := fsys.FileState(t, q); got != "absent" {
		t.Errorf("b = %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 2 {
		t.Logf("left behind: %v", entries) // the old file, under its temporary name
	}
}
