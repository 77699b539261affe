package render

import (
	"bytes"
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

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
)

// OwnershipDir is the write-layer directory of server-entry ownership records (C6).
const OwnershipDir = "mcp-ownership"

// ownRecord is one ownership record: for one destination, the digest of every entry
// mcpwire wrote there.
type ownRecord struct {
	Destination string `json:"destination"`
	localRecord
	// Provider is the first provider that wrote there; Providers every one, for a
	// file several clients read (V10).
	Provider  string            `json:"provider,omitempty"`
	Providers []string          `json:"providers,omitempty"`
	Entries   map[string]string `json:"entries"`
	// Originals are the entries --force replaced, as they were, by name: put back when
	// mcpwire removes its own (H1). The record is 0600: they may hold credentials.
	Originals map[string]original `json:"originals,omitempty"`
	// Created says that mcpwire created the file, and the directories it created (H7).
	Created *createdFile `json:"created,omitempty"`
}

// localRecord says, in the record of a project's own servers inside a file shared by
// every project (Claude Code's local scope, V11), which scope and project they are and
// where they sit: the path alone cannot tell them from the user-scope servers.
type localRecord struct {
	Scope     providers.Scope `json:"scope,omitempty"`
	Project   string          `json:"project,omitempty"`
	Container []string        `json:"container,omitempty"`
}

// writers returns the providers of a record after provider wrote it too.
func (r *ownRecord) writers(provider ...string) []string {
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

// empty reports whether the record tracks nothing.
func (r *ownRecord) empty() bool {
	return len(r.Entries) == 0 && len(r.Originals) == 0 && !r.Created.pending()
}

// same reports whether two records track the same entries and keep the same originals.
func (r *ownRecord) same(o *ownRecord) bool {
	return maps.Equal(r.Entries, o.Entries) && sameOriginals(r.Originals, o.Originals) && sameCreated(r.Created, o.Created)
}

// recordPath returns the record file for a destination: the sha256 of its canonical
// path, so aliases of one file share one record (C3, C6).
func recordPath(layerDir, sub, dest string) (string, string, error) {
	canon, err := fsys.Canonical(dest)
	if err != nil {
		return "", "", fmt.Errorf("%s: %w", dest, err)
	}
	sum := sha256.Sum256([]byte(canon))
	return filepath.Join(layerDir, sub, hex.EncodeToString(sum[:])+".json"), canon, nil
}

func decodeRecord(data []byte, rec *ownRecord) error {
	if err := json.Unmarshal(data, rec); err != nil {
		return err
	}
	if rec.Entries == nil {
		rec.Entries = map[string]string{}
	}
	if err := checkOriginals(rec.Originals); err != nil {
		return err
	}
	return checkDigests(rec.Entries)
}

// checkOriginals refuses a kept entry without a value.
func checkOriginals(m map[string]original) error {
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

// ownState is the ownership record of one client file as its edit sees it (C6): the
// record file, and the staged record an interrupted run may have left beside it
// (staging.go). Every edit reads both again, so that it decides which entries are
// mcpwire's on the records as they are now — under the transaction's lock, once
// Apply holds it — not as they were when the edit was prepared (C6, W8).
type ownState struct {
	f        fsys.FS
	path     string // the record file
	canon    string // the destination's canonical path
	provider string
	// local is what the record of a project's own servers in a shared file says
	// (V11); writers are the providers of the transaction writing these entries (V10)
	local   localRecord
	writers []string
	// as last read: the record file (an empty record when missing) and the staged record
	raw, stagedRaw []byte
	exists, staged bool
	rec            *ownRecord
	stage          *ownStage
}

// newOwnState reads the record of a destination's servers, refusing a corrupt one (or
// a corrupt staged one) before anything is written. local is set for a project's own
// servers in a file shared by every project: they have a record of their own.
func newOwnState(f fsys.FS, layerDir, dest, provider string, local localRecord) (*ownState, error) {
	path, canon, err := entryRecordPath(layerDir, dest, local.Container, local.Scope != "")
	if err != nil {
		return nil, err
	}
	s := &ownState{f: f, path: path, canon: canon, provider: provider, local: local, writers: []string{provider}}
	return s, s.load()
}

// load reads the record and the staged record again; what holds the same bytes as
// the last load is not decoded again (the decoded records are never changed).
func (s *ownState) load() error {
	data, exists, err := readOptional(s.f, s.path)
	if err != nil {
		return err
	}
	if s.rec == nil || exists != s.exists || !bytes.Equal(data, s.raw) {
		rec := &ownRecord{Destination: s.canon, Entries: map[string]string{}}
		if exists {
			if err := decodeRecord(data, rec); err != nil {
				s.rec = nil
				return corruptRecord(s.path, err)
			}
		}
		s.rec = rec
	}
	s.raw, s.exists = data, exists
	staged, wasStaged := s.stagedRaw, s.staged
	if s.stagedRaw, s.staged, err = readOptional(s.f, s.path+stagedSuffix); err != nil || !s.staged {
		s.stage = nil
		return err
	}
	if s.stage != nil && wasStaged && bytes.Equal(staged, s.stagedRaw) {
		return nil
	}
	s.stage, err = decodeOwnStage(s.path+stagedSuffix, s.stagedRaw)
	return err
}

// unchanged reports whether the record file still holds what load read.
func (s *ownState) unchanged(cur fsys.Snapshot) bool {
	return cur.Exists == s.exists && (!cur.Exists || bytes.Equal(cur.Data, s.raw))
}

// readOptional reads a file; a missing one is not an error.
func readOptional(f fsys.FS, path string) ([]byte, bool, error) {
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
	if strings.Contains(e.Path, PermissionsDir) {
		what = "deny rules"
	}
	return []string{"delete " + e.Path + " to reset ownership; the " + what + " it tracked are then treated as yours, not mcpwire's"}
}

func corruptRecord(path string, err error) error { return &RecordError{Path: path, Err: err} }

// encode writes the record as indented JSON.
func (r *ownRecord) encode() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// recordTarget is the transaction target that writes the record the client file's
// edit computed (fileEdit.next): the settled record, with the digest of every entry
// written and without the entries removed. It fails with ErrChanged when the record
// file is no longer the one the edit decided on.
func (e *fileEdit) recordTarget() fsys.Target {
	s := e.own
	return fsys.Target{
		Path:     s.path,
		DirPerm:  0o700,
		Check:    func() error { return checkRecordDir(s.f, s.path) },
		CheckKey: recordDirKey(s.path),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if !s.unchanged(cur) {
				return nil, 0, false, fmt.Errorf("%s: %w", s.path, fsys.ErrChanged)
			}
			if e.after != nil {
				return cur.Data, 0, !cur.Exists, nil // the last edit of these entries writes the record
			}
			if e.next.empty() {
				// nothing owned: no record (one that tracked the entries removed goes, so
				// that what an interrupted run left converges with a finished one, K10)
				e.recordOut = nil
				return nil, 0, true, nil
			}
			rec := &ownRecord{Destination: s.canon, localRecord: s.local, Provider: s.rec.Provider, Providers: s.rec.writers(s.writers...),
				Entries: e.next.Entries, Originals: e.next.Originals, Created: e.next.Created}
			if rec.Provider == "" {
				rec.Provider = s.provider
			}
			e.recordOut = rec.encode()
			return e.recordOut, 0o600, false, nil
		},
	}
}

// recordDirKey is the CheckKey of checkRecordDir for the record at path: the record
// directory is checked once while a transaction plans, however many records it holds.
func recordDirKey(path string) string { return "record directory " + filepath.Dir(path) }

// checkRecordDir refuses a symlinked or non-directory record directory (L9, W7).
func checkRecordDir(f fsys.FS, path string) error {
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
