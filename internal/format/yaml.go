package format

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpwire/mcpwire/internal/yamledit"
)

// yamlDoc is a YAML file, edited in place by internal/yamledit. Edits wait and are made
// by one yamledit Apply in Bytes, which parses the result strictly and compares its
// data with the intended data once. Members set on the document go before the
// entries' edits, so that in a new file they come first (Continue's block header
// above its mcpServers).
type yamlDoc struct {
	path    string
	doc     *yamledit.Doc
	docOps  []yamledit.Op
	entries []yamledit.Op
}

// parseYAML opens a YAML file; a missing or blank file is an empty mapping. The top
// level must be a mapping, and the file one document.
func parseYAML(path string, data []byte, exists bool) (Document, error) {
	if !exists {
		data = nil
	}
	doc, err := yamledit.Parse(data)
	if err != nil {
		return nil, &ParseError{Path: path, Format: "YAML", Err: err}
	}
	return &yamlDoc{path: path, doc: doc}, nil
}

func (d *yamlDoc) Lookup(path ...string) (Value, bool) {
	v, ok := d.doc.Lookup(path...)
	if !ok {
		return nil, false
	}
	return decoded{v, true}, true
}

func (d *yamlDoc) Set(path []string, v any) error {
	if len(path) == 0 {
		return fmt.Errorf("%s: mcpwire does not replace a whole YAML document", d.path)
	}
	d.docOps = append(d.docOps, yamledit.Op{Path: path[:len(path)-1], Name: path[len(path)-1], Value: yamlValueOf(v)})
	return nil
}

func (d *yamlDoc) Delete(path []string) (bool, error) {
	if len(path) == 0 {
		return false, fmt.Errorf("%s: mcpwire does not remove a whole YAML document", d.path)
	}
	_, ok := d.doc.Lookup(path...)
	d.docOps = append(d.docOps, yamledit.Op{Path: path[:len(path)-1], Name: path[len(path)-1], Delete: true})
	return ok, nil
}

func (d *yamlDoc) Bytes() ([]byte, error) {
	if ops := append(slices.Clip(d.docOps), d.entries...); len(ops) > 0 {
		if err := d.doc.Apply(ops); err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		d.docOps, d.entries = nil, nil
	}
	return d.doc.Bytes(), nil
}

// Entries returns the entries of container c: a mapping keyed by name (Goose's
// extensions), or a list of mappings named by their NameKey member (Continue's
// mcpServers).
func (d *yamlDoc) Entries(c Container) (Entries, error) {
	if c.Frame != nil || len(c.Path) == 0 {
		return nil, fmt.Errorf("%s: mcpwire cannot edit this kind of server list in a YAML file", d.path)
	}
	if err := d.doc.Check(c.Path, c.NameKey); err != nil {
		return nil, fmt.Errorf("%s: %w", d.path, err)
	}
	return &yamlEntries{d: d, path: c.Path, item: c.NameKey, pending: map[string]*yamlEntry{}}, nil
}

// yamlEntries are the entries of one container. Edits wait in the document's ops;
// pending is what they make the entries (nil: removed).
type yamlEntries struct {
	d       *yamlDoc
	path    []string
	item    string
	pending map[string]*yamlEntry
	added   []string
}

func (y *yamlEntries) Names() []string {
	var out []string
	if len(y.pending) == 0 && len(y.added) == 0 {
		return y.d.doc.Names(y.path, y.item) // none edited: the document's own (K7)
	}
	for _, n := range append(y.d.doc.Names(y.path, y.item), y.added...) {
		if e, edited := y.pending[n]; !edited || e != nil {
			out = append(out, n)
		}
	}
	return out
}

// All lists the entries in one pass when none is edited (K7: the 22,000 extensions of
// a Goose file, each read from the tree); else by name.
func (y *yamlEntries) All() ([]string, []Entry) {
	if len(y.pending) > 0 || len(y.added) > 0 {
		names := y.Names()
		entries := make([]Entry, len(names))
		for i, n := range names {
			entries[i], _ = y.Get(n)
		}
		return names, entries
	}
	names, vals := y.d.doc.All(y.path, y.item)
	entries := make([]Entry, len(names))
	arena := &jsonArena{}
	for i, v := range vals {
		e := y.entry(names[i], v)
		e.arena = arena
		entries[i] = e
	}
	return names, entries
}

func (y *yamlEntries) Get(name string) (Entry, bool) {
	if e, edited := y.pending[name]; edited {
		if e == nil {
			return nil, false
		}
		return *e, true
	}
	// the document's own value: read from its tree, its data built only if asked for
	v, ok := y.d.doc.View(y.path, y.item, name)
	if !ok {
		return nil, false
	}
	return y.entry(name, v), true
}

// entry is the document's own entry of a name.
func (y *yamlEntries) entry(name string, v yamledit.Value) yamlEntry {
	doc := y.d.doc
	return yamlEntry{&yamlValue{node: v, tree: true}, func() []byte {
		text, _ := doc.Text(y.path, y.item, name)
		return []byte(text)
	}}
}

// written is the entry as the file will hold it: a list entry with its name member
// first.
func (y *yamlEntries) written(name string, e Object) Object {
	if y.item == "" {
		return e
	}
	return append(Object{{Key: y.item, Value: name}}, e.Without(y.item)...)
}

func (y *yamlEntries) Digest(name string, e Object) (string, error) {
	raw, err := Marshal(y.written(name, e))
	if err != nil {
		return "", err
	}
	return Digest(raw), nil
}

func (y *yamlEntries) Set(name string, e Object) (string, error) {
	raw, err := Marshal(y.written(name, e))
	if err != nil {
		return "", err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	if _, edited := y.pending[name]; !edited {
		if _, ok := y.d.doc.Get(y.path, y.item, name); !ok {
			y.added = append(y.added, name)
		}
	}
	y.d.entries = append(y.d.entries, yamledit.Op{Path: y.path, Item: y.item, Name: name, Value: yamlValueOf(e)})
	y.pending[name] = &yamlEntry{&yamlValue{d: decoded{v, true}}, nil}
	return Digest(raw), nil
}

// Restore writes the entry's lines back as they were when they still read as its
// value where it is now (tried on the file alone first, so that one that no longer
// fits cannot fail the other edits), else renders its value.
func (y *yamlEntries) Restore(name string, text, value []byte) (string, error) {
	o, err := ObjectOf(value)
	if err != nil {
		return "", fmt.Errorf("%s: %s: %w", y.d.path, name, err)
	}
	if y.item != "" {
		o = o.Without(y.item)
	}
	if _, err := y.Set(name, o); err != nil {
		return "", err
	}
	op := &y.d.entries[len(y.d.entries)-1]
	if trial, err := yamledit.Parse(y.d.doc.Bytes()); err == nil {
		try := *op
		try.Text = string(text)
		if trial.Apply([]yamledit.Op{try}) == nil {
			op.Text = try.Text
		}
	}
	var v any
	if err := json.Unmarshal(value, &v); err != nil {
		return "", err
	}
	y.pending[name] = &yamlEntry{&yamlValue{d: decoded{v, true}}, nil}
	return Digest(value), nil
}

func (y *yamlEntries) SetMember(name, key string, v any) error {
	return fmt.Errorf("%s: mcpwire does not edit single members of a YAML server entry", y.d.path)
}

func (y *yamlEntries) Delete(name string) error {
	y.d.entries = append(y.d.entries, yamledit.Op{Path: y.path, Item: y.item, Name: name, Delete: true})
	y.pending[name] = nil
	return nil
}

// yamlValueOf turns an Object (nested or not) into a yamledit.Map, keeping its order.
func yamlValueOf(v any) any {
	o, ok := v.(Object)
	if !ok {
		return v
	}
	m := make(yamledit.Map, len(o))
	for i, kv := range o {
		m[i] = yamledit.KV{Key: kv.Key, Value: yamlValueOf(kv.Value)}
	}
	return m
}

// yamlEntry is a server entry of a YAML document; text reads its lines (nil for one
// not written yet).
type yamlEntry struct {
	*yamlValue
	text func() []byte
}

// yamlValue is an entry's value: the document's own, read from its tree (tree: its
// JSON is written from the tree, and its data built only when asked for, K7), or
// decoded data (an entry set or restored).
type yamlValue struct {
	node  yamledit.Value
	tree  bool
	arena *jsonArena // where its JSON is written, when listed with others (All)
	once  sync.Once
	d     decoded
}

// value is the decoded value, built from the tree on first use.
func (y *yamlValue) value() decoded {
	y.once.Do(func() {
		if y.tree {
			y.d = decoded{y.node.Data(), true}
		}
	})
	return y.d
}

func (y *yamlValue) Kind() Kind                      { return y.value().Kind() }
func (y *yamlValue) Member(key string) (Value, bool) { return y.value().Member(key) }
func (y *yamlValue) Keys() []string                  { return y.value().Keys() }
func (y *yamlValue) Carry() (any, bool)              { return y.value().Carry() }

func (y *yamlValue) JSON() []byte {
	if y.arena != nil {
		if b, ok := y.arena.json(y.node); ok {
			return b
		}
	} else if b, ok := y.node.AppendJSON(nil); ok {
		return b
	}
	return y.value().JSON()
}

// jsonArena holds the JSON of the entries of a container listed together in blocks
// of jsonBlock bytes, not in an allocation (and its growth) each: 22,000 entries of a
// Goose file (K7).
type jsonArena struct {
	mu      sync.Mutex
	scratch []byte
	block   []byte
}

// jsonBlock is the size of an arena's blocks.
const jsonBlock = 64 << 10

// json writes the JSON of v into the arena and returns it (its capacity its length:
// an append to it never writes over another's); false when v's JSON is not written
// from the tree.
func (a *jsonArena) json(v yamledit.Value) ([]byte, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, ok := v.AppendJSON(a.scratch[:0])
	if !ok {
		return nil, false
	}
	a.scratch = b
	if len(b) > cap(a.block)-len(a.block) {
		a.block = make([]byte, 0, max(jsonBlock, len(b)))
	}
	start := len(a.block)
	a.block = append(a.block, b...)
	return a.block[start:len(a.block):len(a.block)], true
}

func (e yamlEntry) Digest() string { return Digest(e.JSON()) }
func (e yamlEntry) Framed() bool   { return false }

func (e yamlEntry) Text() []byte {
	if e.text == nil {
		return nil
	}
	return e.text()
}
