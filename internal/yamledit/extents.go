package yamledit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// extent is the source of one entry: whole lines from its key (or "-") to its last
// line of content.
type extent struct {
	start, end int // byte offsets
	indent     int // the key's (or the "-"'s) indentation
}

// entrySet is where a block container's entries are.
type entrySet struct {
	byName map[string]extent
	indent int // indentation of the entries
	after  int // offset just after the last entry's content
	count  int // entries, named or not
}

// child is one entry of a block container, named or not.
type child struct {
	name     string
	named    bool
	first    int // line of the key or "-"
	col      int // its 1-based column
	seqValue bool
}

// extents finds the entries of the block container n at path.
func (e *editor) extents(path []string, n *yaml.Node, item string) (*entrySet, error) {
	kids, err := e.children(path, n, item)
	if err != nil {
		return nil, err
	}
	ls := e.d.ls
	set := &entrySet{byName: map[string]extent{}}
	for i, k := range kids {
		if kind, ind := ls.classify(k.first); kind != contentLine || ind != k.col-1 {
			return nil, fmt.Errorf("line %d: an entry of %s shares its line with other content; mcpwire cannot edit it in place", k.first, formatPath(path))
		}
		boundary := ls.blockEnd(k.first, k.col-1, k.seqValue)
		if i+1 < len(kids) {
			boundary = kids[i+1].first
		}
		last := ls.lastContent(k.first, boundary)
		x := extent{start: ls.start(k.first), end: ls.start(last + 1), indent: k.col - 1}
		if k.named {
			set.byName[k.name] = x
		}
		if i == 0 {
			set.indent = x.indent
		}
		set.after = x.end
	}
	set.count = len(kids)
	return set, nil
}

// children lists the entries of a block mapping (item empty) or sequence.
func (e *editor) children(path []string, n *yaml.Node, item string) ([]child, error) {
	var out []child
	switch {
	case isMapping(n):
		for _, p := range pairs(n) {
			name, ok := keyString(p.key)
			k := child{name: name, named: ok && item == "", first: p.key.Line, col: p.key.Column}
			if s := p.val; isSequence(s) && !isFlow(s) && len(s.Content) > 0 {
				k.seqValue = s.Column == p.key.Column // "- " at the key's own column
			}
			out = append(out, k)
		}
	case isSequence(n):
		for _, v := range n.Content {
			l, c := e.d.dash(n, v)
			k := child{first: l, col: c}
			if isMapping(v) && item != "" {
				k.name, k.named = memberString(v, item)
			}
			out = append(out, k)
		}
	}
	return out, nil
}

// nullValue matches a key line whose value is empty, null or an empty flow collection:
// the key (through its colon), the value, and what follows (spaces, a comment).
var nullValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.*?:)(\s*(?:null|Null|NULL|~|\{\s*\}|\[\s*\])?)(\s*(?:#.*)?)$`)
}) // compiled on first use, not at start-up

// place says where members go in the mapping (or, for fill, the entries go in the
// container) at path: the offset, their indentation, and a range to remove first (a
// null or empty flow value on the key's line).
func (e *editor) place(path []string) (at, indent int, remove [2]int, err error) {
	d, ls := e.d, e.d.ls
	n := d.node(path)
	if len(path) == 0 {
		switch {
		case n == nil:
			return len(d.src), 0, [2]int{-1, -1}, nil
		case isEmptyFlow(n):
			l := line(n)
			if t := strings.TrimSpace(string(ls.text(l))); t != "{}" && t != "{ }" {
				return 0, 0, [2]int{}, fmt.Errorf("line %d: mcpwire cannot edit the top level in place; write the file in block style", l)
			}
			// the whole line holds the empty top level: the members take its place
			return ls.start(l), 0, [2]int{ls.start(l), ls.start(l + 1)}, nil
		}
	}
	if n != nil && !isEmptyFlow(n) {
		if !isNull(n) {
			set, err := e.extents(path, n, "")
			if err != nil {
				return 0, 0, [2]int{}, err
			}
			return set.after, set.indent, [2]int{-1, -1}, nil
		}
	}
	mv, ok := d.memberNode(path)
	if !ok {
		return 0, 0, [2]int{}, fmt.Errorf("mcpwire cannot find %s", formatPath(path))
	}
	kl := mv.key.Line
	text := string(ls.text(kl))
	m := nullValue().FindStringSubmatchIndex(text)
	if m == nil || (n != nil && line(n) != 0 && line(n) != kl && !isImplicitNull(n)) {
		return 0, 0, [2]int{}, fmt.Errorf("line %d: mcpwire cannot edit the value of %s in place; write it as an empty line `%s:`", kl, formatPath(path), path[len(path)-1])
	}
	_, ind := ls.classify(kl)
	remove = [2]int{-1, -1}
	if strings.TrimSpace(text[m[4]:m[5]]) != "" {
		remove = [2]int{ls.start(kl) + m[4], ls.start(kl) + m[5]}
	}
	return ls.start(kl + 1), ind + e.st.step, remove, nil
}

// isEmptyFlow reports whether n is {} or [].
func isEmptyFlow(n *yaml.Node) bool {
	return (isMapping(n) || isSequence(n)) && isFlow(n) && len(n.Content) == 0
}

// isImplicitNull reports whether n is a null with no text of its own (`key:` and
// nothing after it).
func isImplicitNull(n *yaml.Node) bool {
	return isNull(n) && n.Value == "" && n.Tag == tagNull && n.Style == 0
}

// fill writes the entries of an existing empty container.
func (e *editor) fill(path []string, n *yaml.Node, item string, ops []Op) error {
	at, indent, remove, err := e.place(path)
	if err != nil {
		return err
	}
	return e.write(at, indent, remove, nil, item, ops, len(path)+1)
}

// create writes a container that does not exist, with the missing mappings on its
// path, at the end of the deepest mapping of its path that exists.
func (e *editor) create(path []string, item string, ops []Op) error {
	i := len(path)
	for i > 0 && e.d.node(path[:i]) == nil {
		i--
	}
	if err := e.d.checkParents(path); err != nil {
		return err
	}
	at, indent, remove, err := e.place(path[:i])
	if err != nil {
		return err
	}
	return e.write(at, indent, remove, path[i:], item, ops, i+1)
}

// write renders the missing keys, then the entries, at offset at.
func (e *editor) write(at, indent int, remove [2]int, keys []string, item string, ops []Op, depth int) error {
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(strings.Repeat(" ", indent) + scalarKey(k) + ":" + e.st.nl)
		indent += e.st.step
	}
	for _, op := range ops {
		text, err := e.render(op, indent)
		if err != nil {
			return err
		}
		b.WriteString(text)
	}
	if remove[0] >= 0 && at == remove[0] {
		// the removed range is a whole line: the text takes its place
		e.add(remove[0], remove[1], b.String(), depth)
		return nil
	}
	if remove[0] >= 0 {
		e.add(remove[0], remove[1], "", depth)
	}
	e.insert(at, b.String(), depth)
	return nil
}

// step is the document's indentation step: how much deeper the members of its first
// nested block mapping are than their key; 2 when it has none.
func (d *Doc) step() int {
	if s := stepOf(d.root); s > 0 {
		return s
	}
	return 2
}

func stepOf(n *yaml.Node) int {
	if !isMapping(n) || isFlow(n) {
		return 0
	}
	for _, p := range pairs(n) {
		if c := p.val; isMapping(c) && !isFlow(c) && len(c.Content) > 0 {
			if s := c.Content[0].Column - p.key.Column; s > 0 {
				return s
			}
		}
	}
	for _, p := range pairs(n) {
		if s := stepOf(p.val); s > 0 {
			return s
		}
	}
	return 0
}

// emptied writes an empty flow collection after the key of a container whose every
// entry is removed: a null there would read as no list at all (Continue refuses a
// null mcpServers, Goose a null extensions).
func (e *editor) emptied(path []string, item string) {
	mv, ok := e.d.memberNode(path)
	if !ok {
		return
	}
	kl := mv.key.Line
	m := nullValue().FindStringSubmatchIndex(string(e.d.ls.text(kl)))
	if m == nil {
		return
	}
	empty := " {}"
	if item != "" {
		empty = " []"
	}
	e.add(e.d.ls.start(kl)+m[3], e.d.ls.start(kl)+m[3], empty, len(path))
}
