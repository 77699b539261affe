package fsys

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// errTooManyLinks reports a symlink loop in the overlay.
var errTooManyLinks = errors.New("too many levels of symbolic links")

// errNotEmpty reports the removal of a directory that has entries.
var errNotEmpty = errors.New("directory not empty")

// Intent is one write a [DryRun] recorded instead of doing it.
type Intent struct {
	// Op is "write", "mkdir" (Mkdir and MkdirTemp), "remove", "chmod" or "symlink".
	Op string
	// Path is the file or directory acted on (the new link for "symlink").
	Path string
	// Data is the content of a "write"; nil when it was written in pieces (then
	// Content holds them).
	Data []byte
	// Content is the content of a "write", in pieces or not.
	Content Content
	// Mode is the mode of a "write", "mkdir" or "chmod".
	Mode fs.FileMode
	// Old is what a "write", "remove" or "chmod" found at Path before it, as seen by
	// the dry run (nil for directories and symlinks).
	Old *Snapshot
	// Target is the target of a "symlink".
	Target string
}

// DryRun is an [FS] that never writes (W9, --dry-run). Reads pass through to the
// wrapped FS, but what the dry run wrote, created or removed earlier is visible to
// later reads, so a multi-step operation plans exactly as it would for real. Lock
// creates nothing. Use [DryRun.Intents] and [DryRun.Diff] to report what would have
// happened. A DryRun holds each version of a file once (see [DryRun.WriteFile]) and
// diffs only the changed region of a file (see [DryRun.Diff]). A DryRun is not safe
// for concurrent use.
type DryRun struct {
	base    FS
	nodes   map[string]*node // the overlay: the current state of every touched path
	orig    map[string]*node // the state of every touched path before the first change
	order   []string         // touched paths, in order of first change
	intents []Intent
}

var _ FS = (*DryRun)(nil)

type nodeKind int

const (
	kindAbsent nodeKind = iota
	kindFile
	kindDir
	kindSymlink
)

// node is the overlay state of one path.
type node struct {
	kind nodeKind
	data []byte
	// split is a file's content written in pieces (WriteContent): data is nil until
	// a read of the file joins them (bytes)
	split  Content
	mode   fs.FileMode // permission bits
	target string
	mtime  time.Time
}

// NewDryRun returns a dry run over base (normally [OS]).
func NewDryRun(base FS) *DryRun {
	return &DryRun{base: base, nodes: map[string]*node{}, orig: map[string]*node{}}
}

// Intents returns the recorded writes, in order. Their bytes are the dry run's own:
// the caller must not change them.
func (d *DryRun) Intents() []Intent { return slices.Clone(d.intents) }

// maxOverlayLinks bounds the symlinks followed through the overlay.
const maxOverlayLinks = 40

// ReadFile returns the contents of the named file as the dry run sees it.
func (d *DryRun) ReadFile(name string) ([]byte, error) {
	data, overlay, err := d.read(name)
	if overlay {
		return bytes.Clone(data), err
	}
	return data, err
}

// read returns the contents of the named file as the dry run sees it, and whether
// they are the dry run's own bytes (not a copy: the caller must not change them).
func (d *DryRun) read(name string) (data []byte, overlay bool, err error) {
	for range maxOverlayLinks {
		n, ok := d.nodes[filepath.Clean(name)]
		switch {
		case !ok:
			data, err := d.base.ReadFile(name)
			return data, false, err
		case n.kind == kindAbsent:
			return nil, false, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		case n.kind == kindDir:
			return nil, false, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
		case n.kind == kindSymlink:
			name = linkTarget(name, n.target)
			continue
		}
		return n.bytes(), true, nil
	}
	return nil, false, &fs.PathError{Op: "open", Path: name, Err: errTooManyLinks}
}

// sameContent reports whether name holds what want describes, as the dry run sees
// it: a file the dry run has not touched is compared by the wrapped FS (streamed from
// disk by [OS], not read whole).
func (d *DryRun) sameContent(name string, want Snapshot) (bool, error) {
	if _, ok := d.nodes[filepath.Clean(name)]; !ok {
		return SameContent(d.base, name, want)
	}
	cur := d.snapshot(filepath.Clean(name))
	return cur.Exists == want.Exists && bigbuf.Same(cur.Data, want.Data), nil
}

// Lstat describes the named file without following a final symlink.
func (d *DryRun) Lstat(name string) (fs.FileInfo, error) {
	n, ok := d.nodes[filepath.Clean(name)]
	switch {
	case !ok:
		return d.base.Lstat(name)
	case n.kind == kindAbsent:
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	return &nodeInfo{name: filepath.Base(name), n: n}, nil
}

// Stat describes the named file, following symlinks.
func (d *DryRun) Stat(name string) (fs.FileInfo, error) {
	for range maxOverlayLinks {
		n, ok := d.nodes[filepath.Clean(name)]
		switch {
		case !ok:
			return d.base.Stat(name)
		case n.kind == kindAbsent:
			return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
		case n.kind == kindSymlink:
			name = linkTarget(name, n.target)
			continue
		}
		return &nodeInfo{name: filepath.Base(name), n: n}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: errTooManyLinks}
}

// ReadDir lists a directory, merging the overlay into the wrapped FS's listing.
func (d *DryRun) ReadDir(name string) ([]fs.DirEntry, error) {
	dir := filepath.Clean(name)
	fi, err := d.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: syscall.ENOTDIR}
	}
	entries, err := d.base.ReadDir(dir)
	if err != nil && !IsNotExist(err) {
		return nil, err
	}
	byName := make(map[string]fs.DirEntry, len(entries))
	for _, e := range entries {
		byName[e.Name()] = e
	}
	for p, n := range d.nodes {
		if filepath.Dir(p) != dir || p == dir {
			continue
		}
		base := filepath.Base(p)
		if n.kind == kindAbsent {
			delete(byName, base)
		} else {
			byName[base] = fs.FileInfoToDirEntry(&nodeInfo{name: base, n: n})
		}
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// EvalSymlinks resolves symlinks like the wrapped FS, walking through directories and
// symlinks the dry run created.
func (d *DryRun) EvalSymlinks(name string) (string, error) {
	return d.evalSymlinks(filepath.Clean(name), 0)
}

func (d *DryRun) evalSymlinks(name string, depth int) (string, error) {
	if depth > maxOverlayLinks {
		return "", &fs.PathError{Op: "lstat", Path: name, Err: errTooManyLinks}
	}
	touched := false
	for p := name; ; p = filepath.Dir(p) {
		if _, ok := d.nodes[p]; ok {
			touched = true
			break
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	if !touched {
		return d.base.EvalSymlinks(name)
	}
	parent := filepath.Dir(name)
	resolved := parent
	if parent != name {
		r, err := d.evalSymlinks(parent, depth)
		if err != nil {
			return "", err
		}
		resolved = r
	}
	cur := filepath.Join(resolved, filepath.Base(name))
	if parent == name {
		cur = name
	}
	n, ok := d.nodes[name]
	if !ok {
		n, ok = d.nodes[cur]
	}
	switch {
	case !ok:
		return d.base.EvalSymlinks(cur)
	case n.kind == kindAbsent:
		return "", &fs.PathError{Op: "lstat", Path: cur, Err: fs.ErrNotExist}
	case n.kind == kindSymlink:
		return d.evalSymlinks(linkTarget(cur, n.target), depth+1)
	}
	return cur, nil
}

// checkParent fails like the real call would when p's directory is missing.
func (d *DryRun) checkParent(op, p string) error {
	fi, err := d.Stat(filepath.Dir(p))
	if err != nil {
		return &fs.PathError{Op: op, Path: p, Err: fs.ErrNotExist}
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: op, Path: p, Err: syscall.ENOTDIR}
	}
	return nil
}

// snapshot returns what p holds now, as the dry run sees it. Its bytes are the dry
// run's own (see read).
func (d *DryRun) snapshot(p string) *Snapshot {
	fi, err := d.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return &Snapshot{}
	}
	data, _, err := d.read(p)
	if err != nil {
		return &Snapshot{}
	}
	return &Snapshot{Exists: true, Data: data, Mode: fi.Mode().Perm()}
}

// set changes p in the overlay, first remembering its original state: old, when the
// caller has read p as a regular file or found it absent (nil: look it up).
func (d *DryRun) set(p string, n *node, old *Snapshot) {
	if _, ok := d.orig[p]; !ok {
		switch {
		case old == nil:
			d.orig[p] = d.current(p)
		case old.Exists:
			d.orig[p] = &node{kind: kindFile, data: old.Data, mode: old.Mode}
		default:
			d.orig[p] = &node{kind: kindAbsent}
		}
		d.order = append(d.order, p)
	}
	n.mtime = time.Now()
	d.nodes[p] = n
}

// current returns p's state as a node (a symlink's target is unknown unless the dry
// run made it).
func (d *DryRun) current(p string) *node {
	fi, err := d.Lstat(p)
	switch {
	case err != nil:
		return &node{kind: kindAbsent}
	case fi.IsDir():
		return &node{kind: kindDir, mode: fi.Mode().Perm()}
	case fi.Mode()&fs.ModeSymlink != 0:
		if n, ok := d.nodes[p]; ok {
			return n
		}
		return &node{kind: kindSymlink}
	}
	s := d.snapshot(p)
	return &node{kind: kindFile, data: s.Data, mode: s.Mode}
}

// linkTarget resolves a symlink's target relative to the link's directory.
func linkTarget(link, target string) string {
	if filepath.IsAbs(target) {
		return target
	}
	return filepath.Join(filepath.Dir(link), target)
}

// nodeInfo is the fs.FileInfo of an overlay node.
type nodeInfo struct {
	name string
	n    *node
}

func (i *nodeInfo) Name() string { return i.name }
func (i *nodeInfo) Size() int64 {
	if i.n.kind == kindSymlink {
		return int64(len(i.n.target))
	}
	return int64(i.n.size())
}

func (i *nodeInfo) Mode() fs.FileMode {
	switch i.n.kind {
	case kindDir:
		return fs.ModeDir | i.n.mode
	case kindSymlink:
		return fs.ModeSymlink | i.n.mode
	}
	return i.n.mode
}
func (i *nodeInfo) ModTime() time.Time { return i.n.mtime }
func (i *nodeInfo) IsDir() bool        { return i.n.kind == kindDir }
func (i *nodeInfo) Sys() any           { return nil }

// bytes returns a file node's content, joining its pieces the first time.
func (n *node) bytes() []byte {
	if n.data == nil && n.split.Split() {
		n.data = n.split.Bytes()
	}
	return n.data
}

// size is a file node's length.
func (n *node) size() int {
	if n.split.Split() {
		return n.split.Len()
	}
	return len(n.data)
}

// content is a file node's content, in pieces when it was written so.
func (n *node) content() Content {
	if n.split.Split() {
		return n.split
	}
	return ContentOf(n.data)
}
