package render

import (
	"encoding/json"
	"maps"
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

// EncodeStaged encodes the record as it is written: with the members of the staged
// record that stages it from none.
func (r *OwnRecord) EncodeStaged() []byte {
	entries := r.Entries
	if entries == nil {
		entries = map[string]string{}
	}
	st := &OwnStage{Destination: r.Destination, Before: map[string]string{}, After: entries,
		AfterOriginals: r.Originals, AfterCreated: r.Created}
	var a, b map[string]json.RawMessage
	if json.Unmarshal(st.Encode(), &a) != nil || json.Unmarshal(r.Encode(), &b) != nil {
		panic("render: a record that does not encode as a JSON object")
	}
	maps.Copy(a, b)
	out, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}
