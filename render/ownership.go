package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/fsys"
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

	// where readRecord read it, so that an edit can read it again under the lock
	// (fileEdit.reloadRecord); unset for records built otherwise
	from  fsys.FS
	path  string
	canon string
}

// localRecord says, in the record of a project's own servers inside a file shared by
// every project (Claude Code's local scope, V11), which scope and project they are and
// where they sit: the path alone cannot tell them from the user-scope servers.
type localRecord struct {
	Scope     providers.Scope `json:"scope,omitempty"`
	Project   string          `json:"project,omitempty"`
	Container []string        `json:"container,omitempty"`
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

// readRecord decodes an ownership record; a missing file is an empty record. A
// corrupt record fails with a hint to delete it.
//
// The record remembers where it was read: a client file's edit reads it again every
// time it runs (see fileEdit.reloadRecord).
func readRecord(f fsys.FS, path, canon string) (*ownRecord, error) {
	rec := &ownRecord{Destination: canon, Entries: map[string]string{}, from: f, path: path, canon: canon}
	data, err := f.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return nil, err
	}
	if err := decodeRecord(data, rec); err != nil {
		return nil, corruptRecord(path, err)
	}
	return rec, nil
}

func decodeRecord(data []byte, rec *ownRecord) error {
	if err := json.Unmarshal(data, rec); err != nil {
		return err
	}
	if rec.Entries == nil {
		rec.Entries = map[string]string{}
	}
	for n, d := range rec.Entries {
		if len(d) != 64 {
			return fmt.Errorf("entry %q: invalid digest", n)
		}
	}
	return nil
}

// reloadRecord reads the client file's ownership record again, so that the edit
// decides which entries are mcpwire's on the record as it is now — under the
// transaction's lock, once Apply holds it — not as it was when the edit was prepared
// (C6, W8). A record not read from a file is kept as it is.
func (e *fileEdit) reloadRecord() error {
	r := e.record
	if r == nil || r.from == nil {
		return nil
	}
	fresh, err := readRecord(r.from, r.path, r.canon)
	if err != nil {
		return err
	}
	e.record = fresh
	return nil
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

// recordTarget is the transaction target that updates one record: every name in
// wrote gets its digest, every name in dropped is forgotten.
func recordTarget(f fsys.FS, path, canon, provider string, update func(r *ownRecord)) fsys.Target {
	return fsys.Target{
		Path:    path,
		DirPerm: 0o700,
		Check:   func() error { return checkRecordDir(f, path) },
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			rec := &ownRecord{Destination: canon, Entries: map[string]string{}}
			if cur.Exists {
				if err := decodeRecord(cur.Data, rec); err != nil {
					return nil, 0, false, corruptRecord(path, err)
				}
			}
			rec.Destination = canon
			if rec.Provider == "" {
				rec.Provider = provider
			}
			if !slices.Contains(rec.Providers, provider) {
				rec.Providers = append(rec.Providers, provider)
			}
			update(rec)
			if !cur.Exists && len(rec.Entries) == 0 {
				return nil, 0, true, nil // nothing owned: create no record
			}
			return rec.encode(), 0o600, false, nil
		},
	}
}

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
	return fsys.CheckWritableDir(dir)
}
