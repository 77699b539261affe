package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The writes of a DryRun: each is checked as the real call would be, then recorded
// as an Intent and applied to the overlay, never to the wrapped FS.

// WriteFile records a "write" after the checks the real write would make: the
// destination is not a symlink, its directory exists, opts pass.
//
// The dry run keeps data, and the bytes of opts.Expect (what the file held before),
// as they are, without a copy: a dry run over a 50 MB file holds each version once
// (issue 11). The caller must not change them after the call; [Apply] never does.
func (d *DryRun) WriteFile(name string, data []byte, perm fs.FileMode, opts *WriteOptions) error {
	return d.WriteContent(name, ContentOf(data), perm, opts)
}

// WriteContent is WriteFile of a content, kept in its pieces: the Intent's Data is
// nil when it is in pieces (Content holds them), and the Diff reads only the region
// that changed and its context where it can (issue 31, K7).
func (d *DryRun) WriteContent(name string, c Content, perm fs.FileMode, opts *WriteOptions) error {
	p := filepath.Clean(name)
	old, err := d.writeChecks(p, opts)
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	n := &node{kind: kindFile, mode: effectiveMode(perm.Perm())}
	in := Intent{Op: "write", Path: p, Content: c, Mode: perm, Old: old}
	if c.Split() {
		n.split = c
	} else {
		n.data, in.Data = c.Bytes(), c.Bytes()
	}
	d.set(p, n, old)
	d.intents = append(d.intents, in)
	return nil
}

// writeChecks runs the checks of a write to p and returns what p holds before it:
// the bytes of opts.Expect when they were checked, else p read.
func (d *DryRun) writeChecks(p string, opts *WriteOptions) (*Snapshot, error) {
	fi, err := d.Lstat(p)
	if err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, ErrSymlink
		}
		if !fi.Mode().IsRegular() {
			return nil, ErrNotRegular
		}
	} else if !IsNotExist(err) {
		return nil, err
	}
	if err := d.checkParent("open", p); err != nil {
		return nil, err
	}
	if opts != nil && opts.Check != nil {
		if err := opts.Check(); err != nil {
			return nil, err
		}
	}
	if opts == nil || opts.Expect == nil {
		return d.snapshot(p), nil
	}
	same, err := d.sameContent(p, *opts.Expect)
	if err != nil {
		return nil, err
	}
	if !same {
		return nil, ErrChanged
	}
	if !opts.Expect.Exists {
		return &Snapshot{}, nil
	}
	return &Snapshot{Exists: true, Data: opts.Expect.Data, Mode: fi.Mode().Perm()}, nil
}

// Mkdir records a "mkdir" of a directory that does not exist yet in an existing one.
func (d *DryRun) Mkdir(name string, perm fs.FileMode) error {
	p := filepath.Clean(name)
	if _, err := d.Lstat(p); err == nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: fs.ErrExist}
	}
	if err := d.checkParent("mkdir", p); err != nil {
		return err
	}
	d.set(p, &node{kind: kindDir, mode: effectiveDirMode(perm.Perm())}, nil)
	d.intents = append(d.intents, Intent{Op: "mkdir", Path: p, Mode: perm})
	return nil
}

// MkdirTemp records a "mkdir" (0700) of a new directory name in dir (os.TempDir when
// empty) that exists neither on disk nor in the dry run, and returns it.
func (d *DryRun) MkdirTemp(dir, pattern string) (string, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	prefix, suffix, _ := strings.Cut(pattern, "*")
	if strings.ContainsRune(pattern, filepath.Separator) {
		return "", &fs.PathError{Op: "mkdirtemp", Path: pattern, Err: errors.New("pattern contains path separator")}
	}
	for range 100 {
		p := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		err := d.Mkdir(p, 0o700)
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", &fs.PathError{Op: "mkdirtemp", Path: filepath.Join(dir, pattern), Err: fs.ErrExist}
}

// Remove records a "remove" of an existing file or empty directory.
func (d *DryRun) Remove(name string) error {
	p := filepath.Clean(name)
	fi, err := d.Lstat(p)
	if err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	if fi.IsDir() {
		entries, err := d.ReadDir(p)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			return &fs.PathError{Op: "remove", Path: name, Err: errNotEmpty}
		}
	}
	old := d.snapshot(p)
	if !fi.Mode().IsRegular() {
		old = nil
	}
	d.set(p, &node{kind: kindAbsent}, old)
	d.intents = append(d.intents, Intent{Op: "remove", Path: p, Old: old})
	return nil
}

// Chmod records a "chmod" of an existing file or directory (following symlinks).
func (d *DryRun) Chmod(name string, perm fs.FileMode) error {
	p := filepath.Clean(name)
	for range maxOverlayLinks {
		fi, err := d.Lstat(p)
		if err != nil {
			return &fs.PathError{Op: "chmod", Path: name, Err: fs.ErrNotExist}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			old := d.snapshot(p)
			n := &node{kind: kindFile, data: old.Data, mode: effectiveMode(perm.Perm())}
			if fi.IsDir() {
				n, old = &node{kind: kindDir, mode: effectiveDirMode(perm.Perm())}, nil
			}
			d.set(p, n, old)
			d.intents = append(d.intents, Intent{Op: "chmod", Path: p, Mode: perm, Old: old})
			return nil
		}
		if n, ok := d.nodes[p]; ok {
			p = linkTarget(p, n.target)
		} else if p, err = d.base.EvalSymlinks(p); err != nil {
			return &fs.PathError{Op: "chmod", Path: name, Err: err}
		}
	}
	return &fs.PathError{Op: "chmod", Path: name, Err: errTooManyLinks}
}

// Symlink records a "symlink" newname -> oldname.
func (d *DryRun) Symlink(oldname, newname string) error {
	p := filepath.Clean(newname)
	if _, err := d.Lstat(p); err == nil {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: fs.ErrExist}
	}
	if err := d.checkParent("symlink", p); err != nil {
		return err
	}
	d.set(p, &node{kind: kindSymlink, target: oldname, mode: 0o777}, nil)
	d.intents = append(d.intents, Intent{Op: "symlink", Path: p, Target: oldname})
	return nil
}

// Lock does nothing: a dry run takes no lock and creates no lock file.
func (d *DryRun) Lock(string) (func() error, error) {
	return func() error { return nil }, nil
}
