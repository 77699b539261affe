package fsys

import (
	"errors"
	"io/fs"
	"path/filepath"
)

// RemoveAll removes dir and everything in it through f, without following a
// symlink inside it (a link is removed, not what it points at); a dir that does not
// exist is no error. It returns the first error met, after trying the rest.
func RemoveAll(f FS, dir string) error {
	fi, err := f.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var first error
	if fi.IsDir() {
		entries, err := f.ReadDir(dir)
		if err != nil {
			first = err
		}
		for _, e := range entries {
			if err := RemoveAll(f, filepath.Join(dir, e.Name())); err != nil && first == nil {
				first = err
			}
		}
	}
	if err := f.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
		first = err
	}
	return first
}
