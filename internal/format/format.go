// Package format reads and edits a client's config file in place, whatever its format.
// A Document adapter per format (JSON and JSONC over internal/jsonc, TOML over
// internal/tomledit, YAML over internal/yamledit) gives one view of the file: the
// container where the server entries live, each entry as a Value, and the members
// outside it. A new format is one more adapter file and one entry in the parsers
// table.
//
// Adapters know formats, never clients: which container, which members and which
// comment lines frame an entry are the caller's (render and its dialects).
package format

import (
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/internal/limits"
)

// Kind is the JSON type of a Value (a TOML table is an object).
type Kind = jsonc.Kind

// The kinds callers test for.
const (
	KindObject = jsonc.Object
	KindArray  = jsonc.Array
)

// Document is one client file, parsed and being edited in place. Its edits keep
// everything else byte for byte (W1).
type Document interface {
	// Entries returns the server entries of container c. It refuses a container
	// that exists but is not one (a scalar where a map of servers belongs).
	Entries(c Container) (Entries, error)
	// Lookup returns the value at a path of member names from the top level.
	Lookup(path ...string) (Value, bool)
	// Set sets the member at path to v (encoded in the document's format); missing
	// objects on the way are created.
	Set(path []string, v any) error
	// Delete removes the member at path and reports whether it existed.
	Delete(path []string) (bool, error)
	// Bytes returns the edited file. An adapter that defers its checks (TOML: one
	// strict re-parse and model comparison for all edits) makes them here.
	Bytes() ([]byte, error)
}

// Container says where a file keeps its server entries.
type Container struct {
	// Path are the member names from the top level to the container, one literal
	// key each: {"mcpServers"}, {"amp.mcpServers"} (one key with a dot in it),
	// {"projects", "/abs/dir", "mcpServers"}.
	Path []string
	// NameKey, when set, says the entries are a list (TOML [[mcp_servers]], a YAML
	// sequence) and each holds its name in this member; otherwise the container is a
	// map keyed by server name.
	NameKey string
	// Frame, when set, are the comment lines around every entry mcpwire writes: the
	// entry owns them (Grok Build's markers; formats with comments only).
	Frame *Frame
}

// Frame is a pair of comment lines around an entry: Start+name above, End+name below.
type Frame struct{ Start, End string }

// Entries are the server entries of one container.
type Entries interface {
	// Names lists the entries in document order.
	Names() []string
	// Get returns an entry.
	Get(name string) (Entry, bool)
	// Digest returns the ownership digest e will have once written (C6).
	Digest(name string, e Object) (string, error)
	// Set writes an entry, replacing any entry of that name, and returns its digest.
	Set(name string, e Object) (string, error)
	// SetMember sets one member of an existing entry, keeping the rest as it is.
	SetMember(name, key string, v any) error
	// Delete removes an entry.
	Delete(name string) error
	// Restore writes back in place of the entry of that name one read earlier: text is
	// its exact source (Entry.Text) and value its JSON (Entry.JSON). The text goes back
	// as it is when it can (a JSON value, a TOML table of its own, YAML lines indented as
	// the entry is); otherwise the entry is written from value, as Set writes one (H1).
	// It returns the entry's digest.
	Restore(name string, text []byte, value []byte) (string, error)
}

// Lister is Entries that list every entry at once: the names in document order,
// as Names gives them, and for each the entry Get gives (the last of a name written
// twice), without looking each up by name (K7: a file of 200,000 entries).
type Lister interface {
	All() ([]string, []Entry)
}

// Value is a read-only view of a value in a Document. A Value must not be used after
// an edit of its Document.
type Value interface {
	Kind() Kind
	// JSON returns the value as standard JSON.
	JSON() []byte
	// Member returns a member of an object.
	Member(key string) (Value, bool)
	// Keys returns the member names of an object, in order.
	Keys() []string
	// Carry returns the value as it can be written back into an entry of the same
	// format (a rewritten entry keeping the filters of the old one), or false when
	// the format cannot write it back as it is.
	Carry() (any, bool)
}

// Entry is one server entry in a container.
type Entry interface {
	Value
	// Digest is the ownership digest of the entry as it is in the file (C6).
	Digest() string
	// Framed reports whether the entry sits inside the container's frame lines.
	Framed() bool
	// Text is the entry's exact source: a JSON entry's value, a TOML entry's tables (or
	// the statements that define it), a YAML entry's lines.
	Text() []byte
}

// DigestOfJSON reports whether an entry's digest is Digest of its JSON (JSON and YAML
// entries; a TOML entry's is not).
func DigestOfJSON(e Entry) bool {
	switch e.(type) {
	case jsonEntry, yamlEntry:
		return true
	}
	return false
}

// Strings decodes an array whose every element is a string. (Decoding straight into
// []string would accept null elements as "", and writing the array back would then
// turn the person's null into "".)
func Strings(v Value) ([]string, bool) {
	if v.Kind() != KindArray {
		return nil, false
	}
	var raw []any
	if json.Unmarshal(v.JSON(), &raw) != nil {
		return nil, false
	}
	out := make([]string, len(raw))
	for i, x := range raw {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// Format is the syntax of a client file.
type Format string

// The formats mcpwire reads and edits.
const (
	JSON  Format = "json"
	JSONC Format = "jsonc" // JSON with comments and trailing commas
	TOML  Format = "toml"
	YAML  Format = "yaml"
)

// parsers opens a file per format. data is the file's content; exists is false for a
// file that is not there yet.
var parsers = map[Format]func(path string, data []byte, exists bool) (Document, error){
	JSON:  parseJSON,
	JSONC: parseJSON,
	TOML:  parseTOML,
	YAML:  parseYAML,
}

// Parse opens a client file of format f. Errors name the file; a file over one of
// mcpwire's limits on what it reads (K1: size, nesting, YAML aliases) is refused
// with a *limits.Error.
func Parse(f Format, path string, data []byte, exists bool) (Document, error) {
	parse, ok := parsers[f]
	if !ok {
		return nil, fmt.Errorf("%s: mcpwire cannot edit %s files", path, f)
	}
	return bounded(f, path, data, func() (Document, error) { return parse(path, data, exists) })
}

// bounded refuses data larger than mcpwire reads in format f (the hand-written
// formats' parsers take tens of bytes per byte: limits.TextBytes), then parses it,
// a limit the parser met naming the file.
func bounded(f Format, path string, data []byte, parse func() (Document, error)) (Document, error) {
	if max := maxBytes(f); len(data) > max {
		return nil, limits.Size(path, int64(max))
	}
	doc, err := parse()
	if err != nil {
		return nil, limits.InFile(path, err)
	}
	return doc, nil
}

// textBytes are the formats written by hand, read up to limits.TextBytes; any other
// up to limits.FileBytes.
var textBytes = map[Format]int{YAML: limits.TextBytes, TOML: limits.TextBytes}

// maxBytes is the largest file of format f mcpwire reads.
func maxBytes(f Format) int {
	if n, ok := textBytes[f]; ok {
		return n
	}
	return limits.FileBytes
}

// ParseFor is Parse for an edit of the entries at container: a JSON file notes, as
// it is read, the members of the container's outermost object when the container
// is nested in it (Claude Code's projects in ~/.claude.json), so that reaching the
// container does not read that object a second time.
func ParseFor(f Format, path string, data []byte, exists bool, container []string) (Document, error) {
	if parse, ok := openers[f]; ok && len(container) > 1 {
		return bounded(f, path, data, func() (Document, error) { return parse(path, data, exists, container[0]) })
	}
	return Parse(f, path, data, exists)
}

// openers are the parsers that can note the members of a root member as they read
// (see ParseFor).
var openers = map[Format]func(path string, data []byte, exists bool, open string) (Document, error){
	JSON:  parseJSONOpen,
	JSONC: parseJSONOpen,
}

// The other kinds.
const (
	String = jsonc.String
	Bool   = jsonc.Bool
	Number = jsonc.Number
)

// ParseError is a file that does not parse in its format.
type ParseError struct {
	Path string
	// Format is how the message names the format: "JSON", "TOML".
	Format string
	Err    error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s: invalid %s: %v", e.Path, e.Format, e.Err)
}

// Unwrap returns the parser's error.
func (e *ParseError) Unwrap() error { return e.Err }
