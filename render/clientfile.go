package render

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/format"
	"github.com/mcpwire/mcpwire/render/fsys"
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
	target dialect.Target
	d      dialect.Dialect
	env    providers.PathEnv
	// local is set for a project's own servers in a file shared by every project
	// (Claude Code's local scope): their record is their own.
	local localRecord
	// refused: the file has no byte in it, which inject refuses in its format (K9)
	refused bool
}

// ClientEntry is one server entry of a client file.
type ClientEntry struct {
	Name string
	// Digest is the ownership digest of the entry as it is (C6).
	Digest string
	// Framed: the entry sits inside mcpwire's frame lines (Grok Build).
	Framed bool
	// Read is the entry read back; nil when it cannot be, and Err says why (the
	// member and the reason, never a value).
	Read *dialect.Imported
	Err  error
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

// Entry returns the entry of a name.
func (c *ClientFile) Entry(name string) (*ClientEntry, bool) {
	for i := range c.Entries {
		if c.Entries[i].Name == name {
			return &c.Entries[i], true
		}
	}
	return nil, false
}

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
	path, err = choosePath(f, d, env)
	var elsewhere *providers.OnlyError
	if errors.As(err, &elsewhere) {
		return "", false, nil // a file of a client that does not run on this system
	}
	if err != nil {
		return "", false, err
	}
	if scope == providers.Project && checkNotUserFile(p, path, env) != nil {
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
	path, exists, err := ClientPath(f, p, scope, env)
	if err != nil || !exists {
		return nil, err
	}
	fi, err := f.Stat(path)
	if err != nil {
		return nil, err
	}
	data, err := f.ReadFile(path)
	if err != nil {
		return nil, err
	}
	// the file as inject would edit it: the provider as it spells entries there (a file
	// several clients read, V10), where the servers sit (a project's own in a file
	// shared by every project, V11)
	edit, _ := (&Request{Provider: p, Project: env.Project, Env: env}).newEdit(scope, path)
	d := edit.d
	c := &ClientFile{Provider: p, Scope: scope, Path: path, Mode: fi.Mode().Perm(), d: d, env: env,
		target: dialect.Target{P: edit.p, Scope: scope, Project: env.Project, Home: env.Home}}
	if scope != providers.User {
		c.Project = env.Project
	}
	c.refused = refusesEmpty(p.Format, true, data)
	if p.Dest(scope).Nested() {
		c.local = localRecord{Scope: scope, Project: env.Project, Container: edit.servers}
	}
	if c.doc, err = format.Parse(p.Format, path, data, true); err != nil {
		return nil, err
	}
	container := edit.container(c.doc)
	if _, ok := c.doc.Lookup(container.Path...); !ok && c.local.Scope != "" {
		return nil, nil // no servers of this project in the file shared by every project
	}
	if c.es, err = c.doc.Entries(container); err != nil {
		return nil, err
	}
	for _, n := range c.es.Names() {
		e, _ := c.es.Get(n)
		ce := ClientEntry{Name: n, Digest: e.Digest(), Framed: e.Framed()}
		ce.Read, ce.Err = dialect.ReadBack(c.target, d, e.JSON())
		c.Entries = append(c.Entries, ce)
	}
	if pr, ok := d.(dialect.Prompter); ok {
		// the inputs the entries ask for are declared beside them (T3)
		decls := pr.ReadInputs(c.Lookup)
		for _, e := range c.Entries {
			if e.Read != nil {
				dialect.AttachInputs(e.Read.Server, decls)
			}
		}
	}
	if layerDir != "" {
		if err := c.readRecord(f, layerDir); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// readRecord reads the file's ownership record, when there is one, settled against
// the file when an interrupted run left a staged record beside it (staging.go).
func (c *ClientFile) readRecord(f fsys.FS, layerDir string) error {
	own, err := newOwnState(f, layerDir, c.Path, c.Provider.Name, c.local)
	if err != nil {
		return err
	}
	c.RecordPath = own.path
	if !own.exists && !own.staged {
		return nil
	}
	rec := own.rec
	if own.stage != nil {
		rec, _ = own.stage.settle(own.rec, entryDigest(c.d, c.doc, c.es))
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
	for _, p := range ps {
		for _, scope := range p.Scopes() {
			if scope == providers.Project && env.Project == "" {
				continue
			}
			c, err := OpenClientFile(f, p, scope, env, layerDir)
			switch {
			case err != nil:
				path, _, _ := ClientPath(f, p, scope, env)
				errs = append(errs, &FileError{Provider: p, Scope: scope, Path: path, Err: err})
			case c != nil:
				files = append(files, c)
			}
		}
	}
	return files, errs
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
