package render

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/providers"
)

// An ownership record is written as the staged record of itself too (issue 31,
// docs/writes.md "Crashes"): one JSON object holding the members of the record
// (entries, created, …) and those of a staged record that stages it from no record at
// all ("before": {}, "after": its entries, its originals and what it says of a file
// mcpwire created); the two share only "destination", with the same value. Read as a
// record (encoding/json ignores the members it does not know, in this version and in
// the earlier ones) it is the record; read as a staged record it settles as any other.
// So when a transaction writes a record that does not exist yet, and settles no
// earlier one, its staged record and its record are the same bytes: once the client
// file is written, the staged record is renamed over the record (fsys.Target.From)
// instead of the record being written anew and the staged copy removed — one file
// written, synced and removed fewer per record.

// stagedRecordDoc is a record with the members of the staged record that stages it
// from none, in one encoding (TestEncodeStagedMembers keeps its members those of
// OwnRecord and OwnStage together).
type stagedRecordDoc struct {
	After          map[string]string   `json:"after"`
	AfterCreated   *CreatedFile        `json:"afterCreated,omitempty"`
	AfterOriginals map[string]Original `json:"afterOriginals,omitempty"`
	Before         map[string]string   `json:"before"`
	Container      []string            `json:"container,omitempty"`
	Created        *CreatedFile        `json:"created,omitempty"`
	Destination    string              `json:"destination"`
	Entries        map[string]string   `json:"entries"`
	Originals      map[string]Original `json:"originals,omitempty"`
	Project        string              `json:"project,omitempty"`
	Provider       string              `json:"provider,omitempty"`
	Providers      []string            `json:"providers,omitempty"`
	Scope          providers.Scope     `json:"scope,omitempty"`
}

// EncodeStaged encodes the record as it is written: with the members of the staged
// record that stages it from none.
func (r *OwnRecord) EncodeStaged() []byte {
	entries := r.Entries
	if entries == nil {
		entries = map[string]string{}
	}
	doc := stagedRecordDoc{After: entries, AfterCreated: r.Created, AfterOriginals: r.Originals, Before: map[string]string{},
		Container: r.Container, Created: r.Created, Destination: r.Destination, Entries: entries, Originals: r.Originals,
		Project: r.Project, Provider: r.Provider, Providers: r.Providers, Scope: r.Scope}
	out, err := json.MarshalIndent(&doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}
