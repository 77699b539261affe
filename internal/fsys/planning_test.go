package fsys

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// statCounter counts the Lstat and Stat calls of each path.
type statCounter struct {
	FS
	calls map[string]int
}

func (c *statCounter) Lstat(name string) (fs.FileInfo, error) {
	c.calls[name]++
	return c.FS.Lstat(name)
}

func (c *statCounter) Stat(name string) (fs.FileInfo, error) {
	c.calls[name]++
	return c.FS.Stat(name)
}

// TestPlanningLooksAtEachDirectoryOnce: planning many targets in one directory — a
// missing one, whose nearest existing ancestor is looked for, and an existing one —
// looks at each directory once, not once per target (a fresh injection into every
// client plans 68 ownership records in one directory). What is planned is the same:
// each target in the missing directory may create it.
//
// spec: W7
func TestPlanningLooksAtEachDirectoryOnce(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "have"), 0o700); err != nil {
		t.Fatal(err)
	}
	var targets []Target
	for _, dir := range []string{filepath.Join(root, "new", "dir"), filepath.Join(root, "have")} {
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
			targets = append(targets, Target{
				Path:    filepath.Join(dir, n+".json"),
				DirPerm: 0o700,
				Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) {
					return []byte("{}"), 0o600, false, nil
				},
			})
		}
	}
	c := &statCounter{FS: OS{}, calls: map[string]int{}}
	plans, err := prepareAll(c, targets)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		if !p.needsWrite() {
			t.Errorf("%s: planned no write", p.t.Path)
		}
	}
	for _, d := range []string{filepath.Join(root, "new", "dir"), filepath.Join(root, "new"), root, filepath.Join(root, "have")} {
		if n := c.calls[d]; n > 2 {
			t.Errorf("%s looked at %d times while planning %d targets, want at most 2 (Lstat, Stat)", d, n, len(targets))
		}
	}
}

// TestCheckKeyRunsOncePerPlanning: the plan-time Check of targets sharing a CheckKey
// runs once for all of them; before each rename every target's Check runs again. A
// target without a key, or with another, is checked on its own, and a Check that
// fails stops the Apply with its error, nothing written.
//
// spec: W5 W7
func TestCheckKeyRunsOncePerPlanning(t *testing.T) {
	dir := t.TempDir()
	calls := map[string]int{}
	target := func(name, key string, err error) Target {
		return Target{
			Path:     filepath.Join(dir, name),
			CheckKey: key,
			Check: func() error {
				calls[name]++
				return err
			},
			Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) {
				return []byte("{}"), 0o600, false, nil
			},
		}
	}
	targets := []Target{target("a", "dir", nil), target("b", "dir", nil), target("c", "dir", nil), target("d", "", nil), target("e", "other", nil)}
	if _, err := Apply(OS{}, targets); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"a": 2, "b": 1, "c": 1, "d": 2, "e": 2}
	if !maps.Equal(calls, want) {
		t.Errorf("Check calls %v, want %v (plan time once per key, then once per rename)", calls, want)
	}

	refused := errors.New("record directory refused")
	clear(calls)
	targets = []Target{target("f", "bad", refused), target("g", "bad", nil)}
	if _, err := Apply(OS{}, targets); !errors.Is(err, refused) {
		t.Fatalf("Apply: %v, want %v", err, refused)
	}
	for _, n := range []string{"f", "g"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s written after a refused check (%v)", n, err)
		}
	}
}
