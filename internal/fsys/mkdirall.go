package fsys

import (
	"errors"
	"io/fs"
	"path/filepath"
)

// MkdirAll creates dir and the parents it lacks, each with exactly mode perm; an
// existing one is left as it is.
func MkdirAll(f FS, dir string, perm fs.FileMode) error {
	if _, err := f.Lstat(dir); err == nil {
		return nil
	}
	if parent := filepath.Dir(dir); parent != dir {
		if err := MkdirAll(f, parent, perm); err != nil {
			return err
		}
	}
	if err := f.Mkdir(dir, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}
