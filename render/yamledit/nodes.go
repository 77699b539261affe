package yamledit

import (
	"fmt"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// unwrap returns the value under an anchor or a tag.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		default:
			return n
		}
	}
}

// line is the 1-based line of a node's first token.
func line(n ast.Node) int {
	if n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// describeNode names a node's kind for an error message.
func describeNode(n ast.Node) string {
	switch v := unwrap(n).(type) {
	case *ast.MappingNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode:
		return "null"
	case *ast.AliasNode:
		return "an alias"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	case *ast.BoolNode:
		return "a boolean"
	case *ast.IntegerNode, *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		return "a number"
	default:
		return v.Type().String()
	}
}

// keyString is the member name of a mapping key, as the decoder names it.
func keyString(k ast.MapKeyNode) (string, bool) {
	if k == nil || k.IsMergeKey() {
		return "", false
	}
	if s, ok := unwrap(k).(*ast.StringNode); ok {
		return s.Value, true
	}
	var v any
	if err := yaml.NodeToValue(k, &v); err != nil {
		return "", false
	}
	if s, ok := v.(string); ok {
		return s, true
	}
	return fmt.Sprint(v), true
}

// member returns the value node of key k in mapping m.
func member(m *ast.MappingNode, k string) (*ast.MappingValueNode, bool) {
	for _, mv := range m.Values {
		if name, ok := keyString(mv.Key); ok && name == k {
			return mv, true
		}
	}
	return nil, false
}

// memberString returns the string value of key k in mapping m.
func memberString(m *ast.MappingNode, k string) (string, bool) {
	mv, ok := member(m, k)
	if !ok {
		return "", false
	}
	s, ok := unwrap(mv.Value).(*ast.StringNode)
	if !ok {
		return "", false
	}
	return s.Value, true
}

// node returns the value node at a path of member names (the top-level mapping for
// an empty path), nil when it is absent.
func (d *Doc) node(path []string) ast.Node {
	mv := d.memberNode(path)
	if len(path) == 0 {
		return d.root
	}
	if mv == nil {
		return nil
	}
	if mv.Value == nil {
		return &ast.NullNode{BaseNode: &ast.BaseNode{}, Token: mv.Start}
	}
	return mv.Value
}

// memberNode returns the mapping member at a path (nil for the top level or when it
// is absent).
func (d *Doc) memberNode(path []string) *ast.MappingValueNode {
	n := d.root
	var mv *ast.MappingValueNode
	for _, k := range path {
		m, ok := unwrap(n).(*ast.MappingNode)
		if n == nil || !ok {
			return nil
		}
		if mv, ok = member(m, k); !ok {
			return nil
		}
		n = mv.Value
	}
	return mv
}

// entryNode is one entry of a container: its name, the node of the whole entry (a
// mapping member, or a sequence entry's value) and the line where it starts (its
// key, or its "-").
type entryNode struct {
	name  string
	node  ast.Node
	first int // 1-based line of the key or the "-"
	col   int // 1-based column of the key or the "-"
}

// entries lists the named entries of the container at path.
func (d *Doc) entries(path []string, item string) []entryNode {
	n := d.node(path)
	if n == nil {
		return nil
	}
	var out []entryNode
	switch c := unwrap(n).(type) {
	case *ast.MappingNode:
		if item != "" {
			return nil
		}
		for _, mv := range c.Values {
			name, ok := keyString(mv.Key)
			if !ok {
				continue
			}
			p := mv.Key.GetToken().Position
			out = append(out, entryNode{name: name, node: mv, first: p.Line, col: p.Column})
		}
	case *ast.SequenceNode:
		if item == "" {
			return nil
		}
		for i, v := range c.Values {
			m, ok := unwrap(v).(*ast.MappingNode)
			if !ok {
				continue
			}
			name, ok := memberString(m, item)
			if !ok {
				continue
			}
			if i >= len(c.Entries) || c.Entries[i].Start == nil {
				continue
			}
			p := c.Entries[i].Start.Position
			out = append(out, entryNode{name: name, node: v, first: p.Line, col: p.Column})
		}
	}
	return out
}

// reference returns the first anchor, alias or merge key under n, or nil.
func reference(n ast.Node) ast.Node {
	var found ast.Node
	ast.Walk(visitFunc(func(x ast.Node) bool {
		switch x.(type) {
		case *ast.AnchorNode, *ast.AliasNode, *ast.MergeKeyNode:
			found = x
			return false
		}
		return found == nil
	}), n)
	return found
}

// visitFunc adapts a function to ast.Visitor.
type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if n == nil || !f(n) {
		return nil
	}
	return f
}
