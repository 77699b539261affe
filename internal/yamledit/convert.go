package yamledit

import (
	"fmt"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/limits"
	"go.yaml.in/yaml/v3"
)

// The data of a document, as yaml.v3 decodes it into an interface value — aliases
// expanded, merge keys merged, duplicate keys refused — built from the parsed tree
// within mcpwire's limits (SPEC K1, K3): no deeper than limits.Depth, and aliases
// adding no more than limits.AliasNodes nodes. Both are counted on the tree before
// anything is built (each node once, an alias by the size of what it names), so
// that a "billion laughs" document is refused after a walk of its few lines.

// measure is the expanded size and depth of a node.
type measure struct {
	size, depth int
}

// sizer measures the nodes of one document: each node once, and the nodes that
// aliases name (anchored ones) remembered, so that an alias costs one look-up.
type sizer struct {
	named    map[*yaml.Node]*measure // anchored nodes measured, nil while being measured
	maxDepth int
	plain    int // nodes of the tree itself, each alias one
}

// saturating addition, so that a bomb's size does not overflow.
func addSize(a, b int) int {
	if a+b < a {
		return int(^uint(0) >> 1)
	}
	return a + b
}

// measure returns the expanded size and depth of n, found at depth, or an error
// when it goes past the depth limit or an alias names a node that holds it.
func (z *sizer) measure(n *yaml.Node, depth int) (measure, error) {
	if depth > z.maxDepth {
		return measure{}, limits.Nesting(n.Line)
	}
	if n.Kind == yaml.AliasNode {
		z.plain++
		t := n.Alias
		if t == nil {
			return measure{}, fmt.Errorf("line %d: unknown anchor %s", n.Line, n.Value)
		}
		m, seen := z.named[t]
		switch {
		case seen && m == nil:
			return measure{}, fmt.Errorf("line %d: an alias names a node that holds it", n.Line)
		case !seen: // not met before its alias (the parser never gives that): refused
			return measure{}, fmt.Errorf("line %d: an alias names a node not met before it", n.Line)
		}
		if depth+m.depth-1 > z.maxDepth {
			return measure{}, limits.Nesting(n.Line)
		}
		return *m, nil
	}
	if n.Anchor != "" {
		m, err := z.anchored(n, depth)
		if err != nil {
			return measure{}, err
		}
		return *m, nil
	}
	return z.node(n, depth)
}

// anchored measures an anchored node and remembers it.
func (z *sizer) anchored(n *yaml.Node, depth int) (*measure, error) {
	z.named[n] = nil // being measured
	m, err := z.node(n, depth)
	if err != nil {
		return nil, err
	}
	z.named[n] = &m
	return &m, nil
}

// node measures a node that is not an alias: itself and its children.
func (z *sizer) node(n *yaml.Node, depth int) (measure, error) {
	z.plain++
	m := measure{size: 1, depth: 1}
	for _, c := range n.Content {
		cm, err := z.measure(c, depth+1)
		if err != nil {
			return measure{}, err
		}
		m.size = addSize(m.size, cm.size)
		m.depth = max(m.depth, cm.depth+1)
	}
	return m, nil
}

// checkTree refuses a tree that expands past mcpwire's limits (maxAdded nodes added
// by aliases, maxDepth levels), counting each node once.
func checkTree(root *yaml.Node, maxAdded, maxDepth int) error {
	z := &sizer{named: map[*yaml.Node]*measure{}, maxDepth: maxDepth}
	m, err := z.measure(root, 1)
	if err != nil {
		return err
	}
	if m.size-z.plain > maxAdded { // the nodes the aliases add
		return limits.Aliases(firstAlias(root))
	}
	return nil
}

// firstAlias is the line of the first alias of a tree, for the error.
func firstAlias(n *yaml.Node) int {
	if n.Kind == yaml.AliasNode {
		return n.Line
	}
	for _, c := range n.Content {
		if l := firstAlias(c); l > 0 {
			return l
		}
	}
	return 0
}

// toValue builds the data of a checked node, as normalize gives yaml.v3's decoding of
// it: map[string]any, []any and normalized scalars. A mapping's keys that name the same member, or that are not
// scalars, are refused.
func toValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.AliasNode:
		return toValue(n.Alias)
	case yaml.ScalarNode:
		v, err := scalar(n)
		return normalize(v), err
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := toValue(c)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case yaml.MappingNode:
		return mapping(n)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// keyLine is the line of the first key of n before Content[end] that names name (a
// key written twice is found by the map being built, not by a second map of lines:
// K7, a Goose file of 22,000 extensions).
func keyLine(n *yaml.Node, end int, name string) int {
	for i := 0; i < end; i += 2 {
		if k := n.Content[i]; !isMerge(k) {
			if s, ok := keyString(k); ok && s == name {
				return k.Line
			}
		}
	}
	return 0
}

// mapping builds a mapping: its own members, then those of its merge key's mappings
// that it does not have (an earlier one of a list first), as yaml.v3 merges.
func mapping(n *yaml.Node) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	var merge *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if isMerge(k) {
			merge = n.Content[i+1]
			continue
		}
		name, ok := keyString(k)
		if !ok {
			return nil, fmt.Errorf("line %d: a mapping key must be a scalar, not %s", k.Line, describeNode(k))
		}
		if _, dup := out[name]; dup { // out holds only the keys before it yet
			return nil, fmt.Errorf("line %d: mapping key %q already defined at line %d", k.Line, name, keyLine(n, i, name))
		}
		v, err := toValue(n.Content[i+1])
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	if merge == nil {
		return out, nil
	}
	from := []*yaml.Node{merge}
	if merge.Kind == yaml.SequenceNode {
		from = merge.Content
	}
	for _, m := range from {
		t := m
		if t.Kind == yaml.AliasNode {
			t = t.Alias
		}
		if t.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("line %d: a merge key must name mappings", m.Line)
		}
		mv, err := mapping(t)
		if err != nil {
			return nil, err
		}
		for k, v := range mv {
			if _, ok := out[k]; !ok {
				out[k] = v
			}
		}
	}
	return out, nil
}

// scalar decodes a scalar node as yaml.v3 does into an interface value: a string, nil,
// a bool, an int, a float64, a time.Time for a timestamp, the decoded bytes of
// !!binary as a string. The common kinds are read without reflection.
func scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case tagStr:
		return n.Value, nil
	case tagNull:
		return nil, nil
	case "!!bool":
		switch n.Value {
		case "true", "True", "TRUE":
			return true, nil
		case "false", "False", "FALSE":
			return false, nil
		}
	case "!!int":
		if v := n.Value; v == "0" || v != "" && v[0] >= '1' && v[0] <= '9' {
			if i, err := strconv.ParseInt(v, 10, 64); err == nil {
				return int(i), nil // plain decimal digits
			}
		}
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("line %d: %s", n.Line, firstLine(err.Error()))
	}
	return v, nil
}

// keyOf is the member name of a decoded scalar key, as normalize names the keys of a
// map[any]any.
func keyOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}
