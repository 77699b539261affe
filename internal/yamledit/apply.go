package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Op is one change of [Doc.Apply]: Value becomes entry Name of the container at Path
// (a mapping keyed by name, or with Item set a sequence of mappings whose member Item
// is the name; the entry is then written with that member first), or with Delete the
// entry is removed. A container that does not exist is created at the end of its
// parent mapping; an entry that does not exist is added after the container's last.
type Op struct {
	Path   []string
	Item   string
	Name   string
	Value  any
	Delete bool
	// Text, when set for an entry that exists, is written in its place as it is (an
	// entry's earlier lines, from [Doc.Text]) instead of Value rendered, when its first
	// line is indented as the entry is; Value is what it must read as.
	Text string
}

// splice replaces src[start:end] with text. Insertions at one offset are ordered by
// depth (the deeper container's text first) and then by op order.
type splice struct {
	start, end int
	text       string
	depth, seq int
}

// Apply makes the changes of ops, each entry taking the state its last op gives it,
// and checks once: the result is parsed strictly and its data must equal the original
// data with exactly these changes. On any failure the Doc is unchanged.
func (d *Doc) Apply(ops []Op) error {
	ops = collapse(ops)
	if len(ops) == 0 {
		return nil
	}
	want := clone(d.data.get()).(map[string]any)
	vals := make([]any, len(ops))
	for i, op := range ops {
		if err := d.Check(op.Path, op.Item); err != nil {
			return err
		}
		if !op.Delete {
			v := op.Value
			if op.Item != "" {
				v = withName(op)
			}
			val, err := fromValue(v)
			if err != nil {
				return fmt.Errorf("%s: %w", formatPath(append(append([]string(nil), op.Path...), op.Name)), err)
			}
			vals[i] = val
		}
	}
	changeAll(want, ops, vals)
	ed := &editor{d: d, st: style{nl: d.nl, step: d.step()}}
	if err := ed.plan(ops); err != nil {
		return err
	}
	out := ed.result()
	next := &Doc{bom: d.bom}
	if err := next.load(out); err != nil {
		return fmt.Errorf("mcpwire cannot edit this YAML layout safely (the result does not parse: %v)", err)
	}
	if !equal(next.data.get(), want) {
		return errors.New("mcpwire cannot edit this YAML layout safely (the result would read differently)")
	}
	*d = *next
	return nil
}

// collapse keeps, for each entry, its last op, at the place of its first.
func collapse(ops []Op) []Op {
	at := map[string]int{}
	var out []Op
	for _, op := range ops {
		k := strings.Join(op.Path, "\x00") + "\x01" + op.Item + "\x01" + op.Name
		if i, ok := at[k]; ok {
			out[i] = op
			continue
		}
		at[k] = len(out)
		out = append(out, op)
	}
	return out
}

// withName is an item's value with its name member first.
func withName(op Op) Map {
	m := Map{{op.Item, op.Name}}
	w := &writer{}
	v, _ := w.plain(op.Value).(Map)
	for _, kv := range v {
		if kv.Key != op.Item {
			m = append(m, kv)
		}
	}
	return m
}

// editor plans the splices of one Apply.
type editor struct {
	d       *Doc
	st      style
	splices []splice
	seq     int
}

func (e *editor) add(start, end int, text string, depth int) {
	e.seq++
	e.splices = append(e.splices, splice{start, end, text, depth, e.seq})
}

// result applies the splices to the source.
func (e *editor) result() []byte {
	sort.SliceStable(e.splices, func(i, j int) bool {
		a, b := e.splices[i], e.splices[j]
		if a.start != b.start {
			return a.start > b.start
		}
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		return a.seq > b.seq
	})
	out := append([]byte(nil), e.d.src...)
	for _, s := range e.splices {
		out = append(out[:s.start], append([]byte(s.text), out[s.end:]...)...)
	}
	return out
}

// plan turns the ops into splices, container by container.
func (e *editor) plan(ops []Op) error {
	type group struct {
		path []string
		item string
		ops  []Op
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, op := range ops {
		k := strings.Join(op.Path, "\x00") + "\x01" + op.Item
		g := byKey[k]
		if g == nil {
			g = &group{path: op.Path, item: op.Item}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.ops = append(g.ops, op)
	}
	for _, g := range groups {
		if err := e.container(g.path, g.item, g.ops); err != nil {
			return err
		}
	}
	return nil
}

// render writes one entry at indentation ind.
func (e *editor) render(op Op, ind int) (string, error) {
	w := &writer{style: e.st}
	if op.Item != "" {
		w.item(ind, withName(op))
	} else {
		w.member(ind, op.Name, op.Value)
	}
	return w.b.String(), w.err
}

// container plans the ops of one container.
func (e *editor) container(path []string, item string, ops []Op) error {
	d := e.d
	n := d.node(path)
	var live []Op
	for _, op := range ops {
		if !op.Delete {
			live = append(live, op)
		}
	}
	if n == nil {
		if len(live) == 0 {
			return nil
		}
		return e.create(path, item, live)
	}
	if r := reference(n); r != nil {
		return fmt.Errorf("line %d: %s uses a YAML anchor, alias or merge key; mcpwire does not edit a container that has them", line(r), formatPath(path))
	}
	if empty, err := e.emptyContainer(path, n); err != nil || empty {
		if err != nil || len(live) == 0 {
			return err
		}
		return e.fill(path, n, item, live)
	}
	ents, err := e.extents(path, n, item)
	if err != nil {
		return err
	}
	var added []Op
	removed := 0
	for _, op := range ops {
		x, ok := ents.byName[op.Name]
		if !ok {
			if !op.Delete {
				added = append(added, op)
			}
			continue
		}
		if op.Delete {
			removed++
		}
		text, start := "", x.start
		unterminated := x.end == len(d.src) && !bytes.HasSuffix(d.src, []byte("\n"))
		if !op.Delete {
			if op.Text != "" && indentOf(op.Text) == x.indent {
				text = op.Text
				if !strings.HasSuffix(text, "\n") {
					text += e.st.nl
				}
			} else if text, err = e.render(op, x.indent); err != nil {
				return err
			}
			if unterminated {
				text = strings.TrimSuffix(text, e.st.nl)
			}
		} else if unterminated && start > 0 {
			// the last line of a file without a final line break goes with the break
			// before it, as insert adds one
			start -= 1 + b2i(start > 1 && d.src[start-2] == '\r')
		}
		e.add(start, x.end, text, len(path)+1)
	}
	if len(added) == 0 {
		if removed == ents.count && len(path) > 0 {
			e.emptied(path, item)
		}
		return nil
	}
	var b strings.Builder
	for _, op := range added {
		text, err := e.render(op, ents.indent)
		if err != nil {
			return err
		}
		b.WriteString(text)
	}
	e.insert(ents.after, b.String(), len(path)+1)
	return nil
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// insert adds text at offset at, on a line of its own.
func (e *editor) insert(at int, text string, depth int) {
	src := e.d.src
	if at == len(src) && at > 0 && src[at-1] != '\n' {
		// after the last line of a file without a final line break: the text goes on
		// a line of its own, and the file still ends without one
		text = e.st.nl + strings.TrimSuffix(text, e.st.nl)
	}
	e.add(at, at, text, depth)
}

// emptyContainer reports whether the container node is null or an empty flow
// collection (written anew as a block); a flow collection with entries is refused.
func (e *editor) emptyContainer(path []string, n *yaml.Node) (bool, error) {
	switch {
	case isNull(n):
		return true, nil
	case !isMapping(n) && !isSequence(n), !isFlow(n):
		return false, nil
	case len(n.Content) == 0:
		return true, nil
	}
	return false, fmt.Errorf("line %d: %s is written in flow style ({...} or [...]); mcpwire edits only block style: write one entry per line, then run again", line(n), formatPath(path))
}

// indentOf is the indentation of text's first line.
func indentOf(text string) int {
	return len(text) - len(strings.TrimLeft(text, " "))
}

// Text returns the exact lines of entry name of the container at path (a mapping
// keyed by name, or with item set a sequence named by that member), as an edit would
// replace them: from its key (or "-") to its last line of content.
func (d *Doc) Text(path []string, item, name string) (string, bool) {
	n := d.node(path)
	if n == nil {
		return "", false
	}
	if empty, err := (&editor{d: d}).emptyContainer(path, n); err != nil || empty {
		return "", false
	}
	ed := &editor{d: d, st: style{nl: d.nl, step: d.step()}}
	ents, err := ed.extents(path, n, item)
	if err != nil {
		return "", false
	}
	x, ok := ents.byName[name]
	if !ok {
		return "", false
	}
	return string(d.src[x.start:x.end]), true
}
