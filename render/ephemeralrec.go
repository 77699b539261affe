package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/mcpwire/mcpwire/internal/hint"
	"io/fs"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// outRecord marks an ephemeral output mcpwire wrote at an explicit --out path (C5):
// a C6 ownership record (destination, provider, entries — any reader of C6 records
// decodes it) with two more members, ephemeral and the digest of the whole file, so
// that a later run replaces the file only while nobody changed it.
type outRecord struct {
	Destination   string            `json:"destination"`
	Provider      string            `json:"provider,omitempty"`
	Entries       map[string]string `json:"entries"`
	Ephemeral     bool              `json:"ephemeral"`
	ContentDigest string            `json:"contentDigest"`
}

func (r *outRecord) encode() []byte {
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// ephemeralOf reports whether a record under mcp-ownership/ is an ephemeral output's
// rather than a client file's.
func ephemeralOf(data []byte) bool {
	var r struct {
		Ephemeral bool `json:"ephemeral"`
	}
	return json.Unmarshal(data, &r) == nil && r.Ephemeral
}

// readOutRecord decodes the record of an --out path; nil when there is none, or when
// the record is a client file's (not an ephemeral output's).
func readOutRecord(f fsys.FS, path string) (*outRecord, error) {
	data, err := f.ReadFile(path)
	if fsys.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r outRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, corruptRecord(path, err)
	}
	if !r.Ephemeral {
		return nil, nil
	}
	if len(r.ContentDigest) != 64 {
		return nil, corruptRecord(path, fmt.Errorf("contentDigest is not a sha256"))
	}
	return &r, nil
}

// outTargets returns the targets of an explicit --out path: the output, and its
// record. An existing file there must be an earlier ephemeral output mcpwire
// recorded and nobody changed since — never a hand-written file, a client's own
// file, or an earlier run's deny-rule sidecar.
func (r *Request) outTargets(f fsys.FS, out string, content []byte, entries []namedEntry, st *staged) (outTargetSet, error) {
	set := r.Registry.Set()
	if err := set.CheckWrite(); err != nil {
		return outTargetSet{}, err
	}
	recPath, canon, err := recordPath(set.Write().Dir, OwnershipDir, out)
	if err != nil {
		return outTargetSet{}, err
	}
	for _, p := range []string{recPath, recPath + stagedSuffix} {
		if _, err := readOutRecord(f, p); err != nil {
			return outTargetSet{}, err // a corrupt record: refused before any write
		}
	}
	sidecar := false
	if permPath, _, err := recordPath(set.Write().Dir, PermissionsDir, out); err == nil {
		if data, err := f.ReadFile(permPath); err == nil {
			if pr, err := decodePermRecord(permPath, data); err == nil && pr.Sidecar {
				sidecar = true
			}
		}
	}
	outT := fsys.Target{
		Path:  out,
		Check: func() error { return fsys.CheckRealDirs(f, "", out) },
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if !cur.Exists {
				return content, 0o600, false, nil
			}
			// the record as it is now (again under the lock), against the bytes read; or
			// the staged record of a run interrupted before its record (staging.go)
			mine := false
			for _, p := range []string{recPath, recPath + stagedSuffix} {
				rec, err := readOutRecord(f, p)
				if err != nil {
					return nil, 0, false, err
				}
				mine = mine || rec != nil && rec.ContentDigest == contentDigest(cur.Data)
			}
			if !mine {
				if sidecar {
					return nil, 0, false, hint.Wrap(fmt.Errorf("%s is the deny-rule sidecar of an earlier run", out), anotherOut)
				}
				return nil, 0, false, hint.Wrap(fmt.Errorf("%s exists and is not a config mcpwire wrote", out), anotherOut)
			}
			return content, 0o600, false, nil
		},
	}
	nr := &outRecord{Destination: canon, Provider: r.Provider.Name, Entries: map[string]string{}, Ephemeral: true, ContentDigest: contentDigest(content)}
	for _, e := range entries {
		raw, err := format.Marshal(e.entry)
		if err != nil {
			return outTargetSet{}, err
		}
		nr.Entries[e.name] = format.Digest(raw)
	}
	body := nr.encode()
	stageT := stageTarget(f, recPath+stagedSuffix, st, func() ([]byte, error) {
		cur, err := fsys.ReadSnapshot(f, out)
		if err != nil || cur.Exists && bytes.Equal(cur.Data, content) {
			return nil, err // the output does not change
		}
		return body, nil
	})
	recT := fsys.Target{
		Path:     recPath,
		DirPerm:  0o700,
		Check:    func() error { return checkRecordDir(f, recPath) },
		CheckKey: recordDirKey(recPath),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			return body, 0o600, false, nil
		},
	}
	return outTargetSet{stage: stageT, out: outT, record: recT}, nil
}

// outTargetSet are the targets of an explicit --out path.
type outTargetSet struct{ stage, out, record fsys.Target }
