package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// PermRecord tracks the deny rules mcpwire added to one Claude settings file (C3).
type PermRecord struct {
	SettingsPath  string   `json:"settingsPath"`
	DenyAdded     []string `json:"denyAdded"`
	DenyPreserved []string `json:"denyPreserved"`
	DenyDigest    string   `json:"denyDigest,omitempty"`
	Sidecar       bool     `json:"sidecar,omitempty"`
	ContentDigest string   `json:"contentDigest,omitempty"`
	// Created says that mcpwire created the settings file, and the directories it
	// created (H7).
	Created *CreatedFile `json:"created,omitempty"`
}

func (r *PermRecord) Encode() []byte {
	if r.DenyAdded == nil {
		r.DenyAdded = []string{}
	}
	if r.DenyPreserved == nil {
		r.DenyPreserved = []string{}
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return append(b, '\n')
}

// Empty reports whether the record tracks nothing: no rule, and no sidecar.
func (r *PermRecord) Empty() bool {
	return len(r.DenyAdded) == 0 && len(r.DenyPreserved) == 0 && !r.Sidecar && !r.Created.Pending()
}

func DecodePermRecord(path string, data []byte) (*PermRecord, error) {
	var r PermRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, corruptRecord(path, err)
	}
	return &r, r.Check(path)
}

// Check refuses a record whose rules or digests are not what mcpwire writes.
func (r *PermRecord) Check(path string) error {
	for _, rule := range append(slices.Clone(r.DenyAdded), r.DenyPreserved...) {
		if rule == "" {
			return corruptRecord(path, fmt.Errorf("a tracked rule is empty or null"))
		}
	}
	if r.DenyDigest != "" && len(r.DenyDigest) != 64 {
		return corruptRecord(path, fmt.Errorf("denyDigest is not a sha256"))
	}
	if r.ContentDigest != "" && len(r.ContentDigest) != 64 {
		return corruptRecord(path, fmt.Errorf("contentDigest is not a sha256"))
	}
	return nil
}

// DenyDigest is the sha256 of the deny array's compact JSON.
func DenyDigest(deny []string) string {
	if deny == nil {
		deny = []string{}
	}
	b, _ := format.Marshal(deny)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func ContentDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ValidateSettings checks the settings' permissions and its rule arrays (C2).
func ValidateSettings(path string, doc format.Document) ([]string, error) {
	perm, ok := doc.Lookup("permissions")
	if !ok {
		return nil, nil
	}
	if perm.Kind() != format.KindObject {
		return nil, fmt.Errorf("%s: %w", path, jsonc.NotObject(perm.Kind(), "permissions"))
	}
	var deny []string
	for _, k := range []string{"allow", "deny", "ask", "additionalDirectories"} {
		v, ok := perm.Member(k)
		if !ok {
			continue
		}
		list, ok := format.Strings(v)
		if !ok {
			return nil, fmt.Errorf("%s: \"permissions.%s\" must be an array of strings", path, k)
		}
		if k == "deny" {
			deny = list
		}
	}
	return deny, nil
}

// CreatedOf is what the record says of a settings file mcpwire created (nil without
// a record).
func (r *PermRecord) CreatedOf() *CreatedFile {
	if r == nil {
		return nil
	}
	return r.Created
}
