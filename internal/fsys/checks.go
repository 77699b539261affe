package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrSymlink reports a destination, or a directory that must be real, that is a
// symlink (W5).
var ErrSymlink = errors.New("is a symlink")

// ErrNotRegular reports a destination that exists but is not a regular file.
var ErrNotRegular = errors.New("is not a regular file")

// CheckNotSymlink refuses path when it exists and is a symlink or anything else than a
// regular file (W5). A missing path is fine.
func CheckNotSymlink(f FS, path string) error {
	_, err := lstatChecked(f, path)
	return err
}

// lstatChecked is CheckNotSymlink, returning what it found at path: a regular file,
// or nil when nothing is there.
func lstatChecked(f FS, path string) (fs.FileInfo, error) {
	fi, err := f.Lstat(path)
	switch {
	case IsNotExist(err):
		return nil, nil
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, &SymlinkError{Path: path}
	case !fi.Mode().IsRegular():
		return nil, &NotRegularError{Path: path, Mode: fi.Mode().Type()}
	}
	return fi, nil
}

// SymlinkError is a destination refused because it is a symlink (W5). It matches
// ErrSymlink.
type SymlinkError struct{ Path string }

func (e *SymlinkError) Error() string { return e.Path + ": " + ErrSymlink.Error() }

// Is reports whether target is ErrSymlink.
func (e *SymlinkError) Is(target error) bool { return target == ErrSymlink }

// CheckRealDirs checks that every existing directory below root down to path's parent
// is a real directory, not a symlink (W5, project scope). root itself may be a symlink
// and is not checked; path must be inside root. A root of "" or "/" (the filesystem
// root, for an explicit --out path) checks every ancestor. Checking stops at the first
// missing directory.
func CheckRealDirs(f FS, root, path string) error {
	path = filepath.Clean(path)
	if root == "" || root == "/" {
		root = filepath.VolumeName(path) + string(filepath.Separator)
	}
	root = filepath.Clean(root)
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s: not inside %s", path, root)
	}
	if rel == "." {
		return nil
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := f.Lstat(cur)
		switch {
		case IsNotExist(err):
			return nil
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("directory %s: %w", cur, ErrSymlink)
		case !fi.IsDir():
			return fmt.Errorf("%s: not a directory", cur)
		}
	}
	return nil
}

// NearestExistingDir returns path itself or its nearest existing ancestor, which must
// be a directory (symlinks to directories are followed).
func NearestExistingDir(f FS, path string) (string, error) {
	p := filepath.Clean(path)
	for {
		d, err := nearestStep(f, p)
		if d != "" || err != nil {
			return d, err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", fmt.Errorf("%s: no existing parent directory", path)
		}
		p = parent
	}
}

// nearestStep is one step of NearestExistingDir: p when it exists (an error when it
// is not a directory), "" when it does not.
func nearestStep(f FS, p string) (string, error) {
	_, err := f.Lstat(p)
	if err == nil {
		fi, err := f.Stat(p)
		if err != nil {
			return "", err
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("%s: not a directory", p)
		}
		return p, nil
	}
	if !IsNotExist(err) {
		return "", err
	}
	return "", nil
}

// CheckWritableDir checks that the nearest existing ancestor of dir (dir included) is
// a directory this process may create files in (W7).
func CheckWritableDir(dir string) error {
	d, err := NearestExistingDir(OS{}, dir)
	if err != nil {
		return err
	}
	if err := accessWX(d); err != nil {
		return fmt.Errorf("%s: directory is not writable: %w", d, err)
	}
	return nil
}

// CheckWritable is CheckWritableDir for a path that is a directory when it exists (a
// caller has just looked at it): one system call when it is writable.
func CheckWritable(dir string) error {
	if accessWX(dir) == nil {
		return nil
	}
	return CheckWritableDir(dir)
}

// IsNotExist reports a missing file, including a path whose parent is a file.
func IsNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
