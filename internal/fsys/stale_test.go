package fsys

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/winetest"
)

// TestLockRemovesStaleTemporaryFiles: once it holds a file's lock, Lock removes the
// temporary files of that file that an interrupted run left, and nothing else: not
// another file's, not a kept file of another program (.kept), not a name that only
// looks alike, not a directory or a symlink of that name (issue 11).
func TestLockRemovesStaleTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "{}", 0o600)
	stale := []string{".f.json.mcpwire-1x9z.tmp", ".f.json.mcpwire-0.tmp"}
	kept := []string{
		".f.json.mcpwire-1x9z.kept",   // another program's file, displaced
		".g.json.mcpwire-1x9z.tmp",    // another file's
		".f.json.mcpwire-1X9Y.tmp",    // not mcpwire's random part (1X9Z is 1x9z where case is ignored)
		".f.json.mcpwire-.tmp",        // no random part
		".f.json.mcpwire-1x9z.tmp~",   // an editor's backup
		"f.json.mcpwire-1x9z.tmp",     // no leading dot
		".f.json.mcpwire-a.b.tmp",     // not base 36
		"..f.json.mcpwire-1x9z.tmp",   // the temporary file of .f.json
		".f.json.mcpwire-dir.tmp",     // a directory
		".f.json.mcpwire-link.tmp",    // a symlink
		".f.json" + LockSuffix + "x",  // not the lock
		".f.json.mcpwire-1x9z.tmpdir", // longer suffix
	}
	for _, n := range append(append([]string(nil), stale...), kept...) {
		switch n {
		case ".f.json.mcpwire-dir.tmp":
			if err := os.Mkdir(filepath.Join(dir, n), 0o700); err != nil {
				t.Fatal(err)
			}
		case ".f.json.mcpwire-link.tmp":
			made := false
			t.Run("symlink", func(t *testing.T) {
				winetest.Skip(t, winetest.Symlinks)
				if err := os.Symlink("f.json", filepath.Join(dir, n)); err != nil {
					t.Skipf("no symlink: %v", err) // Windows without the privilege
				}
				made = true
			})
			if !made {
				kept = slices.DeleteFunc(kept, func(k string) bool { return k == n })
			}
		default:
			writeTestFile(t, filepath.Join(dir, n), "x", 0o600)
		}
	}
	var cleaned []string
	o := NewOSWith(OSOptions{AfterStep: func(stage, name string) {
		if stage == "clean" {
			cleaned = append(cleaned, filepath.Base(name))
		}
	}})
	release, err := o.Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s not removed", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if len(cleaned) != len(stale) {
		t.Errorf("clean steps %q", cleaned)
	}
}

// TestApplyGoesOnWhenALeftoverLockIsRefused: a lock file of a target that needs no
// change which cannot be taken (here: a directory of that name, as good as another
// user's file) does not fail the transaction; it was locked only to clean up.
func TestApplyGoesOnWhenALeftoverLockIsRefused(t *testing.T) {
	old := lockTimeout
	lockTimeout = 200 * time.Millisecond // Windows waits on a lock it may not open
	t.Cleanup(func() { lockTimeout = old })
	dir := t.TempDir()
	p, q := filepath.Join(dir, "f.json"), filepath.Join(dir, "g.json")
	writeTestFile(t, p, "same", 0o600)
	writeTestFile(t, filepath.Join(dir, ".f.json.mcpwire-abc.tmp"), "partial", 0o600)
	if err := os.Mkdir(p+LockSuffix, 0o700); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(OS{}, []Target{{Path: p, Edit: editSet("same", 0o600)}, {Path: q, Edit: editSet("g", 0o600)}})
	if err != nil || res[0].Changed || !res[1].Changed {
		t.Fatalf("Apply = %+v, %v", res, err)
	}
}
