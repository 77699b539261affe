package render

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
)

// Crash safety of the records (issue 11, docs/writes.md "Crashes"). A transaction that
// changes a client file (or Claude's settings) and the record describing it cannot
// replace both at once. So before the client file it writes the record it is about to
// write, staged beside the record (<record>.staged: the record before and after), and
// it removes the staged copy once the record itself is written (a record that does not
// exist yet is its staged copy renamed into place: staged_record.go). A crash anywhere leaves
// either no staged copy (then the record matches the file) or one, and the next run
// that reads the record settles the staged copy against the file: an entry holding
// what the staged record says was written is mcpwire's; one still holding what was
// there before keeps its earlier ownership; an entry the staged record removes that
// the file no longer holds is forgotten. A staged record naming an entry that is not
// written yet is harmless; the reverse — an entry written and recorded nowhere — can
// no longer happen.

// StagedSuffix names the staged copy of a record, beside it (not a .json file, so
// that inject --all never takes it for a record).
const StagedSuffix = ".staged"

// Transient reports whether a file a transaction wrote is a staged record: written
// and removed within the run (unless removing it failed, which is warned), so it is
// never one of the files a command reports as changed (U5).
func Transient(path string) bool { return strings.HasSuffix(path, StagedSuffix) }

// OwnStage is a staged ownership record: the entries before and after the
// transaction, and the names an earlier staged record had already forgotten.
type OwnStage struct {
	Destination string            `json:"destination"`
	Before      map[string]string `json:"before"`
	After       map[string]string `json:"after"`
	Forgotten   []string          `json:"forgotten,omitempty"`
	// the entries --force replaced, kept by the record before and after (H1)
	BeforeOriginals map[string]Original `json:"beforeOriginals,omitempty"`
	AfterOriginals  map[string]Original `json:"afterOriginals,omitempty"`
	// what the record says of a file mcpwire created, before and after (H7)
	BeforeCreated *CreatedFile `json:"beforeCreated,omitempty"`
	AfterCreated  *CreatedFile `json:"afterCreated,omitempty"`
}

// decodeOwnStage decodes a staged record as json.Unmarshal does (decodeStagePlain, or
// json.Unmarshal itself), then checks it.
func decodeOwnStage(path string, data []byte) (*OwnStage, error) {
	st, ok := decodeStagePlain(data)
	if !ok {
		st = &OwnStage{}
		if err := json.Unmarshal(data, st); err != nil {
			return nil, corruptRecord(path, err)
		}
	}
	if err := st.check(); err != nil {
		return nil, corruptRecord(path, err)
	}
	return st, nil
}

// check refuses a decoded staged record holding an entry whose digest is not a sha256
// or keeping an original without a value.
func (st *OwnStage) check() error {
	for _, m := range []map[string]string{st.Before, st.After} {
		if err := checkDigests(m); err != nil {
			return err
		}
	}
	for _, m := range []map[string]Original{st.BeforeOriginals, st.AfterOriginals} {
		if err := checkOriginals(m); err != nil {
			return err
		}
	}
	return nil
}

func (st *OwnStage) Encode() []byte {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// Settle folds the staged record into rec, the record file, using what the client
// file holds now (current: an entry's digest, and whether the file holds it). It
// returns the settled record and the names whose removal the file confirms (their
// injection receipts go too).
func (st *OwnStage) Settle(rec *OwnRecord, current func(name string) (string, bool)) (*OwnRecord, []string) {
	out := &OwnRecord{Destination: rec.Destination, Provider: rec.Provider, Entries: maps.Clone(rec.Entries),
		Originals: maps.Clone(rec.Originals), Created: rec.Created}
	if out.Originals == nil {
		out.Originals = map[string]Original{}
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

// PermStage is a staged deny record: the record before the transaction
// (nil when there was none) with the digest of the deny array it started from, and the
// record after it.
type PermStage struct {
	Before       *PermRecord `json:"before"`
	BeforeDigest string      `json:"beforeDigest"`
	After        *PermRecord `json:"after"`
}

func DecodePermStage(path string, data []byte) (*PermStage, error) {
	var st PermStage
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, corruptRecord(path, err)
	}
	if st.After == nil {
		return nil, corruptRecord(path, fmt.Errorf("no record after"))
	}
	for _, r := range []*PermRecord{st.Before, st.After} {
		if r != nil {
			if err := r.Check(path); err != nil {
				return nil, err
			}
		}
	}
	return &st, nil
}

func (st *PermStage) Encode() []byte {
	b, _ := json.MarshalIndent(st, "", "  ")
	return append(b, '\n')
}

// Settle folds the staged record into rec, the record file, using the deny array now:
// the array the staged record describes means the settings were written (its record
// holds); the array it started from means they were not (the record before holds);
// any other array changed since, and the rules the staged record adds that are in it
// are tracked as preserved — kept, never removed silently (C4).
func (st *PermStage) Settle(rec *PermRecord, current []string) *PermRecord {
	switch d := DenyDigest(current); d {
	case st.After.DenyDigest:
		return st.After
	case st.BeforeDigest:
		return st.Before
	}
	out := &PermRecord{SettingsPath: st.After.SettingsPath}
	if rec != nil {
		out = &PermRecord{SettingsPath: rec.SettingsPath, DenyAdded: slices.Clone(rec.DenyAdded), DenyPreserved: slices.Clone(rec.DenyPreserved),
			DenyDigest: rec.DenyDigest, Sidecar: rec.Sidecar, ContentDigest: rec.ContentDigest}
	}
	for _, r := range st.After.DenyAdded {
		if slices.Contains(current, r) && !slices.Contains(out.DenyAdded, r) && !slices.Contains(out.DenyPreserved, r) {
			out.DenyPreserved = append(out.DenyPreserved, r)
		}
	}
	return out
}

// EntryDigest is the current digest of a record entry in a client file d writes: a
// server entry, or a dialect's own entry "MEMBER:KEY" (a key of a top-level member, such
// as opencode's "tools:github_*", providers.RecordedMember).
func EntryDigest(d providers.Dialect, doc format.Document, es format.Entries) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if member, key, ok := providers.RecordedMember(d, name); ok {
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
