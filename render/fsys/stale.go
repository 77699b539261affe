package fsys

import (
	"os"
	"path/filepath"
	"strings"
)

// hasLeftovers reports whether name's directory holds a temporary file of name, or
// its lock file where a lock dies with its process (flock, LockFileEx): left by an
// interrupted run, or in use by one under way in another process.
func hasLeftovers(f FS, name string) bool {
	dir, base := filepath.Split(name)
	entries, err := f.ReadDir(filepath.Clean(dir))
	if err != nil {
		return false
	}
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && (isTempName(n, base) || locksDieWithProcess && n == base+LockSuffix) {
			return true
		}
	}
	return false
}

// Names of mcpwire's temporary files beside a file <base>: .<base>.mcpwire-<random>.tmp
// while it is written, and .<base>.mcpwire-<random>.kept for another program's file
// that mcpwire displaced and could not put back (see [DisplacedError]).
const (
	tempSuffix = ".tmp"
	keptSuffix = ".kept"
)

// tempPrefix is the start of the temporary file names of a file named base.
func tempPrefix(base string) string { return "." + base + ".mcpwire-" }

// isTempName reports whether entry is the name of a temporary file of base: the
// prefix, a non-empty base-36 random part and the suffix, nothing else.
func isTempName(entry, base string) bool {
	rnd, ok := strings.CutPrefix(entry, tempPrefix(base))
	if !ok {
		return false
	}
	rnd, ok = strings.CutSuffix(rnd, tempSuffix)
	if !ok || rnd == "" {
		return false
	}
	for _, c := range rnd {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// cleanStale removes the temporary files that interrupted mcpwire runs left beside
// name (issue 11): regular files named .<base>.mcpwire-<random>.tmp, nothing else.
// It runs only while name's lock is held: every mcpwire write of name creates its
// temporary file under that lock and removes it before releasing it, so such a file
// belongs to no running mcpwire process. Files it cannot list or remove are left
// (best effort: they cost space, not correctness).
func (o OS) cleanStale(name string) {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	entries, _ := d.Readdirnames(-1)
	_ = d.Close()
	for _, e := range entries {
		if !isTempName(e, base) {
			continue
		}
		p := filepath.Join(dir, e)
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if os.Remove(p) == nil {
			o.after("clean", p)
		}
	}
}
