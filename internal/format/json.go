package format

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// emptyJSON is the content of a new JSON file before edits.
var emptyJSON = []byte("{\n}\n")

// utf8BOM is the byte order mark some editors (VS Code-based ones) start JSON files
// with: the parser refuses it, and the file keeps it when it is written back.
var utf8BOM = []byte("\xef\xbb\xbf")

// jsonDoc is a JSON or JSONC file (internal/jsonc keeps comments, trailing commas and
// spacing).
type jsonDoc struct {
	path string
	bom  []byte
	doc  *jsonc.Doc
}

// parseJSON opens a JSON or JSONC file; a missing or blank file is an empty object.
// The top level must be an object.
func parseJSON(path string, data []byte, exists bool) (Document, error) {
	return parseJSONOpen(path, data, exists, "")
}

// parseJSONOpen is parseJSON noting the members of the root member open (see
// jsonc.ParseOpen).
func parseJSONOpen(path string, data []byte, exists bool, open string) (Document, error) {
	d := &jsonDoc{path: path}
	src := data
	if bytes.HasPrefix(src, utf8BOM) {
		d.bom, src = utf8BOM, src[len(utf8BOM):]
	}
	if !exists || len(bytes.TrimSpace(src)) == 0 {
		src = emptyJSON
	}
	doc, err := jsonc.ParseOpen(src, open)
	if err != nil {
		return nil, &ParseError{Path: path, Format: "JSON", Err: err}
	}
	if doc.Root().Kind() != jsonc.Object {
		return nil, fmt.Errorf("%s: %w", path, jsonc.NotObject(doc.Root().Kind()))
	}
	d.doc = doc
	return d, nil
}

// ParseJSON opens a JSON or JSONC file that is not a client's servers file (Claude
// settings): as Parse, and the same messages.
func ParseJSON(path string, data []byte, exists bool) (Document, error) {
	return Parse(JSON, path, data, exists)
}

func (d *jsonDoc) Lookup(path ...string) (Value, bool) {
	v, ok := d.doc.Lookup(path...)
	if !ok {
		return nil, false
	}
	return jsonValue{v}, true
}

func (d *jsonDoc) Set(path []string, v any) error {
	raw, err := Marshal(v)
	if err != nil {
		return err
	}
	if err := d.doc.Set(path, raw); err != nil {
		return fmt.Errorf("%s: %w", d.path, err)
	}
	return nil
}

func (d *jsonDoc) Delete(path []string) (bool, error) {
	ok, err := d.doc.Delete(path)
	if err != nil {
		return false, fmt.Errorf("%s: %w", d.path, err)
	}
	return ok, nil
}

func (d *jsonDoc) Bytes() ([]byte, error) {
	if len(d.bom) == 0 {
		return d.doc.Bytes(), nil
	}
	return append(slices.Clip(d.bom), d.doc.Bytes()...), nil
}

// Entries returns a map of servers keyed by name. Lists of servers are not supported
// in JSON files yet (no client keeps one).
func (d *jsonDoc) Entries(c Container) (Entries, error) {
	if c.NameKey != "" || c.Frame != nil || len(c.Path) == 0 {
		return nil, fmt.Errorf("%s: mcpwire cannot edit this kind of server list in a JSON file", d.path)
	}
	// the container and the objects on its path are looked up once per entry:
	// materialise them once, so that no lookup scans the text again
	d.doc.Open(c.Path...)
	if v, ok := d.doc.Lookup(c.Path...); ok && v.Kind() != jsonc.Object {
		return nil, fmt.Errorf("%s: %w", d.path, jsonc.NotObject(v.Kind(), c.Path...))
	}
	return &jsonMap{d: d, path: c.Path}, nil
}

// jsonMap is a JSON object of servers keyed by name.
type jsonMap struct {
	d    *jsonDoc
	path []string
}

func (m *jsonMap) at(name string, more ...string) []string {
	return append(append(slices.Clip(m.path), name), more...)
}

func (m *jsonMap) Names() []string {
	v, ok := m.d.doc.Lookup(m.path...)
	if !ok {
		return nil
	}
	return v.Keys()
}

// All implements Lister: one pass over the container's members.
func (m *jsonMap) All() ([]string, []Entry) {
	v, ok := m.d.doc.Lookup(m.path...)
	if !ok {
		return nil, nil
	}
	var names []string
	var vals []jsonc.Value
	for name, e := range v.Members() {
		names = append(names, name)
		vals = append(vals, e)
	}
	entries := make([]Entry, len(names))
	if !repeated(names) {
		for i, v := range vals {
			entries[i] = jsonEntry{jsonValue{v}}
		}
		return names, entries
	}
	last := make(map[string]int, len(names)) // Get gives the last member of a name
	for i, n := range names {
		last[n] = i
	}
	for i, n := range names {
		entries[i] = jsonEntry{jsonValue{vals[last[n]]}}
	}
	return names, entries
}

// repeated reports whether a name occurs twice: their hashes sorted, two the same
// (rarely, two names of one hash: then the names are compared). A sort of 200,000
// numbers costs less than a map of as many names.
func repeated(names []string) bool {
	seed := maphash.MakeSeed()
	type hashed struct {
		h uint64
		i int
	}
	hs := make([]hashed, len(names))
	for i, n := range names {
		hs[i] = hashed{maphash.String(seed, n), i}
	}
	slices.SortFunc(hs, func(a, b hashed) int { return cmp.Compare(a.h, b.h) })
	for i := 1; i < len(hs); i++ {
		if hs[i].h != hs[i-1].h {
			continue
		}
		for j := i - 1; j >= 0 && hs[j].h == hs[i].h; j-- {
			if names[hs[j].i] == names[hs[i].i] {
				return true
			}
		}
	}
	return false
}

func (m *jsonMap) Get(name string) (Entry, bool) {
	v, ok := m.d.doc.Lookup(m.at(name)...)
	if !ok {
		return nil, false
	}
	return jsonEntry{jsonValue{v}}, true
}

func (m *jsonMap) Digest(name string, e Object) (string, error) {
	raw, err := Marshal(e)
	if err != nil {
		return "", err
	}
	return Digest(raw), nil
}

func (m *jsonMap) Set(name string, e Object) (string, error) {
	raw, err := Marshal(e)
	if err != nil {
		return "", err
	}
	if err := m.d.doc.Set(m.at(name), raw); err != nil {
		return "", fmt.Errorf("%s: %w", m.d.path, err)
	}
	return Digest(raw), nil
}

func (m *jsonMap) SetMember(name, key string, v any) error {
	return m.d.Set(m.at(name, key), v)
}

func (m *jsonMap) Delete(name string) error {
	_, err := m.d.Delete(m.at(name))
	return err
}

func (m *jsonMap) Restore(name string, text, value []byte) (string, error) {
	if err := m.d.doc.SetText(m.at(name), text); err != nil {
		if err := m.d.doc.Set(m.at(name), value); err != nil {
			return "", fmt.Errorf("%s: %w", m.d.path, err)
		}
	}
	e, ok := m.Get(name)
	if !ok {
		return "", fmt.Errorf("%s: %s: no entry to restore", m.d.path, name)
	}
	return e.Digest(), nil
}

// jsonValue is a Value of a JSON document.
type jsonValue struct{ v jsonc.Value }

func (v jsonValue) Kind() Kind     { return v.v.Kind() }
func (v jsonValue) JSON() []byte   { return v.v.JSON() }
func (v jsonValue) Keys() []string { return v.v.Keys() }

func (v jsonValue) Member(key string) (Value, bool) {
	m, ok := v.v.Member(key)
	if !ok {
		return nil, false
	}
	return jsonValue{m}, true
}

// Carry keeps any JSON value as it was written.
func (v jsonValue) Carry() (any, bool) { return json.RawMessage(v.v.JSON()), true }

// jsonEntry is a server entry of a JSON document.
type jsonEntry struct{ jsonValue }

func (e jsonEntry) Digest() string { return Digest(e.v.JSON()) }
func (e jsonEntry) Framed() bool   { return false }
func (e jsonEntry) Text() []byte   { return e.v.Text() }

// Pieces returns the bytes Bytes would return as consecutive pieces, most of them
// slices of the input (see jsonc.Doc.Pieces), for a write that does not build the
// whole file in memory.
func (d *jsonDoc) Pieces() [][]byte {
	p := d.doc.Pieces()
	if len(d.bom) == 0 {
		return p
	}
	return append([][]byte{d.bom}, p...)
}
