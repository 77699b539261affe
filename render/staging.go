package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render/dialect"
)

// Crash safety of the records (issue 11, docs/writes.md "Crashes"). A transaction that
// changes a client file (or Claude's settings) and the record describing it cannot
// replace both at once. So before the client file it writes the record it is about to
// write, staged beside the record (<record>.staged: the record before and after), and
// it removes the staged copy once the record itself is written. A crash anywhere leaves
// either no staged copy (then the record matches the file) or one, and the next run
// that reads the record settles the staged copy against the file: an entry holding
// what the staged record says was written is mcpwire's; one still holding what was
// there before keeps its earlier ownership; an entry the staged record removes that
// the file no longer holds is forgotten. A staged record naming an entry that is not
// written yet is harmless; the reverse — an entry written and recorded nowhere — can
// no longer happen.

// The write batches of a transaction (fsys.Target.Batch, docs/writes.md
// "Durability"): every staged record is durable before the first client file is
// renamed, every client file (and Claude's settings) before the first record. Within
// a batch the renames may reach the disk in any order: each file's staged record
// settles it alone.
const (
	batchStaged = 1 + iota
	batchFiles
	// batchLegacy is install's legacy settings file, from which the built-in entry
	// goes only once the destination holds it.
	batchLegacy
	batchRecords
)

// batch returns the targets, each in write batch b.
func batch(b int, targets ...fsys.Target) []fsys.Target {
	for i := range targets {
		targets[i].Batch = b
	}
	return targets
}

// stagedSuffix names the staged copy of a record, beside it (not a .json file, so
// that inject --all never takes it for a record).
const stagedSuffix = ".staged"

// transient reports whether a file a transaction wrote is a staged record: written
// and removed within the run (unless removing it failed, which is warned), so it is
// never one of the files a command reports as changed (U5).
func transient(path string) bool { return strings.HasSuffix(path, stagedSuffix) }

// ownStage is a staged ownership record: the entries before and after the
// transaction, and the names an earlier staged record had already forgotten.
type ownStage struct {
	Destination string            `json:"destination"`
	Before      map[string]string `json:"before"`
	After       map[string]string `json:"after"`
	Forgotten   []string          `json:"forgotten,omitempty"`
	// the entries --force replaced, kept by the record before and after (H1)
	BeforeOriginals map[string]original `json:"beforeOriginals,omitempty"`
	AfterOriginals  map[string]original `json:"afterOriginals,omitempty"`
	// what the record says of a file mcpwire created, before and after (H7)
	BeforeCreated *createdFile `json:"beforeCreated,omitempty"`
	AfterCreated  *createdFile `json:"afterCreated,omitempty"`
}

func decodeOwnStage(path string, data []byte) (*ownStage, error) {
	var st ownStage
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, corruptRecord(path, err)
	}
	for _, m := range []map[string]string{st.Before, st.After} {
		if err := checkDigests(m); err != nil {
			return nil, corruptRecord(path, err)
		}
	}
	for _, m := range []map[string]original{st.BeforeOriginals, st.AfterOriginals} {
		if err := checkOriginals(m); err != nil {
			return nil, corruptRecord(path, err)
		}
	}
	return &st, nil
}

func (st *ownStage) encode() []byte {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// settle folds the staged record into rec, the record file, using what the client
// file holds now (current: an entry's digest, and whether the file holds it). It
// returns the settled record and the names whose removal the file confirms (their
// injection receipts go too).
func (st *ownStage) settle(rec *ownRecord, current func(name string) (string, bool)) (*ownRecord, []string) {
	out := &ownRecord{Destination: rec.Destination, Provider: rec.Provider, Entries: maps.Clone(rec.Entries),
		Originals: maps.Clone(rec.Originals), Created: rec.Created}
	if out.Originals == nil {
		out.Originals = map[string]original{}
	}
	forgotten := slices.Clone(st.Forgotten)
	for _, n := range st.Forgotten {
		delete(out.Entries, n)
		delete(out.Originals, n)
	}
	names := slices.Sorted(maps.Keys(st.Before))
	for n := range st.After {
		if _, ok := st.Before[n]; !ok {
			names = append(names, n)
		}
	}
	for _, n := range names {
		after, inAfter := st.After[n]
		before, inBefore := st.Before[n]
		d, has := current(n)
		orig, kept := st.BeforeOriginals[n]
		switch {
		case has && inAfter && d == after:
			out.Entries[n] = after // written
			if o, ok := st.AfterOriginals[n]; ok {
				out.Originals[n] = o
			} else {
				delete(out.Originals, n)
			}
		case has && inBefore && d == before:
			out.Entries[n] = before // not written yet
		case !has && !inAfter, has && !inAfter && kept && d == orig.digest():
			// removed, or the entry --force replaced put back (H1)
			delete(out.Entries, n)
			delete(out.Originals, n)
			forgotten = append(forgotten, n)
		}
		// otherwise the entry changed since, or its write never happened: the record
		// file decides, as without a staged record
	}
	if len(out.Originals) == 0 {
		out.Originals = nil
	}
	return out, forgotten
}

// permStage is a staged deny record: the record before the transaction
// (nil when there was none) with the digest of the deny array it started from, and the
// record after it.
type permStage struct {
	Before       *permRecord `json:"before"`
	BeforeDigest string      `json:"beforeDigest"`
	After        *permRecord `json:"after"`
}

func decodePermStage(path string, data []byte) (*permStage, error) {
	var st permStage
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, corruptRecord(path, err)
	}
	if st.After == nil {
		return nil, corruptRecord(path, fmt.Errorf("no record after"))
	}
	for _, r := range []*permRecord{st.Before, st.After} {
		if r != nil {
			if err := r.check(path); err != nil {
				return nil, err
			}
		}
	}
	return &st, nil
}

func (st *permStage) encode() []byte {
	b, _ := json.MarshalIndent(st, "", "  ")
	return append(b, '\n')
}

// settle folds the staged record into rec, the record file, using the deny array now:
// the array the staged record describes means the settings were written (its record
// holds); the array it started from means they were not (the record before holds);
// any other array changed since, and the rules the staged record adds that are in it
// are tracked as preserved — kept, never removed silently (C4).
func (st *permStage) settle(rec *permRecord, current []string) *permRecord {
	switch d := denyDigest(current); d {
	case st.After.DenyDigest:
		return st.After
	case st.BeforeDigest:
		return st.Before
	}
	out := &permRecord{SettingsPath: st.After.SettingsPath}
	if rec != nil {
		out = &permRecord{SettingsPath: rec.SettingsPath, DenyAdded: slices.Clone(rec.DenyAdded), DenyPreserved: slices.Clone(rec.DenyPreserved),
			DenyDigest: rec.DenyDigest, Sidecar: rec.Sidecar, ContentDigest: rec.ContentDigest}
	}
	for _, r := range st.After.DenyAdded {
		if slices.Contains(current, r) && !slices.Contains(out.DenyAdded, r) && !slices.Contains(out.DenyPreserved, r) {
			out.DenyPreserved = append(out.DenyPreserved, r)
		}
	}
	return out
}

// stageTarget is the target writing the staged deny record before the settings file.
func (e *permEdit) stageTarget(f fsys.FS, settings fsys.Target) fsys.Target {
	return stageTarget(f, e.recPath+stagedSuffix, &e.stage, func() ([]byte, error) {
		if err := preChecks(f, settings); err != nil {
			return nil, err
		}
		cur, err := fsys.ReadSnapshot(f, e.path)
		if err != nil {
			return nil, err
		}
		out, keep, err := e.apply(cur)
		if err != nil || !e.active || !keep && !cur.Exists || cur.Exists && bytes.Equal(out, cur.Data) {
			return nil, err // the settings file does not change
		}
		after := e.newRecord(e.canon, out)
		if e.record != nil && bytes.Equal(after.encode(), e.record.encode()) {
			return nil, nil
		}
		return (&permStage{Before: e.record, BeforeDigest: denyDigest(e.before), After: after}).encode(), nil
	})
}

// entryDigest is the current digest of a record entry in a client file d writes: a
// server entry, or a dialect's own entry "MEMBER:KEY" (a key of a top-level member, such
// as opencode's "tools:github_*", dialect.RecordedMember).
func entryDigest(d dialect.Dialect, doc format.Document, es format.Entries) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if member, key, ok := dialect.RecordedMember(d, name); ok {
			v, has := doc.Lookup(member, key)
			if !has {
				return "", false
			}
			return format.Digest(v.JSON()), true
		}
		e, has := es.Get(name)
		if !has {
			return "", false
		}
		return e.Digest(), true
	}
}

// staged is one staged record of a transaction: what its target left there (written,
// or found and settled), which unstage removes once the records are written.
type staged struct {
	path string
	data []byte
	ok   bool
}

// stageTarget is the target that writes a staged record before the file it describes.
// decide returns the staged bytes, or nil when the transaction needs none (the file
// does not change, or its record stays the same); a staged record an earlier run left
// then stays as it is until unstage.
func stageTarget(f fsys.FS, path string, st *staged, decide func() ([]byte, error)) fsys.Target {
	return fsys.Target{
		Path:     path,
		Guard:    strings.TrimSuffix(path, stagedSuffix), // its record's lock (docs/writes.md)
		DirPerm:  0o700,
		Check:    func() error { return checkRecordDir(f, path) },
		CheckKey: recordDirKey(path),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			data, err := decide()
			if err != nil {
				return nil, 0, false, err
			}
			st.path = path
			switch {
			case data != nil:
				st.data, st.ok = data, true
				return data, 0o600, false, nil
			case cur.Exists:
				st.data, st.ok = cur.Data, true
				return cur.Data, 0, false, nil
			}
			st.data, st.ok = nil, false
			return nil, 0, true, nil
		},
	}
}

// unstage removes the staged records of a finished transaction, each only while it
// holds what the transaction left there (another run may have staged its own since).
// A failure leaves a staged record that the next run settles and removes: it is said
// as a warning, not an error, since every file is written.
func unstage(f fsys.FS, list []*staged, warn func(string)) {
	var targets []fsys.Target
	for _, st := range list {
		if !st.ok {
			continue
		}
		st := st
		targets = append(targets, fsys.Target{
			Path:  st.path,
			Guard: strings.TrimSuffix(st.path, stagedSuffix),
			Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
				if cur.Exists && bytes.Equal(cur.Data, st.data) {
					return nil, 0, true, nil
				}
				if !cur.Exists {
					return nil, 0, true, nil
				}
				return cur.Data, 0, false, nil
			},
		})
	}
	if len(targets) == 0 {
		return
	}
	if _, err := fsys.Apply(f, targets); err != nil && warn != nil {
		warn(fmt.Sprintf("could not remove a staged ownership record (the next run settles and removes it): %v", err))
	}
}

// unstageWritten removes, while the transaction still holds their locks, the staged
// records it wrote (results): no other mcpwire process can have changed them since.
// Those it found and kept (an interrupted run's, settled) are not locked, and go with
// unstage; so does one that cannot be removed now.
func unstageWritten(f fsys.FS, list []*staged, results []fsys.Result) {
	written := map[string]bool{}
	for _, r := range results {
		written[filepath.Clean(r.Path)] = r.Changed && !r.Removed
	}
	var done []*staged
	var paths []string
	var want [][]byte
	for _, st := range list {
		if st.ok && written[filepath.Clean(st.path)] {
			done, paths, want = append(done, st), append(paths, st.path), append(want, st.data)
		}
	}
	for i, removed := range fsys.RemoveUnchanged(f, paths, want) {
		done[i].ok = !removed
	}
}

// preChecks are the checks Apply runs on a target before its Edit (its Check, and no
// symlink at its path), for a staged record's target that edits it first.
func preChecks(f fsys.FS, t fsys.Target) error {
	if t.Check != nil {
		if err := t.Check(); err != nil {
			return err
		}
	}
	return fsys.CheckNotSymlink(f, t.Path)
}
