package render

import (
	"github.com/mcpwire/mcpwire/internal/plainjson"
	"github.com/mcpwire/mcpwire/providers"
)

// The records mcpwire writes are decoded without encoding/json's reflection (issue
// 31: 46 µs a 3.6 KB record, the largest single cost of an up-to-date inject's edits):
// plainjson reads them into exactly what json.Unmarshal makes of them, and anything
// it does not read simply and exactly (an escape, a number, originals, a key that
// differs from a member's name only by case, a syntax error, …) is decoded by
// json.Unmarshal, as before, whose error a corrupt record quotes.
// TestRecordFieldsAreTheMembers keeps the lists below the types' JSON members: a
// member added to a type and not decoded here is refused, and json.Unmarshal decodes
// it.

// recordFields, stageFields and createdFields are the JSON members of OwnRecord
// (LocalRecord's included), OwnStage and CreatedFile.
var (
	recordFields  = []string{"destination", "scope", "project", "container", "provider", "providers", "entries", "originals", "created"}
	stageFields   = []string{"destination", "before", "after", "forgotten", "beforeOriginals", "afterOriginals", "beforeCreated", "afterCreated"}
	createdFields = []string{"dirs", "digest"}
)

// decodeRecordPlain decodes data into rec as json.Unmarshal does, and reports false
// when it could not: then json.Unmarshal decodes it. The map of entries and the
// CreatedFile rec held may then hold some of what data says already, as json.Unmarshal
// stores it again: the decoder stores a value, as json.Unmarshal does, in the order
// of data, once it is read whole.
func decodeRecordPlain(data []byte, rec *OwnRecord) bool {
	d := plainjson.NewDecoder(data)
	r := *rec
	for key := range d.Members {
		switch key {
		case "destination":
			d.String(&r.Destination)
		case "scope":
			scope := string(r.Scope)
			d.String(&scope)
			r.Scope = providers.Scope(scope)
		case "project":
			d.String(&r.Project)
		case "container":
			d.Strings(&r.Container)
		case "provider":
			d.String(&r.Provider)
		case "providers":
			d.Strings(&r.Providers)
		case "entries":
			d.StringMap(&r.Entries)
		case "originals":
			noOriginals(&d, &r.Originals)
		case "created":
			decodeCreated(&d, &r.Created)
		default:
			d.Skip(key, recordFields)
		}
	}
	if !d.End() {
		return false
	}
	*rec = r
	return true
}

// decodeStagePlain is decodeRecordPlain for a staged record, into a new one.
func decodeStagePlain(data []byte) (*OwnStage, bool) {
	d := plainjson.NewDecoder(data)
	var st OwnStage
	for key := range d.Members {
		switch key {
		case "destination":
			d.String(&st.Destination)
		case "before":
			d.StringMap(&st.Before)
		case "after":
			d.StringMap(&st.After)
		case "forgotten":
			d.Strings(&st.Forgotten)
		case "beforeOriginals":
			noOriginals(&d, &st.BeforeOriginals)
		case "afterOriginals":
			noOriginals(&d, &st.AfterOriginals)
		case "beforeCreated":
			decodeCreated(&d, &st.BeforeCreated)
		case "afterCreated":
			decodeCreated(&d, &st.AfterCreated)
		default:
			d.Skip(key, stageFields)
		}
	}
	return &st, d.End()
}

// noOriginals reads a null set of originals; any other is json.Unmarshal's to decode.
func noOriginals(d *plainjson.Decoder, p *map[string]Original) {
	if !d.Null() {
		d.Fail()
		return
	}
	*p = nil
}

// decodeCreated reads what a record says of a file mcpwire created: into the
// CreatedFile *p points to, as json.Unmarshal does (one decodeCreated allocated, the
// member appearing twice), or a new one; null sets *p to nil.
func decodeCreated(d *plainjson.Decoder, p **CreatedFile) {
	if d.Null() {
		*p = nil
		return
	}
	c := *p
	if c == nil {
		c = new(CreatedFile)
	}
	for key := range d.Members {
		switch key {
		case "dirs":
			d.Strings(&c.Dirs)
		case "digest":
			d.String(&c.Digest)
		default:
			d.Skip(key, createdFields)
		}
	}
	*p = c
}
