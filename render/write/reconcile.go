package write

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// namedEntry is one server entry to write.
type namedEntry struct {
	name  string
	entry format.Object
	// inputs are the inputs the entry asks for (a client that prompts, T3);
	// inputVars the variables standing for inputs it cannot ask for.
	inputs    []registry.Input
	inputVars []string
	// secrets says how the entry's server gets its secrets (S2).
	secrets Secrets
}

// fileEdit is the change to one client file: entries to write or remove, with the
// ownership record that says which existing entries are mcpwire's (C6).
type fileEdit struct {
	// Layout is where the entries sit in the file, and how they are spelled (p, its
	// view of the client, and d, its dialect).
	*render.Layout
	p      *providers.Provider
	d      providers.Dialect
	path   string
	set    []namedEntry
	remove []string
	// sync, for a --profile inject (B7), holds the names the profile selects: an entry
	// mcpwire owns of any other name is removed too. nil for an additive edit.
	sync map[string]bool
	// filters per server, for merging into kept Antigravity entries and for the
	// dialect's edits beyond the entries.
	filters *providers.FilterSet
	force   bool
	// keepFilters carries the filter members of rewritten entries over (KeepFilters).
	keepFilters bool
	// syntax is the destination, for what its client's parser refuses (Strict,
	// NoTrailingComma); before and after are the edits of the same entries earlier and
	// later in the transaction (two clients of one shared file): the last one stages
	// and writes the record.
	syntax *providers.Dest
	// checkers are the name checks of the clients mcpwire writes the file for (a
	// server written for Copilot CLI into .mcp.json is one Claude Code reads too).
	checkers      []providers.Dialect
	before, after *fileEdit

	// own is the ownership record and its staged copy; record is the record settled
	// for the last edit (staging.go), next the record after it.
	own          *render.OwnState
	record, next *render.OwnRecord
	stage        staged
	memo         *editMemo
	encoded      encodedRecord
	// stageEdit is the Edit of the staged record's target (editStaged)
	stageEdit func(fsys.Snapshot) ([]byte, fs.FileMode, bool, error)
	// handoff is the client file as the staged record's edit read it, for the file's
	// own target to edit from (takeHandoff); preRead the read of it preStage's
	// transaction made (keepRead), for the next transaction of the command
	handoff, preRead *fsys.Snapshot
	keepRead         bool
	// loaded says that the staged record's edit has just read the record (compute),
	// so the next compute of the file's own target does not read it again. That
	// compute follows in the same pass; a record changed in between is seen by the
	// record's own target, which fails the pass with ErrChanged (recordTarget).
	loaded bool
	// loadErr is the refusal of the ownership records that precompute read (a
	// corrupt one), which PrepareAll returns in its request's turn.
	loadErr error

	// Results of the last edit.
	wrote   map[string]string // name → digest of what was written
	dropped []string          // names removed
	kept    []string          // names to remove that stay: not mcpwire's, or changed since
	// unselected are the entries removed because the profile no longer selects them
	// (B7), unselectedKept those of them kept because they changed since mcpwire wrote
	// them; forgotten are recorded names the file no longer holds, dropped from the
	// record (their injection receipts go too).
	unselected, unselectedKept, forgotten []string
	// names are the servers in the file after the edit.
	names []string
	// taken are the entries --force replaced in this edit, kept (H1); restored the
	// names whose original this edit put back in place of mcpwire's entry.
	taken    map[string]render.Original
	restored []string
	// removeFile: the edit removes the file mcpwire created, left with none of its
	// entries (H7); missing are the directories of the file that did not exist when an
	// edit first found the file absent (known: looked), which the transaction creates;
	// recordOut is the record as the transaction writes it.
	removeFile   bool
	missing      []string
	missingKnown bool
	recordOut    []byte
	// forget are record entries other than servers to drop (a dialect's own, such as
	// opencode's tools keys); notes are the dialect's warnings, said once the file is
	// written.
	forget, notes []string
}

// editMemo is the last edit of a client file, which the staged record's target and
// the file's own target both ask for: computed once for the same file and records.
// The file is held as it was given: the file's own target edits from the staged
// record's read (takeHandoff), so the same slice comes back and is known without
// comparing 50 MB; another read of it is compared byte for byte.
type editMemo struct {
	in                      []byte
	raw, stagedRaw          []byte
	exists, rawOK, stagedOK bool
	out                     fsys.Content
	err                     error
}

// sameInput reports whether data is the file the memo was computed from.
func (m *editMemo) sameInput(data []byte) bool {
	if len(data) != len(m.in) {
		return false
	}
	// a mapped file is compared by the digests taken as it was mapped: two mappings
	// of one file show the same bytes, also when another program wrote to it since
	return len(data) == 0 || &data[0] == &m.in[0] || bigbuf.Same(data, m.in)
}

// standing says how an existing entry stands: its digest d against the ownership
// record and against the digest of what would be written ("" when nothing would).
func (e *fileEdit) standing(rule render.OwnerRule, name string, cur format.Entry, d, newDigest string) render.Ownership {
	return rule.Standing(e.record.Entries[name], d, cur.Framed(), newDigest)
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

// compute is apply, run once for the same file and records: the staged record's
// target and the file's own target both need its result (staging.go).
func (e *fileEdit) compute(cur fsys.Snapshot) (fsys.Content, error) {
	s := e.own
	if e.loaded {
		e.loaded = false
	} else if err := s.Load(); err != nil {
		return fsys.Content{}, err
	}
	if m := e.memo; m != nil && m.exists == cur.Exists && m.rawOK == s.Exists && e.sameStaged(m) &&
		bigbuf.Same(m.raw, s.Raw) && m.sameInput(cur.Data) {
		return m.out, m.err
	}
	if applyHook != nil {
		applyHook()
	}
	out, err := e.apply(cur)
	e.memo = &editMemo{in: cur.Data, exists: cur.Exists, raw: s.Raw, rawOK: s.Exists, stagedRaw: s.StagedRaw, stagedOK: s.Staged, out: out, err: err}
	return out, err
}

// sameStaged reports whether the staged record is the one the memo was computed with,
// or the one this edit computed from it and staged since (preStage): settling its own
// staged record against the same file gives the same edit.
func (e *fileEdit) sameStaged(m *editMemo) bool {
	s := e.own
	if m.stagedOK == s.Staged && bigbuf.Same(m.stagedRaw, s.StagedRaw) {
		return true
	}
	return !m.stagedOK && s.Staged && e.stage.ok && bigbuf.Same(s.StagedRaw, e.stage.data)
}

// apply edits a client file, in any format: the entries of the edit are reconciled
// with the entries in the file, and only they change (W1).
func (e *fileEdit) apply(cur fsys.Snapshot) (fsys.Content, error) {
	e.wrote, e.dropped, e.kept, e.forget, e.notes = map[string]string{}, nil, nil, nil, nil
	e.unselected, e.unselectedKept, e.names = nil, nil, nil
	e.taken, e.restored = map[string]render.Original{}, nil
	if err := render.CheckNotEmpty(e.own.FS, e.p.Format, e.path, cur); err != nil {
		return fsys.Content{}, err
	}
	doc, err := format.ParseFor(e.p.Format, e.path, cur.Data, cur.Exists, e.Servers)
	if err != nil {
		return fsys.Content{}, err
	}
	entries, err := doc.Entries(e.Container(doc))
	if err != nil {
		return fsys.Content{}, err
	}
	e.record, e.forgotten = e.own.Rec, nil
	switch {
	case e.before != nil:
		// the entries the earlier edit of this file in the transaction wrote are
		// mcpwire's, though the record file does not hold them yet (V10)
		e.record = e.before.next
	case e.own.Stage != nil:
		e.record, e.forgotten = e.own.Stage.Settle(e.own.Rec, render.EntryDigest(e.d, doc, entries))
		e.record.Created = render.SettleCreated(e.own.Rec.Created, e.own.Stage.AfterCreated, cur)
	}
	if err := e.reconcile(entries); err != nil {
		return fsys.Content{}, err
	}
	if err := e.editFile(doc, entries); err != nil {
		return fsys.Content{}, err
	}
	e.notes = append(e.notes, e.lostOriginals()...)
	e.names = entries.Names()
	if err := e.checkNames(); err != nil {
		return fsys.Content{}, err
	}
	e.next = e.nextRecord()
	out, err := e.output(doc, cur)
	if err != nil {
		return fsys.Content{}, err
	}
	if !cur.Exists && !e.missingKnown {
		e.missing, e.missingKnown = missingDirs(e.own.FS, e.path), true
	}
	var intent *render.CreatedFile
	if e.own.Stage != nil {
		intent = e.own.Stage.AfterCreated
	}
	e.next.Created, e.removeFile = nextCreated(e.own.FS, e.path, cur, out, e.record.Created, intent, e.missing,
		len(e.set) > 0, len(e.names) == 0 && len(e.next.Entries) == 0)
	if out.Split() {
		return out, nil // syntaxNeedsBytes: nothing for checkSyntax to check
	}
	return out, e.checkSyntax(cur.Data, out.Bytes())
}

// nextRecord is the record after the edit: the settled one, without every entry
// removed or forgotten, with every entry written. An entry an interrupted run removed
// (forgotten) that this edit writes again is mcpwire's: the writes come last (issue
// 25 finding 10: a profile switch killed after its rename, then the other profile,
// recorded none of the servers it wrote).
func (e *fileEdit) nextRecord() *render.OwnRecord {
	next := &render.OwnRecord{Destination: e.own.Canon, Provider: e.own.Provider, Entries: maps.Clone(e.record.Entries),
		Originals: e.nextOriginals()}
	for _, list := range [][]string{e.dropped, e.forget, e.forgotten} {
		for _, n := range list {
			delete(next.Entries, n)
		}
	}
	for n, d := range e.wrote {
		next.Entries[n] = d
	}
	return next
}

// stagedRecord decides the staged record of the edit (staging.go): one when the
// client file changes and so does its record.
func (e *fileEdit) stagedRecord(f fsys.FS) ([]byte, error) {
	if e.after != nil {
		// the last edit of these entries stages the record; the file is still refused
		// here when it is a symlink (W5), before any edit of it
		return nil, fsys.CheckNotSymlink(f, e.path)
	}
	cur, err := e.read(f)
	if err != nil {
		return nil, err
	}
	e.setLoaded(false) // this edit reads the record itself
	out, err := e.computeChain(cur)
	if err != nil {
		return nil, err
	}
	e.setLoaded(true)
	base := e.root().record
	unchanged := cur.Exists && out.Equal(cur.Data)
	// the file's own target, next in the transaction, edits from this read: a 50 MB
	// ~/.claude.json is read and held once, not twice (speed and peak memory, issue 11)
	e.root().handoff = &cur
	if unchanged && !e.removeFile || !cur.Exists && len(e.set) == 0 && !e.next.Created.Pending() || base.Same(e.next) {
		return nil, nil
	}
	// the record file's entries the settlement of an earlier staged record removed: the
	// staged record replacing it must say so, or they would count again
	var forgotten []string
	for _, n := range slices.Sorted(maps.Keys(e.own.Rec.Entries)) {
		if _, ok := base.Entries[n]; !ok {
			forgotten = append(forgotten, n)
		}
	}
	st := &render.OwnStage{Destination: e.own.Canon, Before: base.Entries, After: e.next.Entries, Forgotten: forgotten,
		BeforeOriginals: base.Originals, AfterOriginals: e.next.Originals, BeforeCreated: base.Created, AfterCreated: e.next.Created}
	if !e.own.Exists && len(forgotten) == 0 && len(base.Entries) == 0 && len(base.Originals) == 0 && base.Created == nil {
		// no record yet, and none before: this staged record is the record as its
		// target writes it (render.EncodeStaged), renamed into place once the client
		// file is written (issue 31)
		return e.encodedRecord(), nil
	}
	return st.Encode(), nil
}

// read reads the client file for the staged record's edit: as an earlier transaction
// of the same command read it (preStage), or PrepareAll's second core (precompute),
// while it has not changed since, so that a large file is read once.
func (e *fileEdit) read(f fsys.FS) (fsys.Snapshot, error) {
	if h := e.preRead; h != nil {
		if !e.keepRead {
			e.preRead = nil
		}
		same, err := fsys.UnchangedChecked(f, e.path, *h)
		if err != nil {
			return fsys.Snapshot{}, err
		}
		if same {
			return *h, nil
		}
	}
	cur, err := fsys.ReadSnapshotChecked(f, e.path) // refusing a symlink (W5)
	if e.keepRead {
		e.preRead = &cur
	}
	return cur, err
}

// takeHandoff gives the client file's target the read its staged record's edit made,
// once (see fsys.Target.Handoff).
func (e *fileEdit) takeHandoff() (fsys.Snapshot, bool) {
	h := e.handoff
	e.handoff = nil
	if h == nil {
		e.setLoaded(false)
		return fsys.Snapshot{}, false
	}
	return *h, true
}

// setLoaded sets loaded on the edits of these entries up to e (those computeChain
// computes).
func (e *fileEdit) setLoaded(v bool) {
	for ; e != nil; e = e.before {
		e.loaded = v
	}
}

// editFile lets the dialect edit the file beyond its entries (opencode's tools map).
func (e *fileEdit) editFile(doc format.Document, es format.Entries) error {
	st := &providers.FileState{Path: e.path, Filters: e.filters, Dropped: e.dropped, Wrote: e.wrote,
		Force: e.force, Replace: !e.keepFilters && e.filters != nil}
	for _, ne := range e.set {
		st.Set = append(st.Set, ne.name)
		for _, in := range ne.inputs {
			if !slices.ContainsFunc(st.Inputs, func(x registry.Input) bool { return x.ID == in.ID }) {
				st.Inputs = append(st.Inputs, in)
			}
		}
	}
	st.Record = e.record.Entries
	if err := e.d.EditFile(doc, es, st); err != nil {
		return err
	}
	e.forget, e.notes = st.Forget, st.Warnings
	return nil
}

// sameMeaning reports whether an entry in the file means what the entry to write
// does (T6).
func (e *fileEdit) sameMeaning(existing format.Entry, entry format.Object) bool {
	raw, err := format.Marshal(entry)
	return err == nil && providers.SameMeaning(providers.Target{P: e.p}, e.d, existing.JSON(), raw)
}

// reconcile is the one ownership loop (C6) of every format: each entry to write is
// written when the file has none of that name, mcpwire owns the one there, or --force
// takes a foreign one over; an identical one is left as it is; every foreign one is
// refused together. Each entry to remove goes only when mcpwire owns it.
func (e *fileEdit) reconcile(es format.Entries) error {
	rule := render.RuleOf(e.p)
	var foreignNames []string
	for _, ne := range e.set {
		entry := ne.entry
		existing, has := es.Get(ne.name)
		if has && e.keepFilters {
			entry = e.d.Filters().Carry(entry, existing)
		}
		if has && len(e.Others) > 0 {
			entry = providers.FilterSpec{Members: e.Others}.Carry(entry, existing)
		}
		newDigest, err := es.Digest(ne.name, entry)
		if err != nil {
			return err
		}
		if has {
			d := existing.Digest()
			st := e.standing(rule, ne.name, existing, d, newDigest)
			if rule.Keep && st != render.EntryOwned {
				// kept as it is; one mcpwire wrote and nobody changed is updated like
				// anywhere else, so that its record follows
				if err := e.d.MergeKept(e.path, es, ne.name, existing, e.filters.Of(ne.name)); err != nil {
					return err
				}
				continue
			}
			if d != newDigest && st != render.EntryIdentical && !(rule.Framed && !existing.Framed()) && e.sameMeaning(existing, entry) {
				// the same entry in another form (T6: the client's defaults, member
				// order): left as it is; mcpwire's still, when it was
				if e.record.Entries[ne.name] != "" {
					e.wrote[ne.name] = d
				}
				continue
			}
			switch {
			case st == render.EntryIdentical:
				continue
			case st == render.EntryOwned && d == newDigest:
				// mcpwire's and already as it would write it: left as it is, in the
				// person's formatting and member order (an adopted entry, B2)
				e.wrote[ne.name] = newDigest
				continue
			case st == render.EntryForeign:
				if rule.Strict || !e.force {
					foreignNames = append(foreignNames, ne.name)
					continue
				}
				e.takeOver(ne.name, existing)
			}
			if entry, err = e.d.Update(e.path, ne.name, existing, entry); err != nil {
				return err
			}
		}
		d, err := es.Set(ne.name, entry)
		if err != nil {
			return err
		}
		e.wrote[ne.name] = d
	}
	if len(foreignNames) > 0 {
		return &foreignError{path: e.path, names: foreignNames, strict: rule.Strict}
	}
	return e.reconcileRemovals(es, rule)
}
