package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render"
)

// TestInjectEveryProviderFileCount counts the files a fresh injection of a 20-server
// profile into every provider creates, by operation, not by time (issue 31). Before
// issue 31 it created one lock file per file locked, and locked every ownership
// record three times (the staged records' own transaction, the injection, and the
// removal of the staged records after it): 141 lock files and 106 temporary files for
// 71 files written (the receipts included), with 36 providers. Now each transaction creates one lock file per
// filesystem and links every other lock of it to that one (docs/writes.md, "Other
// mcpwire processes"), and the staged records the pre-staging wrote are removed under
// the injection's own locks: 3 lock files (the pre-staging, the injection, the
// receipts), each record locked twice. And each record was staged, written and its
// staged copy removed: 106 temporary files for 71 files written. Now a record that
// does not exist yet is written as its own staged record, which is renamed over it
// once the client file is written (docs/writes.md, "Crashes"): one temporary file per
// file written, as the floor writes them, and no staged record removed.
//
// spec: W8 H7 K10
func TestInjectEveryProviderFileCount(t *testing.T) {
	w := newEveryWorld(t, filepath.Join(t.TempDir(), "w"))
	w.reset(t)
	var mu sync.Mutex
	var inodes []fs.FileInfo
	locks, temps, unstaged := map[string]int{}, 0, 0
	f := fsys.NewOSWith(fsys.OSOptions{AfterStep: func(stage, name string) {
		mu.Lock()
		defer mu.Unlock()
		switch stage {
		case "lock":
			locks[name]++
			fi, err := os.Lstat(name + fsys.LockSuffix)
			if err != nil {
				t.Errorf("lock of %s held, but no lock file: %v", name, err)
				return
			}
			if !slices.ContainsFunc(inodes, func(o fs.FileInfo) bool { return os.SameFile(o, fi) }) {
				inodes = append(inodes, fi)
			}
		case "temp":
			temps++
		case "remove":
			if strings.HasSuffix(name, render.StagedSuffix) {
				unstaged++
			}
		}
	}})
	w.runOn(t, f)
	written, records := 0, 0
	if err := filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if strings.Contains(d.Name(), ".mcpwire") || strings.HasSuffix(d.Name(), ".staged") {
			t.Errorf("left behind: %s", p)
		}
		if !d.IsDir() {
			written++
			if dir := filepath.Base(filepath.Dir(p)); dir == "mcp-ownership" || dir == "claude-tool-permissions" {
				records++ // each staged first
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	written -= 2 // the profiles and the project's .gitignore were there before
	taken := 0
	for name, n := range locks {
		taken += n
		if n > 2 {
			t.Errorf("%s locked %d times, want at most 2 (the pre-staging and the injection)", name, n)
		}
	}
	t.Logf("%d files written; %d temporary files, %d locks taken on %d lock files", written, temps, taken, len(inodes))
	if runtime.GOOS != "windows" && len(inodes) > 3 {
		// Windows keeps one lock file per file (LockFileEx: docs/writes.md)
		t.Errorf("%d lock files created, want at most 3 (one per transaction)", len(inodes))
	}
	if temps > written {
		t.Errorf("%d temporary files for %d files written (%d of them records), want at most one per file: a record's staged copy is the record, renamed into place", temps, written, records)
	}
	if unstaged > 0 {
		t.Errorf("%d staged records removed, want none: each became its record", unstaged)
	}
}
