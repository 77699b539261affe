// Package projectdir finds the project directory mcpwire works on (U4): the git work
// tree holding a directory, found without running git; and checks a directory named
// as one.
package projectdir

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// WorkTree returns the root of the git work tree holding dir: the nearest directory,
// dir included, with a .git entry (a directory, or a file in a linked work tree or
// submodule). Without one it is dir. git is not run: a few Lstat calls.
func WorkTree(f fsys.FS, dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := f.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// Check refuses a project directory that does not exist or is not a directory: a
// mistyped path must not become a new directory tree.
func Check(f fsys.FS, dir string) error {
	fi, err := f.Stat(dir)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("project directory %s does not exist", dir)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("project directory %s is not a directory", dir)
	}
	return nil
}

// Same reports whether two directories are the same, by path or by real path.
func Same(f fsys.FS, a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := f.EvalSymlinks(a)
	rb, err2 := f.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
