package layers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// CheckWrite refuses overlapping layer targets before any write (L8): the write
// directory listed twice or aliased by a lower layer (compared by real path; a
// missing suffix case-folded where the filesystem is case-insensitive), a write
// directory nested inside a lower layer, or a write file that aliases a lower-layer
// file.
func (s *Set) CheckWrite() error {
	if len(s.Layers) == 0 {
		return errNoLayers
	}
	w := s.Write()
	wdir, err := fsys.Canonical(w.Dir)
	if err != nil {
		return fmt.Errorf("%s: %w", w.Dir, err)
	}
	var wfiles []string
	for _, k := range []Kind{Servers, Profiles} {
		c, err := fsys.Canonical(w.File(k).Path)
		if err != nil {
			return fmt.Errorf("%s: %w", w.File(k).Path, err)
		}
		wfiles = append(wfiles, c)
	}
	for _, l := range s.Lower() {
		ldir, err := fsys.Canonical(l.Dir)
		if err != nil {
			return fmt.Errorf("%s: %w", l.Dir, err)
		}
		switch {
		case samePath(wdir, ldir) || s.sameFile(w.Dir, l.Dir):
			return overlapErr("the write layer %s is the same directory as the lower layer %s", w.Dir, l.Dir)
		case within(wdir, ldir):
			return overlapErr("the write layer %s is inside the lower layer %s", w.Dir, l.Dir)
		}
		for _, k := range []Kind{Servers, Profiles} {
			lf, err := fsys.Canonical(l.File(k).Path)
			if err != nil {
				return fmt.Errorf("%s: %w", l.File(k).Path, err)
			}
			for i, wf := range wfiles {
				if samePath(wf, lf) || s.sameFile(w.File(Kind(i)).Path, l.File(k).Path) {
					return overlapErr("the write layer file %s is the lower layer file %s", w.File(Kind(i)).Path, l.File(k).Path)
				}
			}
		}
	}
	return nil
}

// sameFile reports whether two existing paths are one file or directory (a hard
// link, a bind mount), which real paths cannot show.
func (s *Set) sameFile(a, b string) bool {
	fa, err := s.fs.Stat(a)
	if err != nil {
		return false
	}
	fb, err := s.fs.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(fa, fb)
}

func overlapErr(format string, args ...any) error {
	return fmt.Errorf("overlapping configuration layer targets: "+format, args...)
}

// samePath compares two canonical paths, case-folded where the filesystem holding
// them is case-insensitive.
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	return strings.EqualFold(a, b) && caseInsensitive(commonExisting(a))
}

// within reports whether a is strictly inside b.
func within(a, b string) bool {
	sep := string(filepath.Separator)
	bb := strings.TrimSuffix(b, sep) + sep
	if strings.HasPrefix(a, bb) {
		return true
	}
	return len(a) > len(bb) && strings.EqualFold(a[:len(bb)], bb) && caseInsensitive(commonExisting(b))
}

// commonExisting returns the nearest existing ancestor of p (p itself if it exists).
func commonExisting(p string) string {
	for {
		if _, err := os.Lstat(p); err == nil {
			return p
		}
		parent := filepath.Dir(p)
		if parent == p {
			return p
		}
		p = parent
	}
}

// caseInsensitive is probeCaseInsensitive; tests replace it.
var caseInsensitive = probeCaseInsensitive

// probeCaseInsensitive probes dir by creating and removing a temporary file whose name
// has upper-case letters and looking it up in lower case. A directory that cannot be
// probed is treated as case-insensitive (the conservative answer).
func probeCaseInsensitive(dir string) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	f, err := os.CreateTemp(dir, ".MCPWIRE-CASE-PROBE-*")
	if err != nil {
		return true
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	lower := filepath.Join(filepath.Dir(name), strings.ToLower(filepath.Base(name)))
	_, err = os.Lstat(lower)
	return err == nil
}
