package render

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/format"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// namedEntry is one server entry to write.
type namedEntry struct {
	name  string
	entry format.Object
}

// fileEdit is the change to one client file: entries to write or remove, with the
// ownership record that says which existing entries are mcpwire's (C6).
type fileEdit struct {
	p      *providers.Provider
	d      dialect.Dialect
	path   string
	set    []namedEntry
	remove []string
	// filters per server, for merging into kept Antigravity entries and for the
	// dialect's edits beyond the entries.
	filters *dialect.FilterSet
	record  *ownRecord
	force   bool
	// keepFilters carries the filter members of rewritten entries over (KeepFilters).
	keepFilters bool

	// Results of the last edit.
	wrote   map[string]string // name → digest of what was written
	dropped []string          // names removed
	kept    []string          // warnings about entries left in place
	// forget are record entries other than servers to drop (a dialect's own, such as
	// opencode's tools keys); notes are the dialect's warnings, said once the file is
	// written.
	forget, notes []string
}

// ownership says how an existing entry stands.
type ownership int

const (
	owned     ownership = iota // written by mcpwire and unchanged since
	identical                  // not mcpwire's, but exactly what mcpwire would write
	foreign                    // not mcpwire's, or changed since mcpwire wrote it
)

// ownerRule is how one ownership mode (C6) treats the entries already in a file.
type ownerRule struct {
	// framed: only an entry inside its frame lines can be mcpwire's (Grok Build).
	framed bool
	// strict: a foreign entry is refused even with --force (OMP).
	strict bool
	// keep: an entry mcpwire does not own keeps its launch configuration, and only the
	// profile's filters are merged into it (Antigravity).
	keep bool
}

// owners are the ownership modes; the default (OwnerForce) replaces a foreign entry
// only with --force.
var owners = map[providers.OwnerMode]ownerRule{
	providers.OwnerForce:        {},
	providers.OwnerStrict:       {strict: true},
	providers.OwnerMarkers:      {framed: true},
	providers.OwnerKeepExisting: {keep: true},
}

// standing says how an existing entry stands: its digest against the ownership
// record and against the digest of what would be written ("" when nothing would).
func (e *fileEdit) standing(rule ownerRule, name string, cur format.Entry, newDigest string) ownership {
	d := cur.Digest()
	st := foreign
	switch {
	case e.record != nil && e.record.Entries[name] == d:
		st = owned
	case d == newDigest:
		st = identical
	}
	if rule.framed && !cur.Framed() {
		return foreign // outside its frame lines, an entry is never mcpwire's
	}
	return st
}

// foreignError is a same-named entry mcpwire did not write (C6).
type foreignError struct {
	path   string
	names  []string
	strict bool
}

func (e *foreignError) Error() string {
	if e.strict {
		return fmt.Sprintf("%s: %s is operator-owned or modified; choose a different name", e.path, strings.Join(e.names, ", "))
	}
	return fmt.Sprintf("%s already has entries mcpwire did not write or that changed since it wrote them: %s", e.path, strings.Join(e.names, ", "))
}

func (e *foreignError) Hints() []string {
	if e.strict {
		return nil
	}
	return []string{"add --force to replace them, or give the servers other names"}
}

// container is where the provider's file keeps its servers.
func (e *fileEdit) container() format.Container {
	c := format.Container{Path: []string{e.p.ServersKey}, NameKey: e.p.EntryName}
	if f, ok := e.d.(dialect.Framer); ok && owners[e.p.Owner].framed {
		c.Frame = f.Frame()
	}
	return c
}

// apply edits a client file, in any format: the entries of the edit are reconciled
// with the entries in the file, and only they change (W1).
func (e *fileEdit) apply(cur fsys.Snapshot) ([]byte, error) {
	e.wrote, e.dropped, e.kept, e.forget, e.notes = map[string]string{}, nil, nil, nil, nil
	if err := e.reloadRecord(); err != nil {
		return nil, err
	}
	doc, err := format.Parse(e.p.Format, e.path, cur.Data, cur.Exists)
	if err != nil {
		return nil, err
	}
	entries, err := doc.Entries(e.container())
	if err != nil {
		return nil, err
	}
	if err := e.reconcile(entries); err != nil {
		return nil, err
	}
	if err := e.editFile(doc, entries); err != nil {
		return nil, err
	}
	out, err := doc.Bytes()
	if err != nil {
		return nil, err
	}
	return out, e.checkStrict(out)
}

// editFile lets the dialect edit the file beyond its entries (opencode's tools map).
func (e *fileEdit) editFile(doc format.Document, es format.Entries) error {
	fe, ok := e.d.(dialect.FileEditor)
	if !ok {
		return nil
	}
	st := &dialect.FileState{Path: e.path, Filters: e.filters, Dropped: e.dropped, Wrote: e.wrote}
	for _, ne := range e.set {
		st.Set = append(st.Set, ne.name)
	}
	if e.record != nil {
		st.Record = e.record.Entries
	}
	if err := fe.EditFile(doc, es, st); err != nil {
		return err
	}
	e.forget, e.notes = st.Forget, st.Warnings
	return nil
}

// reconcile is the one ownership loop (C6) of every format: each entry to write is
// written when the file has none of that name, mcpwire owns the one there, or --force
// takes a foreign one over; an identical one is left as it is; every foreign one is
// refused together. Each entry to remove goes only when mcpwire owns it.
func (e *fileEdit) reconcile(es format.Entries) error {
	rule := owners[e.p.Owner]
	var foreignNames []string
	for _, ne := range e.set {
		entry := ne.entry
		existing, has := es.Get(ne.name)
		if has && e.keepFilters {
			entry = e.d.Filters().Carry(entry, existing)
		}
		newDigest, err := es.Digest(ne.name, entry)
		if err != nil {
			return err
		}
		if has {
			st := e.standing(rule, ne.name, existing, newDigest)
			if rule.keep && st != owned {
				// kept as it is; one mcpwire wrote and nobody changed is updated like
				// anywhere else, so that its record follows
				if k, ok := e.d.(dialect.Keeper); ok {
					if err := k.MergeKept(e.path, es, ne.name, existing, e.filters.Of(ne.name)); err != nil {
						return err
					}
				}
				continue
			}
			switch {
			case st == identical:
				continue
			case st == owned && existing.Digest() == newDigest:
				// mcpwire's and already as it would write it: left as it is, in the
				// person's formatting and member order (an adopted entry, B2)
				e.wrote[ne.name] = newDigest
				continue
			case st == foreign:
				if rule.strict || !e.force {
					foreignNames = append(foreignNames, ne.name)
					continue
				}
			}
			if u, ok := e.d.(dialect.Updater); ok {
				if entry, err = u.Update(e.path, ne.name, existing, entry); err != nil {
					return err
				}
			}
		}
		d, err := es.Set(ne.name, entry)
		if err != nil {
			return err
		}
		e.wrote[ne.name] = d
	}
	if len(foreignNames) > 0 {
		return &foreignError{path: e.path, names: foreignNames, strict: rule.strict}
	}
	for _, name := range e.remove {
		existing, has := es.Get(name)
		if !has {
			continue
		}
		if e.standing(rule, name, existing, "") != owned {
			e.kept = append(e.kept, name)
			continue
		}
		if err := es.Delete(name); err != nil {
			return err
		}
		e.dropped = append(e.dropped, name)
	}
	return nil
}
