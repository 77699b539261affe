package fsys

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// Canonical returns the real path of p: every symlink of the longest existing prefix
// resolved (dangling links included, followed as far as they go), then the missing
// components appended as written. Aliases of one file (a symlinked project root, a
// symlinked ~/.claude) therefore give one canonical path (SPEC C3, L8).
func Canonical(p string) (string, error) {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		p = abs
	}
	if symlinkFree(p) {
		return p, nil
	}
	return resolve(p, 0)
}

const maxLinks = 40

// noOpenat2 is set once the kernel (or a seccomp filter) has refused openat2, which
// symlinkFree uses on Linux.
var noOpenat2 atomic.Bool

// walks counts the component walks of Canonical (resolve) for tests: a path with no
// symlink in it takes none where symlinkFree can tell.
var walks atomic.Int64

// resolve walks p component by component from the root, resolving each symlink.
func resolve(p string, depth int) (string, error) {
	walks.Add(1)
	if depth > maxLinks {
		return "", fmt.Errorf("%s: too many levels of symbolic links", p)
	}
	vol := filepath.VolumeName(p)
	rest := strings.TrimPrefix(p[len(vol):], string(filepath.Separator))
	cur := vol + string(filepath.Separator)
	if rest == "" {
		return cur, nil
	}
	parts := strings.Split(rest, string(filepath.Separator))
	for i, part := range parts {
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.Join(append([]string{cur}, parts[i:]...)...), nil
			}
			return "", err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(next)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(cur, target)
			}
			resolved, err := resolve(filepath.Clean(target), depth+1)
			if err != nil {
				return "", err
			}
			next = resolved
		}
		cur = next
	}
	return cur, nil
}
