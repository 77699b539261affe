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

// checkData finds what building the data of a checked tree (toValue) would refuse —
// a mapping key that is not a scalar or that names a member twice, a merge key that
// names what is not a mapping, a scalar its tag cannot decode — and gives the same
// first error, without building anything: a document's data is built only when it is
// asked for (K7). An anchored node is looked at once, however many aliases name it.
func checkData(root *yaml.Node) error {
	c := &dataChecker{done: map[*yaml.Node]bool{}}
	return c.node(root)
}

// dataChecker walks a tree in toValue's order; done holds the anchored nodes walked.
type dataChecker struct {
	done map[*yaml.Node]bool
}

// smallMapping is the number of members up to which a mapping's keys are compared
// with the keys before them, not indexed.
const smallMapping = 16

func (c *dataChecker) node(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Anchor != "" {
		if c.done[n] {
			return nil // an alias of a node walked already: no error there
		}
		c.done[n] = true
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if k, _, _ := quickScalar(n); k != notQuick {
			return nil
		}
		_, err := scalar(n)
		return err
	case yaml.SequenceNode:
		for _, e := range n.Content {
			if err := c.node(e); err != nil {
				return err
			}
		}
		return nil
	case yaml.MappingNode:
		return c.mapping(n)
	}
	return fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// mapping checks a mapping as mapping builds it: its own members, then the mappings
// its merge key names.
func (c *dataChecker) mapping(n *yaml.Node) error {
	var names map[string]bool
	if len(n.Content) > 2*smallMapping {
		names = make(map[string]bool, len(n.Content)/2)
	}
	merge, err := eachMember(n, func(i int, name string) error {
		dup := false
		if names != nil {
			dup = names[name]
			names[name] = true
		} else {
			dup = keyLine(n, i, name) > 0
		}
		if dup {
			return duplicateKey(n, i, name)
		}
		return c.node(n.Content[i+1])
	})
	if err != nil || merge == nil {
		return err
	}
	return eachMerged(merge, c.node)
}

// eachMember calls fn with the position and name of each member of mapping n but
// its merge key, in order, until fn fails, and returns the merge key's value (the
// last, should there be two); an error for a key that is not a scalar.
func eachMember(n *yaml.Node, fn func(i int, name string) error) (merge *yaml.Node, err error) {
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
		if err := fn(i, name); err != nil {
			return nil, err
		}
	}
	return merge, nil
}

// duplicateKey is the error for member i of n, whose name a member before it has.
func duplicateKey(n *yaml.Node, i int, name string) error {
	return fmt.Errorf("line %d: mapping key %q already defined at line %d", n.Content[i].Line, name, keyLine(n, i, name))
}

// eachMerged calls fn with each mapping a merge key's value names (an earlier one of
// a list first), aliases followed, until fn fails; an error when one is not a
// mapping.
func eachMerged(merge *yaml.Node, fn func(*yaml.Node) error) error {
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
			return fmt.Errorf("line %d: a merge key must name mappings", m.Line)
		}
		if err := fn(t); err != nil {
			return err
		}
	}
	return nil
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
	merge, err := eachMember(n, func(i int, name string) error {
		if _, dup := out[name]; dup { // out holds only the keys before it yet
			return duplicateKey(n, i, name)
		}
		v, err := toValue(n.Content[i+1])
		out[name] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	if merge == nil {
		return out, nil
	}
	err = eachMerged(merge, func(t *yaml.Node) error {
		mv, err := mapping(t)
		if err != nil {
			return err
		}
		for k, v := range mv {
			if _, ok := out[k]; !ok {
				out[k] = v
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// quick is the kind of a scalar that scalar decodes without reflection.
type quick int

const (
	notQuick quick = iota
	quickStr
	quickNull
	quickBool
	quickInt
)

// quickScalar classifies a scalar node: a string, null, a boolean or a decimal int
// (with its value), or notQuick for any other (decoded by yaml.v3). Nothing is
// allocated: checking a tree's data boxes no value (K7).
func quickScalar(n *yaml.Node) (k quick, b bool, i int64) {
	switch n.ShortTag() {
	case tagStr:
		return quickStr, false, 0
	case tagNull:
		return quickNull, false, 0
	case "!!bool":
		switch n.Value {
		case "true", "True", "TRUE":
			return quickBool, true, 0
		case "false", "False", "FALSE":
			return quickBool, false, 0
		}
	case "!!int":
		if v := n.Value; v == "0" || v != "" && v[0] >= '1' && v[0] <= '9' {
			if i, err := strconv.ParseInt(v, 10, 64); err == nil {
				return quickInt, false, i // plain decimal digits
			}
		}
	}
	return notQuick, false, 0
}

// scalar decodes a scalar node as yaml.v3 does into an interface value: a string, nil,
// a bool, an int, a float64, a time.Time for a timestamp, the decoded bytes of
// !!binary as a string. The common kinds are read without reflection.
func scalar(n *yaml.Node) (any, error) {
	switch k, b, i := quickScalar(n); k {
	case quickStr:
		return n.Value, nil
	case quickNull:
		return nil, nil
	case quickBool:
		return b, nil
	case quickInt:
		return int(i), nil
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
