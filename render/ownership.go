package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
)

// OwnershipDir is the write-layer directory of server-entry ownership records (C6).
const OwnershipDir = "mcp-ownership"

// OwnRecord is one ownership record: for one destination, the digest of every entry
// mcpwire wrote there.
type OwnRecord struct {
	Destination string `json:"destination"`
	LocalRecord
	// Provider is the first provider that wrote there; Providers every one, for a
	// file several clients read (V10).
	Provider  string            `json:"provider,omitempty"`
	Providers []string          `json:"providers,omitempty"`
	Entries   map[string]string `json:"entries"`
	// Originals are the entries --force replaced, as they were, by name: put back when
	// mcpwire removes its own (H1). The record is 0600: they may hold credentials.
	Originals map[string]Original `json:"originals,omitempty"`
	// Created says that mcpwire created the file, and the directories it created (H7).
	Created *CreatedFile `json:"created,omitempty"`
}

// LocalRecord says, in the record of a project's own servers inside a file shared by
// every project (Claude Code's local scope, V11), which scope and project they are and
// where they sit: the path alone cannot tell them from the user-scope servers.
type LocalRecord struct {
	Scope     providers.Scope `json:"scope,omitempty"`
	Project   string          `json:"project,omitempty"`
	Container []string        `json:"container,omitempty"`
}

// Writers returns the providers of a record after provider wrote it too.
func (r *OwnRecord) Writers(provider ...string) []string {
	out := slices.Clone(r.Providers)
	if len(out) == 0 && r.Provider != "" {
		out = []string{r.Provider}
	}
	for _, p := range provider {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Empty reports whether the record tracks nothing.
func (r *OwnRecord) Empty() bool {
	return len(r.Entries) == 0 && len(r.Originals) == 0 && !r.Created.Pending()
}

// Same reports whether two records track the Same entries and keep the Same originals.
func (r *OwnRecord) Same(o *OwnRecord) bool {
	return maps.Equal(r.Entries, o.Entries) && sameOriginals(r.Originals, o.Originals) && sameCreated(r.Created, o.Created)
}

// RecordPath returns the record file for a destination: the sha256 of its canonical
// path, so aliases of one file share one record (C3, C6).
func RecordPath(layerDir, sub, dest string) (string, string, error) {
	canon, err := fsys.Canonical(dest)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", dest, err)
	}
	sum := sha256.Sum256([]byte(canon))
	return filepath.Join(layerDir, sub, hex.EncodeToString(sum[:])+".json"), canon, nil
}

// decodeRecord decodes a record into rec as json.Unmarshal does (decodeRecordPlain,
// or json.Unmarshal itself), then checks it. Entries end up empty rather than nil: an
// empty map rec holds is dropped first, so that the entries are decoded into a map
// of their size.
func decodeRecord(data []byte, rec *OwnRecord) error {
	if len(rec.Entries) == 0 {
		rec.Entries = nil
	}
	if !decodeRecordPlain(data, rec) {
		if err := json.Unmarshal(data, rec); err != nil {
			return err
		}
	}
	return checkRecord(rec)
}

// checkRecord refuses a decoded record keeping an original without a value or
// holding an entry whose digest is not a sha256; nil entries become empty ones.
func checkRecord(rec *OwnRecord) error {
	if rec.Entries == nil {
		rec.Entries = map[string]string{}
	}
	if err := checkOriginals(rec.Originals); err != nil {
		return err
	}
	return checkDigests(rec.Entries)
}

// checkOriginals refuses a kept entry without a value.
func checkOriginals(m map[string]Original) error {
	for n, o := range m {
		if len(o.Value) == 0 {
			return fmt.Errorf("original %q: no value", n)
		}
	}
	return nil
}

// checkDigests refuses a record entry whose digest is not a sha256.
func checkDigests(entries map[string]string) error {
	for n, d := range entries {
		if len(d) != 64 {
			return fmt.Errorf("entry %q: invalid digest", n)
		}
	}
	return nil
}

// OwnState is the ownership record of one client file as its edit sees it (C6): the
// record file, and the staged record an interrupted run may have left beside it
// (staging.go). Every edit loads both again, so that it decides which entries are
// mcpwire's on the records as they are now — under the transaction's lock, once
// Apply holds it — not as they were when the edit was prepared (C6, W8): a file whose
// description (fsys.Unchanged: the same inode, size, modification time and mode) is
// the one last read is not read again, any other is.
type OwnState struct {
	FS       fsys.FS
	Path     string // the record file
	Canon    string // the destination's canonical path
	Provider string
	// Local is what the record of a project's own servers in a shared file says
	// (V11); writers are the providers of the transaction writing these entries (V10)
	Local   LocalRecord
	Writers []string
	// as last read: the record file (an empty record when missing) and the staged record
	Raw, StagedRaw []byte
	Exists, Staged bool
	Rec            *OwnRecord
	Stage          *OwnStage

	// snap and stagedSnap are the last reads of the two files, as fsys.ReadSnapshot
	// took them: the next Load looks at each file's description first and reads it
	// again only when it is not the one read (issue 31: a record was read three times
	// while a transaction planned). unseen is set by Load and cleared by TakeSnapshot.
	snap, stagedSnap *fsys.Snapshot
	unseen           bool
}

// NewOwnState reads the record of a destination's servers, refusing a corrupt one (or
// a corrupt staged one) before anything is written. local is set for a project's own
// servers in a file shared by every project: they have a record of their own.
func NewOwnState(f fsys.FS, layerDir, dest, provider string, local LocalRecord) (*OwnState, error) {
	s, err := UnloadedOwnState(f, layerDir, dest, provider, local)
	if err != nil {
		return nil, err
	}
	return s, s.Load()
}

// UnloadedOwnState is NewOwnState without reading the records: its first Load does
// (Loaded reports false until then).
func UnloadedOwnState(f fsys.FS, layerDir, dest, provider string, local LocalRecord) (*OwnState, error) {
	path, canon, err := entryRecordPath(layerDir, dest, local.Container, local.Scope != "")
	if err != nil {
		return nil, err
	}
	return &OwnState{FS: f, Path: path, Canon: canon, Provider: provider, Local: local, Writers: []string{provider}}, nil
}

// Loaded reports whether a Load has read the records (and found them sound).
func (s *OwnState) Loaded() bool { return s.Rec != nil }

// Load reads the record and the staged record again; what holds the same bytes as
// the last Load is not decoded again (the decoded records are never changed).
func (s *OwnState) Load() error {
	snap, err := reread(s.FS, s.Path, s.snap)
	if err != nil {
		return err
	}
	s.snap, s.unseen = snap, true
	data, exists := snap.Data, snap.Exists
	if s.Rec == nil || exists != s.Exists || !bigbuf.Same(data, s.Raw) {
		rec := &OwnRecord{Destination: s.Canon, Entries: map[string]string{}}
		if exists {
			if err := decodeRecord(data, rec); err != nil {
				s.Rec = nil
				return corruptRecord(s.Path, err)
			}
		}
		s.Rec = rec
	}
	s.Raw, s.Exists = data, exists
	staged, wasStaged := s.StagedRaw, s.Staged
	if s.stagedSnap, err = reread(s.FS, s.Path+StagedSuffix, s.stagedSnap); err != nil {
		s.StagedRaw, s.Staged, s.Stage = nil, false, nil
		return err
	}
	if s.StagedRaw, s.Staged = s.stagedSnap.Data, s.stagedSnap.Exists; !s.Staged {
		s.Stage = nil
		return nil
	}
	if s.Stage != nil && wasStaged && bigbuf.Same(staged, s.StagedRaw) {
		return nil
	}
	s.Stage, err = decodeOwnStage(s.Path+StagedSuffix, s.StagedRaw)
	return err
}

// reread reads path as fsys.ReadSnapshot does, or gives back last (the previous read)
// when the file still holds it (fsys.Unchanged: by its description when it stood
// still while read, else by its bytes).
func reread(f fsys.FS, path string, last *fsys.Snapshot) (*fsys.Snapshot, error) {
	switch {
	case last != nil && !last.Exists:
		if _, err := f.Lstat(path); fsys.IsNotExist(err) {
			return last, nil // still nothing there
		}
	case last != nil:
		if same, err := fsys.Unchanged(f, path, *last); err == nil && same {
			return last, nil
		}
	}
	snap, err := fsys.ReadSnapshot(f, path)
	if err != nil {
		return nil, err
	}
	return &snap, nil
}

// UseStaged tells s what a transaction's target just read of the staged record
// (fsys.ReadSnapshot, or a handed-over read): the next Load reads the file again
// only if it is no longer that one.
func (s *OwnState) UseStaged(cur fsys.Snapshot) { s.stagedSnap = &cur }

// TakeSnapshot gives the record file as the last Load read it, once after each Load
// (ok false otherwise): a transaction's target of the record plans from it instead of
// reading the file again (fsys.Target.Handoff), and reads it under its lock as before.
func (s *OwnState) TakeSnapshot() (fsys.Snapshot, bool) {
	if !s.unseen || s.snap == nil {
		return fsys.Snapshot{}, false
	}
	s.unseen = false
	return *s.snap, true
}

// Unchanged reports whether the record file still holds what load read.
func (s *OwnState) Unchanged(cur fsys.Snapshot) bool {
	return cur.Exists == s.Exists && (!cur.Exists || bigbuf.Same(cur.Data, s.Raw))
}

// ReadOptional reads a file; a missing one is not an error.
func ReadOptional(f fsys.FS, path string) ([]byte, bool, error) {
	data, err := f.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

// RecordError is a corrupt ownership record.
type RecordError struct {
	Path string
	Err  error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("corrupt ownership record %s: %v", e.Path, e.Err)
}

// Hints tells how to recover.
func (e *RecordError) Hints() []string {
	what := "entries"
	for _, dir := range providers.RuleRecordDirs() {
		if strings.Contains(e.Path, dir) {
			what = "deny rules"
		}
	}
	return []string{"delete " + e.Path + " to reset ownership; the " + what + " it tracked are then treated as yours, not mcpwire's"}
}

func corruptRecord(path string, err error) error { return &RecordError{Path: path, Err: err} }

// Encode writes the record as indented JSON.
func (r *OwnRecord) Encode() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// RecordDirKey is the CheckKey of checkRecordDir for the record at path: the record
// directory is checked once while a transaction plans, however many records it holds.
func RecordDirKey(path string) string { return "record directory " + filepath.Dir(path) }

// CheckRecordDir refuses a symlinked or non-directory record directory (L9, W7).
func CheckRecordDir(f fsys.FS, path string) error {
	dir := filepath.Dir(path)
	fi, err := f.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fsys.CheckWritableDir(dir)
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s: is a symlink; ownership directories must be real directories", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	return fsys.CheckWritable(dir)
}

// RecordDirs are the write layer's directories of mcpwire's own records: the
// ownership records, and those of every client's deny rules.
func RecordDirs(layer string) []string {
	out := []string{filepath.Join(layer, OwnershipDir)}
	for _, dir := range providers.RuleRecordDirs() {
		out = append(out, filepath.Join(layer, dir))
	}
	return out
}

// Ownership says how an existing entry stands with mcpwire (C6).
type Ownership int

// How an entry stands.
const (
	// EntryOwned: written by mcpwire and unchanged since.
	EntryOwned Ownership = iota
	// EntryIdentical: not mcpwire's, but exactly what mcpwire would write.
	EntryIdentical
	// EntryForeign: not mcpwire's, or changed since mcpwire wrote it.
	EntryForeign
)

// OwnerRule is how one ownership mode (C6) treats the entries already in a file.
type OwnerRule struct {
	// Framed: only an entry inside its frame lines can be mcpwire's (Grok Build).
	Framed bool
	// Strict: a foreign entry is refused even with --force (OMP).
	Strict bool
	// Keep: an entry mcpwire does not own keeps its launch configuration, and only the
	// profile's filters are merged into it (Antigravity).
	Keep bool
}

// owners are the ownership modes; the default (OwnerForce) replaces a foreign entry
// only with --force.
var owners = map[providers.OwnerMode]OwnerRule{
	providers.OwnerForce:        {},
	providers.OwnerStrict:       {Strict: true},
	providers.OwnerMarkers:      {Framed: true},
	providers.OwnerKeepExisting: {Keep: true},
}

// RuleOf is the rule of a client's ownership mode.
func RuleOf(p *providers.Provider) OwnerRule { return owners[p.Owner] }

// Standing is the one place an entry's ownership is decided (inject, uninject,
// status, adopt): an entry with digest d is mcpwire's when the digest recorded for it
// ("" when none) is d, identical when d is what mcpwire would write (newDigest, ""
// when nothing would), foreign otherwise; under a framed rule an entry outside its
// frame lines is never mcpwire's.
func (rule OwnerRule) Standing(recorded, d string, framed bool, newDigest string) Ownership {
	switch {
	case rule.Framed && !framed:
		return EntryForeign
	case recorded != "" && recorded == d:
		return EntryOwned
	case newDigest != "" && d == newDigest:
		return EntryIdentical
	}
	return EntryForeign
}
