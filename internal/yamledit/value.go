package yamledit

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
	"go.yaml.in/yaml/v3"
)

// Value is the value of a container's entry (View): a node of the parsed tree, whose
// data and JSON are built only when asked for, or (a container the tree cannot
// index) the document's own decoded data.
type Value struct {
	n *yaml.Node
	v any
}

// Data returns the decoded data of the value: built afresh from the tree, or the
// document's own (never to be changed).
func (v Value) Data() any {
	if v.n == nil {
		return v.v
	}
	x, _ := toValue(v.n) // the tree passed checkData: it cannot fail
	return x
}

// AppendJSON appends the value as json.Marshal writes its Data, read straight from
// the tree, for a value made of plain strings, null, booleans, decimal integers,
// lists and mappings with string keys (what server entries hold); false for any
// other, whose Data the caller marshals (K7: an entry's JSON without building its
// maps first).
func (v Value) AppendJSON(b []byte) ([]byte, bool) {
	if v.n == nil {
		return b, false
	}
	return appendJSON(b, v.n)
}

// appendJSON appends the JSON of the data of n, as json.Marshal writes it; false for
// a node it leaves to toValue.
func appendJSON(b []byte, n *yaml.Node) ([]byte, bool) {
	switch n.Kind {
	case yaml.AliasNode:
		return appendJSON(b, n.Alias) // what it expands to is bounded (checkTree)
	case yaml.ScalarNode:
		return appendScalarJSON(b, n)
	case yaml.SequenceNode:
		b = append(b, '[')
		for i, c := range n.Content {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendJSON(b, c); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case yaml.MappingNode:
		return appendMappingJSON(b, n)
	}
	return b, false
}

// appendScalarJSON appends the JSON of the kinds of scalar scalar decodes without
// reflection.
func appendScalarJSON(b []byte, n *yaml.Node) ([]byte, bool) {
	switch k, t, i := quickScalar(n); k {
	case quickStr:
		return jsonc.AppendMarshaled(b, n.Value)
	case quickNull:
		return append(b, "null"...), true
	case quickBool:
		return strconv.AppendBool(b, t), true
	case quickInt:
		return strconv.AppendInt(b, i, 10), true
	}
	return b, false
}

// member of a mapping, for its JSON: its name and its value node.
type jsonMember struct {
	name string
	val  *yaml.Node
}

// appendMappingJSON appends a mapping whose keys are all plain strings, members
// sorted by name as json.Marshal sorts a map's keys (names are distinct: checkData).
func appendMappingJSON(b []byte, n *yaml.Node) ([]byte, bool) {
	var buf [16]jsonMember
	ms := buf[:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode || isMerge(k) || k.ShortTag() != tagStr {
			return b, false
		}
		ms = append(ms, jsonMember{k.Value, n.Content[i+1]})
	}
	slices.SortFunc(ms, func(x, y jsonMember) int { return strings.Compare(x.name, y.name) })
	b = append(b, '{')
	for i, m := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = jsonc.AppendMarshaled(b, m.name); !ok {
			return b, false
		}
		b = append(b, ':')
		if b, ok = appendJSON(b, m.val); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// entryIndex is a container's entries by name (the first of a name), for View.
type entryIndex struct {
	nodes map[string]*yaml.Node // read from the tree
	vals  map[string]any        // a list's, read from the data (aliases or merge keys in it)
	whole bool                  // every entry is indexed: a name not here is absent
}

// entryIndex returns the index of the container at path (a list of mappings named by
// their item member when item is set), built on first use; nil for a mapping the
// tree cannot reach (View reads the data then).
func (d *Doc) entryIndex(path []string, item string) *entryIndex {
	key := strings.Join(path, "\x00") + "\x01" + item
	if ix, ok := d.index[key]; ok {
		return ix
	}
	ix := d.buildIndex(path, item)
	if d.index == nil {
		d.index = map[string]*entryIndex{}
	}
	d.index[key] = ix
	return ix
}

// buildIndex indexes a container's entries.
func (d *Doc) buildIndex(path []string, item string) *entryIndex {
	n := d.node(path)
	switch {
	case item == "" && isMapping(n):
		ix := &entryIndex{nodes: make(map[string]*yaml.Node, len(n.Content)/2), whole: true}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if isMerge(n.Content[i]) {
				ix.whole = false // a name not its own may be merged: the data has it
				continue
			}
			if name, ok := keyString(n.Content[i]); ok {
				ix.nodes[name] = n.Content[i+1]
			}
		}
		return ix
	case item == "":
		return nil
	case isSequence(n):
		if ix, ok := treeItems(n, item); ok {
			return ix
		}
	}
	ix := &entryIndex{vals: map[string]any{}, whole: true}
	v, _ := d.at(path)
	list, _ := v.([]any)
	for i := len(list) - 1; i >= 0; i-- { // the first of a name wins
		countStep()
		if m, ok := list[i].(map[string]any); ok {
			if name, ok := m[item].(string); ok {
				ix.vals[name] = list[i]
			}
		}
	}
	return ix
}

// treeItems indexes the mappings of a list by their item member, read from the tree;
// false when an entry is an alias, has a merge key, or names itself by an alias or by
// a scalar that may decode to a string other than its text (a !!binary): the data
// reads those.
func treeItems(n *yaml.Node, item string) (*entryIndex, bool) {
	ix := &entryIndex{nodes: map[string]*yaml.Node{}, whole: true}
	for i := len(n.Content) - 1; i >= 0; i-- { // the first of a name wins
		countStep()
		e := n.Content[i]
		switch {
		case e.Kind == yaml.AliasNode:
			return nil, false
		case e.Kind != yaml.MappingNode:
			continue
		case hasMerge(e):
			return nil, false
		}
		p, ok := member(e, item)
		switch {
		case !ok || p.val.Kind == yaml.MappingNode || p.val.Kind == yaml.SequenceNode:
			continue // no name
		case p.val.Kind != yaml.ScalarNode:
			return nil, false // an alias: the data reads it
		}
		switch p.val.ShortTag() {
		case tagStr:
			ix.nodes[p.val.Value] = e
		case tagNull, "!!bool", "!!int", "!!float", "!!timestamp":
			// not a string, or (infinities, NaN, timestamps) one beginning with \x00
			// (normalize), which no name is
		default:
			return nil, false
		}
	}
	return ix, true
}

// hasMerge reports whether a mapping has a merge key of its own.
func hasMerge(m *yaml.Node) bool {
	for i := 0; i < len(m.Content); i += 2 {
		if isMerge(m.Content[i]) {
			return true
		}
	}
	return false
}
