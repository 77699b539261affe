package manifest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb"
)

// StoreDir is the directory of the write layer that holds unpacked bundles (M3).
const StoreDir = "mcp-bundles"

// Store is where bundles are unpacked: one directory per bundle version,
// <layer>/mcp-bundles/<name>-<version>-<sha256 prefix>, and beside it the record of
// what mcpwire wrote there, <that directory>.json, written last. A directory without
// its record is an unpack that did not finish (a crash, a kill): it is removed
// before anything else touches the store (Prune), so no later run trips on it.
// Every change happens under the store's lock, <layer>/mcp-bundles.mcpwire.lock.
type Store struct {
	FS   fsys.FS
	Root string
}

// NewStore is the bundle store of a write layer directory.
func NewStore(f fsys.FS, layerDir string) Store {
	return Store{FS: f, Root: filepath.Join(layerDir, StoreDir)}
}

// unpacked is the record of one unpacked bundle.
type unpacked struct {
	SHA256  string   `json:"sha256"`
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Files   []string `json:"files"`
	Dirs    []string `json:"dirs,omitempty"`
	Links   []string `json:"links,omitempty"`
}

// Dir is the directory of a bundle version.
func (st Store) Dir(name, version, sha string) string {
	return filepath.Join(st.Root, pathPart(name)+"-"+pathPart(version)+"-"+sha[:12])
}

// pathPart is a name or version as part of a directory name.
func pathPart(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '-'
	}, s)
	s = strings.Trim(s, ".-")
	if len(s) > 48 {
		s = s[:48]
	}
	if s == "" {
		s = "bundle"
	}
	return s
}

func recordPath(dir string) string { return dir + ".json" }

// Lock takes the store's lock, creating the write layer's directory (0700) first
// when it is missing (L13).
func (st Store) Lock() (func() error, error) {
	layer := filepath.Dir(st.Root)
	if _, err := st.FS.Lstat(layer); fsys.IsNotExist(err) {
		if err := mkdirAll(st.FS, layer); err != nil {
			return nil, err
		}
	}
	return st.FS.Lock(st.Root)
}

func mkdirAll(f fsys.FS, dir string) error { return fsys.MkdirAll(f, dir, 0o700) }

// Complete reports whether dir holds the whole of the bundle with digest sha.
func (st Store) Complete(dir, sha string) bool {
	u, err := st.read(dir)
	return err == nil && u.SHA256 == sha
}

func (st Store) read(dir string) (*unpacked, error) {
	b, err := st.FS.ReadFile(recordPath(dir))
	if err != nil {
		return nil, err
	}
	var u unpacked
	if err := json.Unmarshal(b, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// chunk bounds what one transaction of Unpack writes.
const (
	chunkFiles = 256
	chunkBytes = 32 << 20
)

// Unpack writes a checked bundle into dir (Store.Dir), unless it is there complete
// already (fresh false). The files go in transactions of the fsys seam (temporary
// files synced together, then renamed); the record last. Call it under Lock.
func (st Store) Unpack(a *mcpb.Archive, dir, sha string) (fresh bool, err error) {
	if runtime.GOOS == "windows" {
		for _, e := range a.Entries {
			if strings.ContainsAny(e.Name, `:*?"<>|`) {
				return false, fmt.Errorf("entry %q: a name Windows cannot hold (a ':' would write an alternate data stream)", e.Name)
			}
		}
	}
	if st.Complete(dir, sha) {
		return false, nil
	}
	if _, err := st.FS.Lstat(dir); err == nil {
		if err := removeTree(st.FS, dir); err != nil {
			return false, fmt.Errorf("remove the unfinished unpack %s: %w", dir, err)
		}
	}
	if err := mkdirAll(st.FS, st.Root); err != nil {
		return false, err
	}
	if err := st.FS.Mkdir(dir, 0o700); err != nil {
		return false, err
	}
	u := unpacked{SHA256: sha, Name: a.Manifest.Name, Version: a.Manifest.Version}
	var targets []fsys.Target
	var size int
	flush := func() error {
		if len(targets) == 0 {
			return nil
		}
		_, err := fsys.Apply(st.FS, targets)
		targets, size = nil, 0
		return err
	}
	for _, e := range a.Entries {
		p := filepath.Join(dir, filepath.FromSlash(e.Name))
		switch e.Kind {
		case mcpb.Dir:
			if _, err := st.FS.Lstat(p); err != nil {
				if err := mkdirAll(st.FS, p); err != nil {
					return true, err
				}
			}
			u.Dirs = append(u.Dirs, e.Name)
		case mcpb.File:
			data, err := e.ReadAll()
			if err != nil {
				return true, err
			}
			perm := fs.FileMode(0o600)
			if e.Exec {
				perm = 0o700
			}
			targets = append(targets, fsys.Target{
				Path: p, DirPerm: 0o700, Batch: 1, Guard: recordPath(dir),
				Edit: func(fsys.Snapshot) ([]byte, fs.FileMode, bool, error) { return data, perm, false, nil },
			})
			size += len(data)
			u.Files = append(u.Files, e.Name)
			if len(targets) >= chunkFiles || size >= chunkBytes {
				if err := flush(); err != nil {
					return true, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return true, err
	}
	for _, e := range a.Entries {
		if e.Kind == mcpb.Link {
			p := filepath.Join(dir, filepath.FromSlash(e.Name))
			if err := mkdirAll(st.FS, filepath.Dir(p)); err != nil {
				return true, err
			}
			if err := st.FS.Symlink(filepath.FromSlash(e.Target), p); err != nil {
				return true, err
			}
			u.Links = append(u.Links, e.Name)
		}
	}
	b, _ := json.MarshalIndent(u, "", "  ")
	return true, st.FS.WriteFile(recordPath(dir), append(b, '\n'), 0o600, nil)
}

// Remove removes an unpacked bundle: its record first (from then on it is an
// unfinished unpack, which Prune removes whole), then its directory. The directory
// is mcpwire's: anything in it goes with it.
func (st Store) Remove(dir string) error {
	if err := st.FS.Remove(recordPath(dir)); err != nil && !fsys.IsNotExist(err) {
		return err
	}
	return removeTree(st.FS, dir)
}

// removeTree removes a directory and everything below it, links as links (never
// what they point to).
func removeTree(f fsys.FS, dir string) error {
	fi, err := f.Lstat(dir)
	if err != nil {
		if fsys.IsNotExist(err) {
			return nil
		}
		return err
	}
	if fi.IsDir() {
		ents, err := f.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := removeTree(f, filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return f.Remove(dir)
}

// Dirs lists the bundle directories of the store (complete or not).
func (st Store) Dirs() ([]string, error) {
	ents, err := st.FS.ReadDir(st.Root)
	if fsys.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		p := filepath.Join(st.Root, e.Name())
		if e.IsDir() {
			out = append(out, p)
		} else if d, ok := strings.CutSuffix(p, ".json"); ok && !slices.Contains(out, d) {
			if _, err := st.FS.Lstat(d); fsys.IsNotExist(err) {
				out = append(out, d) // a record left by a removal that stopped
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// Prune removes every bundle directory no server uses, every unfinished unpack, and
// the temporary file of a record whose write was interrupted. Call it under Lock (no
// other process writes in the store then). It returns the directories removed.
func (st Store) Prune(inUse func(dir string) bool) ([]string, error) {
	dirs, err := st.Dirs()
	if err != nil {
		return nil, err
	}
	if ents, err := st.FS.ReadDir(st.Root); err == nil {
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && strings.HasPrefix(n, ".") && strings.Contains(n, ".json.mcpwire-") && strings.HasSuffix(n, ".tmp") {
				if err := st.FS.Remove(filepath.Join(st.Root, n)); err != nil && !fsys.IsNotExist(err) {
					return nil, err
				}
			}
		}
	}
	var removed []string
	for _, d := range dirs {
		if inUse(d) {
			continue
		}
		if err := st.Remove(d); err != nil {
			return removed, err
		}
		removed = append(removed, d)
	}
	if ents, err := st.FS.ReadDir(st.Root); err == nil && len(ents) == 0 {
		_ = st.FS.Remove(st.Root) // the last bundle gone: nothing left behind
	}
	return removed, nil
}
