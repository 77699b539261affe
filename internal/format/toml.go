package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/tomledit"
)

// tomlDoc is a TOML file, edited statement by statement by internal/tomledit. Entry edits are
// collected and made in one tomledit.Apply when Bytes is called, so that the document is parsed and
// checked once, however many entries change (an edit at a time re-parses the whole file).
type tomlDoc struct {
	path string
	doc  *tomledit.Doc
	ops  []tomledit.Op
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
	m, ok := d.doc.Get(path[0], path[1])
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
	return decoded{v: v}, true
}

func (d *tomlDoc) Set(path []string, v any) error {
	return fmt.Errorf("%s: mcpwire does not set TOML members outside a server table", d.path)
}

// Delete removes a whole top-level subtree (a derived file's servers: X1).
func (d *tomlDoc) Delete(path []string) (bool, error) {
	if len(path) != 1 || len(d.ops) > 0 {
		return false, fmt.Errorf("%s: mcpwire removes only whole top-level TOML trees, before other edits", d.path)
	}
	if err := d.doc.StripTree(path[0]); err != nil {
		return false, fmt.Errorf("%s: %w", d.path, err)
	}
	return true, nil
}

func (d *tomlDoc) Bytes() ([]byte, error) {
	if len(d.ops) > 0 {
		if err := d.doc.Apply(d.ops); err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		d.ops = nil
	}
	return d.doc.Bytes(), nil
}

// Entries returns the entries of container c: the sub-tables [key.NAME] of a table, or the
// [[key]] tables of an array named by their NameKey member.
func (d *tomlDoc) Entries(c Container) (Entries, error) {
	if len(c.Path) != 1 {
		return nil, fmt.Errorf("%s: mcpwire cannot edit servers nested under %q in a TOML file", d.path, strings.Join(c.Path, "."))
	}
	if c.Frame != nil {
		d.doc.SetFrame(tomledit.Frame{Start: c.Frame.Start, End: c.Frame.End})
	}
	check := func() error { return d.doc.Check(c.Path[0]) }
	if c.NameKey != "" {
		check = func() error { return d.doc.CheckItems(c.Path[0], c.NameKey) }
	}
	if err := check(); err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	return &tomlEntries{d: d, key: c.Path[0], item: c.NameKey, frame: c.Frame, pending: map[string]*tomlEntry{}}, nil
}

// tomlEntries are the entries of one container: sub-tables of key, or (item set) entries of the
// array of tables key named by their item member. Edits wait in the document's ops; pending is
// what they make the entries (nil: removed).
type tomlEntries struct {
	d       *tomlDoc
	key     string
	item    string
	frame   *Frame
	pending map[string]*tomlEntry
	added   []string
	// last is the block Digest rendered and decoded last, which Set usually writes next.
	lastBlock []byte
	last      *tomlEntry
}

func (t *tomlEntries) Names() []string {
	var names []string
	if t.item != "" {
		names = t.d.doc.ItemNames(t.key, t.item)
	} else {
		names = t.d.doc.Names(t.key)
	}
	var out []string
	for _, n := range append(names, t.added...) {
		if e, edited := t.pending[n]; !edited || e != nil {
			out = append(out, n)
		}
	}
	return out
}

func (t *tomlEntries) Get(name string) (Entry, bool) {
	if e, edited := t.pending[name]; edited {
		if e == nil {
			return nil, false
		}
		return *e, true
	}
	var m map[string]any
	var text string
	var ok bool
	if t.item != "" {
		m, ok = t.d.doc.GetItem(t.key, t.item, name)
		text, _ = t.d.doc.ItemText(t.key, t.item, name)
	} else {
		m, ok = t.d.doc.Get(t.key, name)
		text, _ = t.d.doc.Text(t.key, name)
	}
	if !ok {
		return nil, false
	}
	return tomlEntry{decoded: decoded{v: m}, framed: t.frame != nil && framed(text, name, t.frame), text: text}, true
}

// block renders an entry as its table (an array entry with its name member first), inside the
// frame lines when there are any.
func (t *tomlEntries) block(name string, e Object) []byte {
	block := t.table(name, e)
	if t.frame == nil {
		return block
	}
	nl := t.d.doc.Newline()
	return []byte(t.frame.Start + name + nl + string(block) + t.frame.End + name + nl)
}

// table renders an entry as its table, without frame lines.
func (t *tomlEntries) table(name string, e Object) []byte {
	nl := t.d.doc.Newline()
	if t.item != "" {
		return tomledit.Item(t.key, tomlKVs(append(Object{{Key: t.item, Value: name}}, e.Without(t.item)...)), nl)
	}
	return tomledit.Table(t.key, name, tomlKVs(e), nl)
}

// Restore puts the entry's own tables back as they were; an entry that was not a table
// of its own (dotted keys, an inline table) is written as one from its value. Either
// way without frame lines unless its text has them: it is the person's.
func (t *tomlEntries) Restore(name string, text, value []byte) (string, error) {
	block := text
	if t.d.doc.CheckBlock(tomledit.Op{Key: t.key, Item: t.item, Name: name, Block: block}) != nil {
		o, err := ObjectOf(value)
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w", t.d.path, name, err)
		}
		block = t.table(name, o)
	}
	entry, err := t.entry(name, block)
	if err != nil {
		return "", err
	}
	restored := *entry
	restored.framed = t.frame != nil && framed(string(block), name, t.frame)
	restored.text = string(block)
	if _, edited := t.pending[name]; !edited && !t.exists(name) {
		t.added = append(t.added, name)
	}
	t.d.ops = append(t.d.ops, tomledit.Op{Key: t.key, Item: t.item, Name: name, Block: block})
	t.pending[name] = &restored
	return restored.dg, nil
}

// entry decodes a rendered block as the entry it will be in the file.
func (t *tomlEntries) entry(name string, block []byte) (*tomlEntry, error) {
	if t.last != nil && bytes.Equal(block, t.lastBlock) {
		return t.last, nil
	}
	// Decode, as Parse validates, without splitting the block into statements: only
	// its value is wanted, and it is this decode's own.
	data, err := tomledit.Decode(block)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.d.path, err)
	}
	m := tomledit.Entry(data, t.key, t.item, name)
	t.lastBlock, t.last = block, &tomlEntry{decoded: decoded{v: m}, framed: t.frame != nil, dg: decoded{v: m}.digest(), text: string(block)}
	return t.last, nil
}

func (t *tomlEntries) Digest(name string, e Object) (string, error) {
	entry, err := t.entry(name, t.block(name, e))
	if err != nil {
		return "", err
	}
	return entry.dg, nil
}

func (t *tomlEntries) Set(name string, e Object) (string, error) {
	block := t.block(name, e)
	entry, err := t.entry(name, block)
	if err != nil {
		return "", err
	}
	if _, edited := t.pending[name]; !edited && !t.exists(name) {
		t.added = append(t.added, name)
	}
	t.d.ops = append(t.d.ops, tomledit.Op{Key: t.key, Item: t.item, Name: name, Block: block})
	t.pending[name] = entry
	return entry.dg, nil
}

// exists reports whether the file holds the entry (before the pending edits).
func (t *tomlEntries) exists(name string) bool {
	var ok bool
	if t.item != "" {
		_, ok = t.d.doc.GetItem(t.key, t.item, name)
	} else {
		_, ok = t.d.doc.Get(t.key, name)
	}
	return ok
}

func (t *tomlEntries) SetMember(name, key string, v any) error {
	return fmt.Errorf("%s: mcpwire does not edit single members of a TOML server table", t.d.path)
}

func (t *tomlEntries) Delete(name string) error {
	t.d.ops = append(t.d.ops, tomledit.Op{Key: t.key, Item: t.item, Name: name})
	t.pending[name] = nil
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
	switch v := v.(type) {
	case Object:
		return tomledit.Inline(tomlKVs(v))
	case []any: // an entry's value read back (ObjectOf)
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = tomlValueOf(x)
		}
		return out
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n
		}
		f, _ := v.Float64()
		return f
	}
	return v
}

// tomlEntry is a server table.
type tomlEntry struct {
	decoded
	framed bool
	dg     string // the digest, when known
	text   string // its source statements
}

func (e tomlEntry) Digest() string {
	if e.dg != "" {
		return e.dg
	}
	return e.digest()
}
func (e tomlEntry) Framed() bool { return e.framed }
func (e tomlEntry) Text() []byte { return []byte(e.text) }
