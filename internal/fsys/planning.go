package fsys

import (
	"fmt"
	"path/filepath"
)

// planning is what one planning pass (prepareAll) has learned of the directories its
// targets sit in, so that each directory is looked at once however many targets it
// holds (a fresh injection into every client plans 105 targets in 40 directories, 68
// of them in the ownership directory): the names that may be leftovers in each
// directory (hasLeftovers), the nearest existing directory of each parent
// (NearestExistingDir), and the plan-time checks passed, by key (Target.CheckKey). A
// pass only reads; what it learns is checked again where it matters when the
// transaction writes (each target's lock and Check before its rename, the
// directories the transaction creates).
type planning struct {
	listings map[string][]string
	nearest  map[string]nearestDir
	checked  map[string]bool
	writable map[string]error // CheckWritable of each nearest existing directory
}

// nearestDir is NearestExistingDir's answer for one directory.
type nearestDir struct {
	dir string
	err error
}

func newPlanning() *planning {
	return &planning{listings: map[string][]string{}, nearest: map[string]nearestDir{}, checked: map[string]bool{},
		writable: map[string]error{}}
}

// nearestExistingDir is NearestExistingDir, once per directory in a pass: a missing
// directory's answer is its parent's, which the pass may know already (a fresh
// injection plans 20 missing directories in one project: the project was looked at
// 120 times, issue 31).
func (pl *planning) nearestExistingDir(f FS, dir string) (string, error) {
	dir = filepath.Clean(dir)
	if n, ok := pl.nearest[dir]; ok {
		return n.dir, n.err
	}
	d, err := nearestStep(f, dir)
	if err == nil && d == "" {
		parent := filepath.Dir(dir)
		if parent == dir {
			err = fmt.Errorf("%s: no existing parent directory", dir)
		} else {
			d, err = pl.nearestExistingDir(f, parent)
		}
	}
	pl.nearest[dir] = nearestDir{d, err}
	return d, err
}

// checkWritable is CheckWritable, once per directory in a pass.
func (pl *planning) checkWritable(dir string) error {
	if err, ok := pl.writable[dir]; ok {
		return err
	}
	err := CheckWritable(dir)
	pl.writable[dir] = err
	return err
}

// check runs t's plan-time Check, once per CheckKey in a pass.
func (pl *planning) check(t Target) error {
	if t.Check == nil || t.CheckKey != "" && pl.checked[t.CheckKey] {
		return nil
	}
	if err := t.Check(); err != nil {
		return err
	}
	if t.CheckKey != "" {
		pl.checked[t.CheckKey] = true
	}
	return nil
}
