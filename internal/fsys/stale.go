package fsys

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// hasLeftovers reports whether name's directory holds a temporary file of name, or
// its lock file where a lock dies with its process (flock, LockFileEx): left by an
// interrupted run, or in use by one under way in another process. listings holds, for
// the directories listed so far by this planning (nothing is written meanwhile), their
// regular files that may be such files (see candidates).
func hasLeftovers(f FS, name string, listings map[string][]string) bool {
	dir, base := filepath.Split(name)
	dir = filepath.Clean(dir)
	names, ok := listings[dir]
	if !ok {
		names = candidates(f, dir)
		listings[dir] = names
	}
	for _, n := range names {
		if isTempName(n, base) || locksDieWithProcess && n == base+LockSuffix {
			return true
		}
	}
	return false
}

// mcpwireMark is in the name of every temporary and lock file of mcpwire.
const mcpwireMark = ".mcpwire"

// candidates lists the regular files of dir whose names hold mcpwireMark: usually
// none. On the real filesystem the directory's names are read unsorted and only
// those few are looked at (a fresh injection into every client lists 40 directories).
func candidates(f FS, dir string) []string {
	var out []string
	if _, real := f.(OS); real {
		d, err := openFile(dir, os.O_RDONLY|dirOnly, 0)
		if err != nil {
			return nil
		}
		names, _ := d.Readdirnames(-1)
		_ = d.Close()
		for _, n := range names {
			if strings.Contains(n, mcpwireMark) {
				if fi, err := os.Lstat(filepath.Join(dir, n)); err == nil && fi.Mode().IsRegular() {
					out = append(out, n)
				}
			}
		}
		return out
	}
	entries, _ := f.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.Contains(n, mcpwireMark) {
			out = append(out, n)
		}
	}
	return out
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
	// the prefix "." + base + ".mcpwire-", matched without building it: every entry of
	// a directory is matched against every planned file in it
	rnd, ok := strings.CutPrefix(entry, ".")
	if ok {
		rnd, ok = strings.CutPrefix(rnd, base)
	}
	if ok {
		rnd, ok = strings.CutPrefix(rnd, ".mcpwire-")
	}
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

// CleanStale removes the temporary files that interrupted mcpwire runs left beside
// names (issue 11): regular files named .<base>.mcpwire-<random>.tmp, nothing else,
// listing each directory once. It runs only while the names' locks are held: every
// mcpwire write of a file creates its temporary file under that file's lock and
// removes it before releasing it, so such a file belongs to no running mcpwire
// process. Files it cannot list or remove are left (best effort: they cost space, not
// correctness).
func (o OS) CleanStale(names ...string) {
	bases := map[string][]string{}
	var dirs []string
	for _, name := range names {
		dir, base := filepath.Split(name)
		if dir == "" {
			dir = "."
		}
		if _, ok := bases[dir]; !ok {
			dirs = append(dirs, dir)
		}
		bases[dir] = append(bases[dir], base)
	}
	for _, dir := range dirs {
		d, err := openFile(dir, os.O_RDONLY|dirOnly, 0)
		if err != nil {
			continue
		}
		entries, _ := d.Readdirnames(-1)
		_ = d.Close()
		for _, e := range entries {
			if !slices.ContainsFunc(bases[dir], func(base string) bool { return isTempName(e, base) }) {
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
}

// CleanLocks removes the lock files of names that their [Target.Guard]'s lock
// serialises now: an earlier mcpwire locked such a file on its own, and a lock file it
// left (killed, with the lock gone with it) would otherwise mark the file as left
// over by an interrupted run on every later run. It runs under the guard's lock, which
// every writer of the file holds as well; where a lock does not die with its process
// a lock file may be held still, and is left.
func (o OS) CleanLocks(names ...string) {
	if !locksDieWithProcess {
		return
	}
	for _, name := range names {
		p := name + LockSuffix
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && os.Remove(p) == nil {
			o.after("clean", p)
		}
	}
}
