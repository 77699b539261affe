package yamledit

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// The parsed tree is go.yaml.in/yaml/v3's: every node has its line and column, its
// anchor and tag are fields of its own, an alias points at the node it names, and
// a mapping's Content alternates keys and values.

// Tags of the nodes this package tells apart.
const (
	tagNull  = "!!null"
	tagStr   = "!!str"
	tagMerge = "!!merge"
)

// pair is one member of a mapping: its key node and its value node.
type pair struct{ key, val *yaml.Node }

// pairs lists the members of a mapping node.
func pairs(m *yaml.Node) []pair {
	out := make([]pair, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, pair{m.Content[i], m.Content[i+1]})
	}
	return out
}

// line is the 1-based line of a node.
func line(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

// isMapping, isSequence and isNull say what a node is (an alias is none of them).
func isMapping(n *yaml.Node) bool  { return n != nil && n.Kind == yaml.MappingNode }
func isSequence(n *yaml.Node) bool { return n != nil && n.Kind == yaml.SequenceNode }
func isNull(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == tagNull
}

// isFlow reports whether a mapping or sequence is written in flow style ({...}, [...]).
func isFlow(n *yaml.Node) bool { return n.Style&yaml.FlowStyle != 0 }

// describeNode names a node's kind for an error message.
func describeNode(n *yaml.Node) string {
	switch {
	case isMapping(n):
		return "a mapping"
	case isSequence(n):
		return "a list"
	case isNull(n):
		return "null"
	case n.Kind == yaml.AliasNode:
		return "an alias"
	}
	switch n.ShortTag() {
	case tagStr:
		return "a string"
	case "!!bool":
		return "a boolean"
	case "!!int", "!!float":
		return "a number"
	}
	return "a " + strings.TrimLeft(n.ShortTag(), "!") + " value"
}

// isMerge reports whether a mapping key is the merge key <<.
func isMerge(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "" || k.Tag == "!" || k.ShortTag() == tagMerge)
}

// keyString is the member name of a mapping key, as the decoded data names it; false
// for a merge key and for a key that is not a scalar.
func keyString(k *yaml.Node) (string, bool) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode || isMerge(k) {
		return "", false
	}
	switch k.ShortTag() {
	case tagStr:
		return k.Value, true
	case tagNull:
		return "null", true
	}
	v, err := scalar(k)
	if err != nil {
		return "", false
	}
	return keyOf(v), true
}

// member returns the member called k of mapping m.
func member(m *yaml.Node, k string) (pair, bool) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if name, ok := keyString(m.Content[i]); ok && name == k {
			return pair{m.Content[i], m.Content[i+1]}, true
		}
	}
	return pair{}, false
}

// memberString returns the string value of member k of mapping m.
func memberString(m *yaml.Node, k string) (string, bool) {
	p, ok := member(m, k)
	if !ok || p.val.Kind != yaml.ScalarNode || p.val.ShortTag() != tagStr {
		return "", false
	}
	return p.val.Value, true
}

// node returns the value node at a path of member names (the top-level mapping for
// an empty path), nil when it is absent.
func (d *Doc) node(path []string) *yaml.Node {
	if len(path) == 0 {
		return d.root
	}
	p, ok := d.memberNode(path)
	if !ok {
		return nil
	}
	return p.val
}

// memberNode returns the mapping member at a non-empty path.
func (d *Doc) memberNode(path []string) (pair, bool) {
	n := d.root
	var p pair
	for _, k := range path {
		if !isMapping(n) {
			return pair{}, false
		}
		var ok bool
		if p, ok = member(n, k); !ok {
			return pair{}, false
		}
		n = p.val
	}
	return p, len(path) > 0
}

// entryNode is one entry of a container: its name, the node of the whole entry (a
// mapping member's value, or a sequence entry) and the line where it starts (its
// key, or its "-").
type entryNode struct {
	name  string
	node  *yaml.Node
	first int // 1-based line of the key or the "-"
	col   int // 1-based column of the key or the "-"
}

// entries lists the named entries of the container at path.
func (d *Doc) entries(path []string, item string) []entryNode {
	n := d.node(path)
	var out []entryNode
	switch {
	case isMapping(n) && item == "":
		out = make([]entryNode, 0, len(n.Content)/2) // K7: 22,000 extensions, not grown step by step
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			name, ok := keyString(key)
			if !ok {
				continue
			}
			out = append(out, entryNode{name: name, node: n.Content[i+1], first: key.Line, col: key.Column})
		}
	case isSequence(n) && item != "":
		for _, v := range n.Content {
			if !isMapping(v) {
				continue
			}
			name, ok := memberString(v, item)
			if !ok {
				continue
			}
			l, c := d.dash(n, v)
			out = append(out, entryNode{name: name, node: v, first: l, col: c})
		}
	}
	return out
}

// dash returns where the "-" of entry v of block sequence s is: at the sequence's own
// column (every "-" of a block sequence is), on v's first line or the last line
// before it that has one there (an entry may start on the line after its "-").
func (d *Doc) dash(s, v *yaml.Node) (line, col int) {
	col = s.Column
	for l := v.Line; l >= s.Line && l >= 1; l-- {
		if d.ls.seqItem(l, col-1) {
			return l, col
		}
	}
	return v.Line, col
}

// reference returns the first anchor, alias or merge key at or under n, or nil.
func reference(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return n
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && isMerge(c) {
			return c
		}
		if r := reference(c); r != nil {
			return r
		}
	}
	return nil
}
