package render

import (
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// OutRecord marks an ephemeral output mcpwire wrote at an explicit --out path (C5):
// a C6 ownership record (destination, provider, entries — any reader of C6 records
// decodes it) with two more members, ephemeral and the digest of the whole file, so
// that a later run replaces the file only while nobody changed it.
type OutRecord struct {
	Destination   string            `json:"destination"`
	Provider      string            `json:"provider,omitempty"`
	Entries       map[string]string `json:"entries"`
	Ephemeral     bool              `json:"ephemeral"`
	ContentDigest string            `json:"contentDigest"`
}

func (r *OutRecord) Encode() []byte {
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

// ReadOutRecord decodes the record of an --out path; nil when there is none, or when
// the record is a client file's (not an ephemeral output's).
func ReadOutRecord(f fsys.FS, path string) (*OutRecord, error) {
	data, err := f.ReadFile(path)
	if fsys.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r OutRecord
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
