package format

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/render/tomledit"
)

// tomlDoc is a TOML file, edited statement by statement by render/tomledit.
type tomlDoc struct {
	path string
	doc  *tomledit.Doc
}

// parseTOML opens a TOML file; a missing file is an empty document.
func parseTOML(path string, data []byte, exists bool) (Document, error) {
	if !exists {
		data = nil
	}
	doc, err := tomledit.Parse(data)
	if err != nil {
		return nil, &ParseError{Path: path, Format: "TOML", Err: err}
	}
	return &tomlDoc{path: path, doc: doc}, nil
}

func (d *tomlDoc) Lookup(path ...string) (Value, bool) {
	if len(path) < 2 {
		return nil, false
	}
	m, ok := d.doc.Server(path[0], path[1])
	if !ok {
		return nil, false
	}
	var v any = m
	for _, k := range path[2:] {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[k]; !ok {
			return nil, false
		}
	}
	return tomlValue{v}, true
}

func (d *tomlDoc) Set(path []string, v any) error {
	return fmt.Errorf("%s: mcpwire does not set TOML members outside a server table", d.path)
}

// Delete removes a whole top-level subtree (a derived file's servers: X1).
func (d *tomlDoc) Delete(path []string) (bool, error) {
	if len(path) != 1 {
		return false, fmt.Errorf("%s: mcpwire removes only whole top-level TOML trees", d.path)
	}
	if err := d.doc.StripTree(path[0]); err != nil {
		return false, fmt.Errorf("%s: %w", d.path, err)
	}
	return true, nil
}

func (d *tomlDoc) Bytes() ([]byte, error) { return d.doc.Bytes(), nil }

// Entries returns the tables of container c: [key.NAME] in any spelling TOML allows.
func (d *tomlDoc) Entries(c Container) (Entries, error) {
	if c.NameKey != "" || len(c.Path) != 1 {
		return nil, fmt.Errorf("%s: mcpwire cannot edit this kind of server list in a TOML file", d.path)
	}
	if err := d.doc.CheckServers(c.Path[0]); err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	return &tomlTables{d: d, key: c.Path[0], frame: c.Frame}, nil
}

// tomlTables are the [key.NAME] tables of one key.
type tomlTables struct {
	d     *tomlDoc
	key   string
	frame *Frame
}

func (t *tomlTables) Names() []string { return t.d.doc.ServerNames(t.key) }

func (t *tomlTables) Get(name string) (Entry, bool) {
	m, ok := t.d.doc.Server(t.key, name)
	if !ok {
		return nil, false
	}
	text, _ := t.d.doc.ServerText(t.key, name)
	return tomlEntry{tomlValue: tomlValue{m}, framed: t.frame != nil && framed(text, name, t.frame)}, true
}

// block renders an entry as its table, inside the frame lines when there are any.
func (t *tomlTables) block(name string, e Object) []byte {
	nl := t.d.doc.Newline()
	block := tomledit.Table(t.key, name, tomlKVs(e), nl)
	if t.frame == nil {
		return block
	}
	return []byte(t.frame.Start + name + nl + string(block) + t.frame.End + name + nl)
}

func (t *tomlTables) Digest(name string, e Object) (string, error) {
	d, err := tomledit.Parse(t.block(name, e))
	if err != nil {
		return "", fmt.Errorf("%s: %w", t.d.path, err)
	}
	m, _ := d.Server(t.key, name)
	return tomlValue{m}.digest(), nil
}

func (t *tomlTables) Set(name string, e Object) (string, error) {
	if err := t.d.doc.ReplaceServer(t.key, name, t.block(name, e)); err != nil {
		return "", fmt.Errorf("%s: %w", t.d.path, err)
	}
	m, _ := t.d.doc.Server(t.key, name)
	return tomlValue{m}.digest(), nil
}

func (t *tomlTables) SetMember(name, key string, v any) error {
	return fmt.Errorf("%s: mcpwire does not edit single members of a TOML server table", t.d.path)
}

func (t *tomlTables) Delete(name string) error {
	if _, err := t.d.doc.RemoveServer(t.key, name); err != nil {
		return fmt.Errorf("%s: %w", t.d.path, err)
	}
	return nil
}

// framed reports whether an entry's source holds both of its frame lines.
func framed(text, name string, f *Frame) bool {
	var start, end bool
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		start = start || line == f.Start+name
		end = end || line == f.End+name
	}
	return start && end
}

// tomlKVs turns an Object into a table's key/values: nested Objects are inline tables.
func tomlKVs(o Object) []tomledit.KV {
	out := make([]tomledit.KV, len(o))
	for i, m := range o {
		out[i] = tomledit.KV{Key: m.Key, Value: tomlValueOf(m.Value)}
	}
	return out
}

func tomlValueOf(v any) any {
	if o, ok := v.(Object); ok {
		return tomledit.Inline(tomlKVs(o))
	}
	return v
}

// tomlValue is a decoded TOML value.
type tomlValue struct{ v any }

func (v tomlValue) Kind() Kind {
	switch v.v.(type) {
	case map[string]any:
		return KindObject
	case []any, []map[string]any:
		return KindArray
	case string:
		return String
	case bool:
		return Bool
	}
	return Number
}

func (v tomlValue) JSON() []byte {
	b, _ := json.Marshal(v.v)
	return b
}

func (v tomlValue) digest() string {
	b, err := json.Marshal(v.v)
	if err != nil {
		return ""
	}
	return Digest(b)
}

func (v tomlValue) Member(key string) (Value, bool) {
	m, ok := v.v.(map[string]any)
	if !ok {
		return nil, false
	}
	x, ok := m[key]
	if !ok {
		return nil, false
	}
	return tomlValue{x}, true
}

func (v tomlValue) Keys() []string {
	m, _ := v.v.(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Carry writes back an array of strings only: anything else mcpwire did not write.
func (v tomlValue) Carry() (any, bool) { return Strings(v) }

// tomlEntry is a server table.
type tomlEntry struct {
	tomlValue
	framed bool
}

func (e tomlEntry) Digest() string { return e.digest() }
func (e tomlEntry) Framed() bool   { return e.framed }
