package write

import (
	"cmp"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render"
)

// missingDirs returns the directories of path that do not exist, outermost first.
func missingDirs(f fsys.FS, path string) []string {
	var out []string
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		if _, err := f.Lstat(d); !fsys.IsNotExist(err) || filepath.Dir(d) == d {
			break
		}
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// createdDirs are the directories of path mcpwire created: those missing when the
// edit first looked (missing, created by this transaction), and those a record (or an
// interrupted run's staged record) says it created that are still there.
func createdDirs(f fsys.FS, path string, missing []string, known ...*render.CreatedFile) []string {
	out := slices.Clone(missing)
	for _, c := range known {
		if c == nil {
			continue
		}
		for _, d := range c.Dirs {
			if slices.Contains(out, d) || d == filepath.Dir(d) || !render.Within(path, d) || d == path {
				continue
			}
			if fi, err := f.Lstat(d); err == nil && fi.IsDir() {
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	return out
}

// nextCreated is what the record says after an edit of a file from cur to out (write:
// it writes the file when absent), starting from what the settled record said (base)
// and the directories an interrupted run's staged record named (intent), and whether
// the file goes: mcpwire created it, nobody changed it since, and it holds no entry any
// more (empty).
func nextCreated(f fsys.FS, path string, cur fsys.Snapshot, out fsys.Content, base, intent *render.CreatedFile, missing []string, write, empty bool) (*render.CreatedFile, bool) {
	switch {
	case !cur.Exists && write:
		return &render.CreatedFile{Dirs: createdDirs(f, path, missing, base, intent), Digest: contentDigest(out)}, false
	case !cur.Exists:
		if dirs := createdDirs(f, path, nil, base, intent); len(dirs) > 0 {
			return &render.CreatedFile{Dirs: dirs}, false // the directories of a file that went
		}
		return nil, false
	case base == nil || base.Digest == "" || base.Digest != render.ContentDigest(cur.Data):
		return nil, false // not created by mcpwire, or changed since by someone else
	case empty:
		return &render.CreatedFile{Dirs: createdDirs(f, path, nil, base)}, true
	}
	return &render.CreatedFile{Dirs: base.Dirs, Digest: contentDigest(out)}, false
}

// removal is a record whose file mcpwire removed (or found gone) with directories it
// had created: they go once the transaction released its locks (the lock files are in
// them), deepest first and each only when empty, then the record.
type removal struct {
	record string
	data   []byte // the record as the transaction wrote it
	dirs   []string
}

// finishRemovals removes the directories of the files the transaction removed, then
// their records. A directory that is not empty stays (someone put a file there), and
// so do those above it; the record goes all the same: what is left is not only
// mcpwire's any more. A crash in between leaves the record, which the next run that
// reads it finishes.
func finishRemovals(f fsys.FS, list []removal, warn func(string)) {
	var targets []fsys.Target
	for _, r := range list {
		for _, d := range slices.Backward(r.dirs) {
			if err := f.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
		r := r
		targets = append(targets, fsys.Target{
			Path: r.record,
			Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
				if cur.Exists && string(cur.Data) != string(r.data) {
					return cur.Data, 0, false, nil // another run wrote it since
				}
				return nil, 0, true, nil
			},
		})
	}
	if len(targets) == 0 {
		return
	}
	if _, err := fsys.Apply(f, targets); err != nil && warn != nil {
		warn("could not remove an ownership record of a removed file (the next run removes it): " + err.Error())
	}
}
