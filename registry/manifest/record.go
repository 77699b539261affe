package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/registry"
)

// RecordKey is the member of a registry server that keeps what it was added from:
// mcpwire's extension, which AIWG keeps as an unknown member (R1).
const RecordKey = "manifest"

// Record is what a server added from a manifest keeps of it (M3, M4): the
// server.json's own fields, the package or remote it was made from (as published,
// in the current schema's names), the bundle it runs from, and a digest of what the
// mapping wrote, which tells whether the server was changed since.
type Record struct {
	// Source is server.json, listing or mcpb.
	Source     string      `json:"source"`
	Name       string      `json:"name,omitempty"`
	Title      string      `json:"title,omitempty"`
	Version    string      `json:"version,omitempty"`
	WebsiteURL string      `json:"websiteUrl,omitempty"`
	Repository *Repository `json:"repository,omitempty"`
	Package    *Package    `json:"package,omitempty"`
	Remote     *Transport  `json:"remote,omitempty"`
	// Bundle is the unpacked bundle the server runs from.
	Bundle *BundleRecord `json:"bundle,omitempty"`
	// Retired are the directories of bundles the server ran from before an update,
	// which clients written before it still start; removed with the server
	// (docs/manifests.md).
	Retired []string `json:"retiredBundles,omitempty"`
	// Launch is a digest of the server's launch fields as the mapping wrote them
	// (names of literal values only: never a value that may be a credential).
	Launch string `json:"launch,omitempty"`
}

// BundleRecord is the bundle a server runs from.
type BundleRecord struct {
	// Dir is its unpacked directory; SHA256 the digest of the .mcpb file.
	Dir    string `json:"dir"`
	SHA256 string `json:"sha256"`
	// Name and Version are the bundle manifest's.
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// Signature is unsigned, self-signed, untrusted or signed; Publisher the
	// signing certificate's subject.
	Signature string `json:"signature,omitempty"`
	Publisher string `json:"publisher,omitempty"`
}

func newRecord(doc *Document) *Record {
	src := "server.json"
	return &Record{Source: src, Name: doc.Name, Title: doc.Title, Version: doc.Version, WebsiteURL: doc.WebsiteURL, Repository: doc.Repository}
}

// Attach stores the record in the server, with the digest of its launch fields now.
func (r *Record) Attach(s *registry.Server) {
	r.Launch = LaunchDigest(s)
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	if s.Extra == nil {
		s.Extra = map[string]json.RawMessage{}
	}
	s.Extra[RecordKey] = b
}

// RecordOf returns the record a server keeps, nil when it has none.
func RecordOf(s *registry.Server) (*Record, error) {
	raw, ok := s.Extra[RecordKey]
	if !ok {
		return nil, nil
	}
	var r Record
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("server %q: %s: %v", s.Name, RecordKey, err)
	}
	return &r, nil
}

// LaunchDigest is a digest of what starts or reaches a server: type, command,
// arguments, working directory, URL, where each env value and header comes from, and
// the values declared plain. Literal values that may be credentials count by name
// only.
func LaunchDigest(s *registry.Server) string {
	plain := map[string]string{}
	for k := range s.PlainEnvKeys() {
		plain["env:"+k] = s.Env[k]
	}
	for k := range s.PlainHeaderKeys() {
		plain["header:"+k] = s.Headers[k]
	}
	v := struct {
		Type, Command, Cwd, URL   string
		Args                      []string
		Env, Headers              []string
		EnvFrom, HeaderEnv, Plain map[string]string
		EnvInput, HeaderInput     map[string]string
		BearerEnv, BearerInput    string
	}{s.Type, s.Command, s.Cwd, s.URL, s.Args,
		slices.Sorted(maps.Keys(s.Env)), slices.Sorted(maps.Keys(s.Headers)),
		s.EnvFrom, s.HeaderEnv, plain, s.EnvInput, s.HeaderInput, s.BearerEnv, s.BearerInput}
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}
