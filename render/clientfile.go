package render

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// ClientFile is one client's file as it is on disk, its server entries read back
// through the client's dialect (issue 14: import, status, audit). Reading it changes
// nothing.
type ClientFile struct {
	Provider *providers.Provider
	Scope    providers.Scope
	// Project is the project directory of a project-scope file.
	Project string
	Path    string
	// Mode is the file's permission bits.
	Mode fs.FileMode
	// Entries are the server entries, in file order.
	Entries []ClientEntry
	// Record holds the ownership record's entries (C6), nil when there is no record;
	// RecordPath is the record file.
	Record     map[string]string
	RecordPath string
	// TakenOver are the recorded entries that replaced one of the person's with
	// --force: the record keeps it, to put back (H1).
	TakenOver []string

	doc    format.Document
	es     format.Entries
	target providers.Target
	d      providers.Dialect
	env    providers.PathEnv
	// local is set for a project's own servers in a file shared by every project
	// (Claude Code's local scope): their record is their own.
	local LocalRecord
	// refused: the file has no byte in it, which inject refuses in its format (K9)
	refused bool
	// index finds an entry of indexed by name (Entry), built on first use
	index   map[string]int
	indexed []ClientEntry
	// inputs are the input declarations beside the entries (ReadInputs), nil for none
	inputs *[]registry.Input
	// unread: the entries are read back in parts (EachPart), not when opened
	unread bool
}

// ClientEntry is one server entry of a client file.
type ClientEntry struct {
	Name string
	// Framed: the entry sits inside mcpwire's frame lines (Grok Build).
	Framed bool
	// Read is the entry read back; nil when it cannot be, and Err says why (the
	// member and the reason, never a value).
	Read *providers.Imported
	Err  error

	src *listed // the entry as the reader listed it, shared by every client reading it
}

// Digest is the ownership digest of the entry as it is (C6), worked out on first use:
// status needs those of the recorded entries only, audit none (K7).
func (e *ClientEntry) Digest() string { return e.src.digest() }

// JSON is the entry as standard JSON, as it is in the file; nil when it was listed by
// name alone (ClientReader.Only).
func (e *ClientEntry) JSON() json.RawMessage { return e.src.json }

// listed is an entry as a ClientReader lists it, once for every client reading its
// file: its name, whether it sits in its frame, its standard JSON, and its digest once
// asked for.
type listed struct {
	name   string
	framed bool
	json   []byte
	entry  format.Entry // for a digest not of its JSON (TOML)
	once   sync.Once
	sum    string
}

func (l *listed) digest() string {
	l.once.Do(func() {
		if l.json == nil && l.entry == nil {
			return // listed by name alone (ClientReader.Only): no digest
		}
		if l.entry != nil {
			l.sum = l.entry.Digest()
		} else {
			l.sum = format.DigestOnce(l.json) // one of every entry of the file (K7)
		}
		l.entry = nil
	})
	return l.sum
}

// Key identifies the entries the file holds: its path, and where in it they sit (a
// project's own servers in a file shared by every project, V11). A file several
// clients read (V10) has one key, whichever client opened it.
func (c *ClientFile) Key() string {
	return c.Path + "\x00" + strings.Join(c.local.Container, "\x00")
}

// Lookup returns a member of the file outside its entries, as standard JSON.
func (c *ClientFile) Lookup(path ...string) (json.RawMessage, bool) {
	v, ok := c.doc.Lookup(path...)
	if !ok {
		return nil, false
	}
	return v.JSON(), true
}

// Entry returns the entry of a name (the first, should the file hold two).
func (c *ClientFile) Entry(name string) (*ClientEntry, bool) {
	if len(c.Entries) < indexEntriesFrom {
		for i := range c.Entries {
			countEntryStep()
			if c.Entries[i].Name == name {
				return &c.Entries[i], true
			}
		}
		return nil, false
	}
	if len(c.indexed) != len(c.Entries) || &c.indexed[0] != &c.Entries[0] { // built for these entries
		c.index, c.indexed = make(map[string]int, len(c.Entries)), c.Entries
		for i := len(c.Entries) - 1; i >= 0; i-- {
			countEntryStep()
			c.index[c.Entries[i].Name] = i
		}
	}
	countEntryStep()
	if i, ok := c.index[name]; ok {
		return &c.Entries[i], true
	}
	return nil, false
}

// entrySteps counts the entries Entry looks at, when a test sets it (K7).
var entrySteps *int

func countEntryStep() {
	if entrySteps != nil {
		*entrySteps++
	}
}

// indexEntriesFrom is the number of entries from which Entry finds them by an index:
// import --adopt and --as-profile look up every entry of the file (K7).
const indexEntriesFrom = 64

// ClientPath returns the file a provider uses for a scope here, as inject chooses it
// (a packaged build's copy first, then the first existing candidate), and whether it
// exists. A project-scope file that is the client's user file (the project is the
// home directory) is not one, nor is a file of a client that does not run on this
// system (Visual Studio's user file off Windows): exists is false.
func ClientPath(f fsys.FS, p *providers.Provider, scope providers.Scope, env providers.PathEnv) (path string, exists bool, err error) {
	d := p.Dest(scope)
	if d == nil {
		return "", false, nil
	}
	path, err = ChoosePath(f, d, env)
	var elsewhere *providers.OnlyError
	if errors.As(err, &elsewhere) {
		return "", false, nil // a file of a client that does not run on this system
	}
	if err != nil {
		return "", false, err
	}
	if scope == providers.Project && CheckNotUserFile(p, path, env) != nil {
		return "", false, nil
	}
	if _, err := f.Lstat(path); err != nil {
		if fsys.IsNotExist(err) {
			return path, false, nil
		}
		return path, false, err
	}
	return path, true, nil
}

// OpenClientFile reads the file of provider p for a scope; nil when there is none. A
// file that does not parse is refused naming it. layerDir, when set, is the write
// layer whose ownership record of the file is read too.
func OpenClientFile(f fsys.FS, p *providers.Provider, scope providers.Scope, env providers.PathEnv, layerDir string) (*ClientFile, error) {
	return NewClientReader(f).Open(p, scope, env, layerDir)
}

// ClientReader opens client files for one command (import, status, audit): a file
// several clients read (V10: the project's .mcp.json is read by Claude Code, Copilot
// CLI, Qoder and others) is read and parsed once, and its entries listed and digested
// once, whichever client opens it; only reading each entry back is each client's
// own (K7).
type ClientReader struct {
	f     fsys.FS
	files map[string]*readFile
	// opened are the files opened (ClientFile.Key) when each is opened once
	// (Distinct); nil otherwise
	opened map[string]bool
	// inParts: the entries are read back in parts as they are used (EachPart), not
	// when the file is opened
	inParts bool
	// only, when set, are the entries read back (and digested): the others are listed
	// by name alone (explain SERVER)
	only map[string]bool
}

// Only makes the reader read back and digest only the entries of these names; the
// others are listed by name alone (ClientEntry.Read and Err nil).
func (r *ClientReader) Only(names ...string) *ClientReader {
	r.only = map[string]bool{}
	for _, n := range names {
		r.only[n] = true
	}
	return r
}

// InParts makes the reader read each file's entries back in parts, as they are used
// (ClientFile.EachPart), not when the file is opened (status, K7).
func (r *ClientReader) InParts() *ClientReader {
	r.inParts = true
	return r
}

// readFile is a file as the reader read it: its parse (or why it has none) and its
// entries per container.
type readFile struct {
	mode    fs.FileMode
	empty   bool // the file holds no byte
	doc     format.Document
	err     error
	entries map[string]*readEntries
}

// readEntries are the entries of one container of a read file.
type readEntries struct {
	es   format.Entries
	list []*listed
	err  error
}

// NewClientReader returns a reader of client files through f.
func NewClientReader(f fsys.FS) *ClientReader {
	return &ClientReader{f: f, files: map[string]*readFile{}}
}

// Open reads the file of provider p for a scope, as OpenClientFile does.
func (r *ClientReader) Open(p *providers.Provider, scope providers.Scope, env providers.PathEnv, layerDir string) (*ClientFile, error) {
	path, exists, err := ClientPath(r.f, p, scope, env)
	if err != nil || !exists {
		return nil, err
	}
	return r.OpenAt(p, scope, path, env, layerDir)
}

// OpenAt reads the file at path as provider p's file of a scope, wherever it is (a
// project file found in a parent directory, an administrator's file: explain); nil
// when the file holds no servers of the project in a file shared by every project.
func (r *ClientReader) OpenAt(p *providers.Provider, scope providers.Scope, path string, env providers.PathEnv, layerDir string) (*ClientFile, error) {
	rf := r.read(p.Format, path)
	if rf.err != nil {
		return nil, rf.err
	}
	// the file as inject would edit it: the provider as it spells entries there (a file
	// several clients read, V10), where the servers sit (a project's own in a file
	// shared by every project, V11)
	lay := NewLayout(p, scope, path, env.Project, env)
	d := lay.View.Dialect()
	c := &ClientFile{Provider: p, Scope: scope, Path: path, Mode: rf.mode, d: d, env: env, doc: rf.doc,
		target: providers.Target{P: lay.View, Scope: scope, Project: env.Project, Home: env.Home, Exec: env.Exec, GOOS: env.GOOS}}
	if scope != providers.User {
		c.Project = env.Project
	}
	c.refused = rf.empty && refusesEmpty(p.Format, true, nil)
	if p.Dest(scope).Nested() {
		c.local = LocalRecord{Scope: scope, Project: env.Project, Container: lay.Servers}
	}
	container := lay.Container(c.doc)
	if c.local.Scope != "" && !present(c.doc, container.Path) {
		return nil, nil // no servers of this project in the file shared by every project
	}
	if r.opened != nil {
		if r.opened[c.Key()] {
			return nil, nil // another client's opening of it has its entries (Distinct)
		}
		r.opened[c.Key()] = true
	}
	re := rf.list(container, r.only)
	if re.err != nil {
		return nil, re.err
	}
	c.es = re.es
	c.Entries = make([]ClientEntry, len(re.list))
	for i, l := range re.list {
		c.Entries[i] = ClientEntry{Name: l.name, Framed: l.framed, src: l}
	}
	if decls := d.ReadInputs(c.Lookup); decls != nil {
		// the inputs the entries ask for are declared beside them (T3)
		c.inputs = &decls
	}
	if r.inParts {
		c.unread = true
	} else {
		c.readBack(c.Entries)
	}
	if layerDir != "" {
		if err := c.readRecord(r.f, layerDir); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// parallelFrom is the number of entries from which they are listed and read back on
// every processor: each entry is read apart, and a file of 200,000 entries takes a
// second of processor time per client reading it (K7).
const parallelFrom = 4096

// readBack reads entries of the file back with its dialect, on every processor for a
// long list, with the declarations of the inputs they ask for.
func (c *ClientFile) readBack(entries []ClientEntry) {
	inParallel(len(entries), func(from, to int) {
		for i := from; i < to; i++ {
			e := &entries[i]
			if e.src.json == nil {
				continue // listed by name alone (ClientReader.Only)
			}
			e.Read, e.Err = providers.ReadBack(c.target, c.d, e.src.json)
			if e.Read != nil && c.inputs != nil {
				providers.AttachInputs(e.Read.Server, *c.inputs)
			}
		}
	})
}

// EachPart calls fn with the entries of a file opened by a reader that reads in parts
// (InParts), readPart of them at a time, each part read back first and let go after
// (K7: status of 200,000 entries holds one part's servers at a time, not 200,000).
// The entries of any other file are one part.
func (c *ClientFile) EachPart(fn func([]ClientEntry)) {
	if !c.unread {
		fn(c.Entries)
		return
	}
	for from := 0; from < len(c.Entries); from += readPart {
		part := c.Entries[from:min(from+readPart, len(c.Entries))]
		c.readBack(part)
		fn(part)
		for i := range part {
			part[i].Read, part[i].Err = nil, nil
		}
	}
}

// readPart is how many entries EachPart reads back at a time.
const readPart = 8192

// inParallel calls work over [0, n) split into ranges, one per processor when n is
// at least parallelFrom, and returns when all are done.
func inParallel(n int, work func(from, to int)) {
	workers := min(runtime.GOMAXPROCS(0), 8, n/(parallelFrom/2))
	if workers < 2 {
		work(0, n)
		return
	}
	var wg sync.WaitGroup
	var faults bigbuf.Faults // the entries may be slices of a mapped file (internal/bigbuf)
	for w := range workers {
		wg.Go(func() { faults.Guard(func() { work(w*n/workers, (w+1)*n/workers) }) })
	}
	wg.Wait()
	faults.Raise()
}

// read reads and parses a file once.
func (r *ClientReader) read(f format.Format, path string) *readFile {
	key := string(f) + "\x00" + path
	if rf, ok := r.files[key]; ok {
		return rf
	}
	rf := &readFile{entries: map[string]*readEntries{}}
	r.files[key] = rf
	fi, err := r.f.Stat(path)
	if err != nil {
		rf.err = err
		return rf
	}
	rf.mode = fi.Mode().Perm()
	data, err := r.f.ReadFile(path)
	if err != nil {
		rf.err = err
		return rf
	}
	rf.empty = len(data) == 0
	rf.doc, rf.err = format.Parse(f, path, data, true)
	return rf
}

// list lists the entries of a container of the file once: names, frames and each
// entry as standard JSON, its digest when asked for (only, when set: of those names
// alone, the others by name).
func (rf *readFile) list(c format.Container, only map[string]bool) *readEntries {
	key := strings.Join(c.Path, "\x00") + "\x01" + c.NameKey
	if c.Frame != nil {
		key += "\x01" + c.Frame.Start + "\x01" + c.Frame.End
	}
	if only != nil {
		key += "\x01" + strings.Join(slices.Sorted(maps.Keys(only)), "\x00")
	}
	if re, ok := rf.entries[key]; ok {
		return re
	}
	re := &readEntries{}
	rf.entries[key] = re
	if re.es, re.err = rf.doc.Entries(c); re.err != nil {
		return re
	}
	var names []string
	var all []format.Entry
	if l, ok := re.es.(format.Lister); ok {
		names, all = l.All() // in one pass, not a look-up per name (K7)
	} else {
		names = re.es.Names()
	}
	re.list = make([]*listed, len(names))
	for i, n := range names { // one at a time: a document builds its indexes as it is read
		if only != nil && !only[n] {
			re.list[i] = &listed{name: n}
			continue
		}
		var e format.Entry
		if all != nil {
			e = all[i]
		} else {
			e, _ = re.es.Get(n)
		}
		l := &listed{name: n, framed: e.Framed(), json: e.JSON()}
		if !format.DigestOfJSON(e) {
			l.entry = e
		}
		re.list[i] = l
	}
	return re
}

// present reports whether doc has a member at path (its value is not copied).
func present(doc format.Document, path []string) bool {
	if len(path) == 0 {
		return true
	}
	parent, ok := doc.Lookup(path[:len(path)-1]...)
	if !ok {
		return false
	}
	_, ok = parent.Member(path[len(path)-1])
	return ok
}

// readRecord reads the file's ownership record, when there is one, settled against
// the file when an interrupted run left a staged record beside it (staging.go).
func (c *ClientFile) readRecord(f fsys.FS, layerDir string) error {
	own, err := NewOwnState(f, layerDir, c.Path, c.Provider.Name, c.local)
	if err != nil {
		return err
	}
	c.RecordPath = own.Path
	if !own.Exists && !own.Staged {
		return nil
	}
	rec := own.Rec
	if own.Stage != nil {
		rec, _ = own.Stage.Settle(own.Rec, EntryDigest(c.d, c.doc, c.es))
	}
	c.Record = rec.Entries
	c.TakenOver = slices.Sorted(maps.Keys(rec.Originals))
	return nil
}

// ClientFiles opens the file of every provider of ps in every scope that has one
// here: user files, and the project files of env.Project (none without one). A file
// that cannot be read or parsed is returned in errs as a *FileError, and the walk
// goes on.
func ClientFiles(f fsys.FS, ps []*providers.Provider, env providers.PathEnv, layerDir string) (files []*ClientFile, errs []error) {
	return NewClientReader(f).All(ps, env, layerDir)
}

// All opens the file of every provider of ps in every scope that has one here, as
// ClientFiles does.
func (r *ClientReader) All(ps []*providers.Provider, env providers.PathEnv, layerDir string) (files []*ClientFile, errs []error) {
	for _, p := range ps {
		for _, scope := range p.Scopes() {
			if scope == providers.Project && env.Project == "" {
				continue
			}
			c, err := r.Open(p, scope, env, layerDir)
			switch {
			case err != nil:
				path, _, _ := ClientPath(r.f, p, scope, env)
				errs = append(errs, &FileError{Provider: p, Scope: scope, Path: path, Err: err})
			case c != nil:
				files = append(files, c)
			}
		}
	}
	return files, errs
}

// Distinct opens the file of every provider of ps in every scope that has one here,
// as All does, each file once: a file several clients read (V10) is read back by the
// first of them only (audit checks it once; K7: the project's .mcp.json of 200,000
// entries is not read back three times). A file that cannot be read is an error for
// every client that reads it.
func (r *ClientReader) Distinct(ps []*providers.Provider, env providers.PathEnv, layerDir string) (files []*ClientFile, errs []error) {
	r.opened = map[string]bool{}
	defer func() { r.opened = nil }()
	return r.All(ps, env, layerDir)
}

// FileError is a client file that could not be read or parsed: which client's, in
// which scope, where ("" when even its path could not be chosen), and why. Its text
// is the reason's.
type FileError struct {
	Provider *providers.Provider
	Scope    providers.Scope
	Path     string
	Err      error
}

func (e *FileError) Error() string { return e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// EntryJSON returns an entry of the file as standard JSON, as it is in the file.
func (c *ClientFile) EntryJSON(name string) (json.RawMessage, bool) {
	e, ok := c.es.Get(name)
	if !ok {
		return nil, false
	}
	return e.JSON(), true
}

// Dialect is the dialect the file's entries are spelled in: its client's, as it
// writes that file (Layout).
func (c *ClientFile) Dialect() providers.Dialect { return c.d }

// Document is the file as parsed.
func (c *ClientFile) Document() format.Document { return c.doc }

// Refused reports whether the file holds no byte, which inject refuses in its format
// (K9).
func (c *ClientFile) Refused() bool { return c.refused }
