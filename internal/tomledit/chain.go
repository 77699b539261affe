package tomledit

import (
	"bytes"
	"cmp"
	"slices"
)

// node is one statement of a chain: its text is src[st.start:st.end].
type node struct {
	src        []byte
	st         stmt
	prev, next *node
	rm         bool
}

func (n *node) text() []byte { return n.src[n.st.start:n.st.end] }

// chain is the document as a linked list of statements, so that an edit costs what it touches: the
// statements it removes or inserts and their neighbours.
type chain struct {
	head, tail *node
	nl         string
	frame      Frame
	// tables holds, per key and sub-table, its headers and key/values in document order; items, per
	// key, the entries of its array of tables.
	tables map[string]map[string][]*node
	items  map[string]*itemIndex
}

// newChain builds the chain of d, with the indexes the ops need.
func newChain(d *Doc, ops []Op) *chain {
	c := &chain{nl: d.nl, frame: d.frame, tables: map[string]map[string][]*node{}, items: map[string]*itemIndex{}}
	nodes := make([]*node, len(d.stmts))
	for i := range d.stmts {
		nodes[i] = &node{src: d.src, st: d.stmts[i]}
		c.link(nodes[i], nil)
	}
	for _, op := range ops {
		switch {
		case op.Item != "" && c.items[op.Key] == nil:
			c.items[op.Key] = d.itemIndex(op.Key, op.Item, nodes)
		case op.Item == "" && c.tables[op.Key] == nil:
			byName := map[string][]*node{}
			for name, idx := range d.index(op.Key).names {
				for _, i := range idx {
					byName[name] = append(byName[name], nodes[i])
				}
			}
			c.tables[op.Key] = byName
		}
	}
	return c
}

// link inserts n before at (at the end when at is nil).
func (c *chain) link(n, at *node) {
	if at == nil {
		n.prev, n.next = c.tail, nil
		if c.tail != nil {
			c.tail.next = n
		} else {
			c.head = n
		}
		c.tail = n
		return
	}
	n.prev, n.next = at.prev, at
	if at.prev != nil {
		at.prev.next = n
	} else {
		c.head = n
	}
	at.prev = n
}

// unlink removes n.
func (c *chain) unlink(n *node) {
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		c.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		c.tail = n.prev
	}
}

func (c *chain) bytes() []byte {
	var b bytes.Buffer
	for n := c.head; n != nil; n = n.next {
		b.Write(n.text())
	}
	return b.Bytes()
}

// isMarker reports whether n is the comment line prefix+name.
func (c *chain) isMarker(n *node, prefix, name string) bool {
	return prefix != "" && n != nil && n.st.kind == kindComment && markerLine(n.text(), prefix, name)
}

// extent returns the first and last statement header h owns (see Doc.extent).
func (c *chain) extent(h *node, name string) (*node, *node) {
	s, e := h, h
	if c.isMarker(h.prev, c.frame.Start, name) {
		s = h.prev
	}
	for k := h.next; k != nil && !k.st.isHeader(); k = k.next {
		if k.st.kind == kindKeyValue {
			e = k
		}
	}
	if c.isMarker(e.next, c.frame.End, name) {
		e = e.next
	}
	return s, e
}

// do makes one change.
func (c *chain) do(op Op) {
	var own []*node
	if op.Item != "" {
		own = c.items[op.Key].own(op.Name)
	} else {
		own = c.tables[op.Key][op.Name]
	}
	block := blockNodes(op.Block)
	c.edit(own, op.Name, block)
	var owned []*node
	for _, n := range block {
		if n.st.isHeader() || n.st.kind == kindKeyValue {
			owned = append(owned, n)
		}
	}
	if op.Item != "" {
		c.items[op.Key].set(op.Name, owned)
		return
	}
	if owned == nil {
		delete(c.tables[op.Key], op.Name)
		return
	}
	c.tables[op.Key][op.Name] = owned
}

// blockNodes returns the statements of a block, checked (checkOp, rewriteInline), as new nodes; nil
// for none.
func blockNodes(block []byte) []*node {
	var out []*node
	stmts, _ := scan(block)
	for i := range stmts {
		out = append(out, &node{src: block, st: stmts[i]})
	}
	return out
}

// at returns the node of statement i of the document the chain was built from, before any change.
func (c *chain) at(i int) *node {
	n := c.head
	for ; i > 0; i-- {
		n = n.next
	}
	return n
}

// withStmt adds n to own (nodes of the document, in document order) in its place.
func withStmt(own []*node, n *node) []*node {
	i, _ := slices.BinarySearchFunc(own, n, func(a, b *node) int { return cmp.Compare(a.st.start, b.st.start) })
	return slices.Insert(slices.Clone(own), i, n)
}

// edit removes the statements own (headers and key/values, in document order) owns and puts block
// in their place, for one Replace or Remove (block nil): the block goes where the first table's own
// statements began, or at the end after one blank line; blank lines left over are tidied.
func (c *chain) edit(own []*node, name string, block []*node) {
	var ins *node
	var marked []*node
	for _, n := range own {
		if !n.st.isHeader() {
			if !n.rm {
				n.rm = true
				marked = append(marked, n)
			}
			continue
		}
		s, e := c.extent(n, name)
		if ins == nil {
			ins = s
		}
		for k := s; ; k = k.next {
			if !k.rm {
				k.rm = true
				marked = append(marked, k)
			}
			if k == e {
				break
			}
		}
	}
	if block == nil {
		ins = nil
	}
	c.replace(marked, ins, name, block)
}

// replace removes the statements marked (marked rm, in document order) and puts block in their
// place: before ins, the first removed statement of the run the block takes the place of, or at the
// end after one blank line when ins is nil; blank lines left over are tidied. name is the sub-table
// or entry the block defines (for its frame lines).
func (c *chain) replace(marked []*node, ins *node, name string, block []*node) {
	var runStart *node
	if ins != nil {
		// The block takes the place of the removed run holding ins; the blank lines ending that
		// run stay, to keep the spacing after it.
		runStart = ins
		for runStart.prev != nil && runStart.prev.rm {
			runStart = runStart.prev
		}
		j := ins
		for j.next != nil && j.next.rm {
			j = j.next
		}
		for k := j; k != ins && k.st.kind == kindBlank; k = k.prev {
			k.rm = false
		}
	}
	marked = append(marked, c.tidy(marked, runStart)...)
	if ins != nil {
		c.insert(ins, name, block)
	}
	for _, n := range marked {
		if n.rm {
			c.unlink(n)
		}
	}
	if ins == nil && len(block) > 0 {
		c.appendBlock(block)
	}
}

// tidy extends the removed runs over blank lines that would otherwise pile up: before a run that
// reaches the end, after a run at the start, and after a run that sits between blank lines. The run
// starting at skip (which a block replaces) is left alone. marked are the removed statements, in
// document order; tidy returns those it removes too.
func (c *chain) tidy(marked []*node, skip *node) []*node {
	type run struct{ a, b *node }
	var runs []run
	for _, n := range marked {
		if !n.rm || n.prev != nil && n.prev.rm {
			continue
		}
		b := n
		for b.next != nil && b.next.rm {
			b = b.next
		}
		runs = append(runs, run{n, b})
	}
	blank := func(n *node) bool { return n != nil && !n.rm && n.st.kind == kindBlank }
	var more []*node
	for _, r := range runs {
		switch {
		case r.a == skip:
		case r.b.next == nil:
			for k := r.a.prev; blank(k); k = k.prev {
				k.rm = true
				more = append(more, k)
			}
		case r.a.prev == nil || blank(r.a.prev) && blank(r.b.next):
			for k := r.b.next; blank(k); k = k.next {
				k.rm = true
				more = append(more, k)
			}
		}
	}
	return more
}

// insert puts block before ins (the first removed statement of its run), set apart by a blank line.
func (c *chain) insert(ins *node, name string, block []*node) {
	prev := ins.prev
	for prev != nil && prev.rm {
		prev = prev.prev
	}
	next := ins
	for next != nil && next.rm {
		next = next.next
	}
	// A comment that sat right above the old table stays right above the block (it is not the
	// table's own, so it does not become the block's); one that sat above a removed statement, or
	// the start frame line, is set apart.
	if prev != nil && prev.st.kind == kindComment && (prev != ins.prev || c.isMarker(prev, c.frame.Start, name)) {
		c.link(c.blank(), ins)
	}
	for _, n := range block {
		c.link(n, ins)
	}
	// A header or key/value after the block is set apart by a blank line; a comment that followed
	// the old table stays where it was, unless it is the end frame line.
	if next != nil {
		switch {
		case next.st.kind == kindBlank:
		case next.st.kind == kindComment && !c.isMarker(next, c.frame.End, name):
		default:
			c.link(c.blank(), ins)
		}
	}
}

// appendBlock puts block at the end after exactly one blank line (none in an empty document).
func (c *chain) appendBlock(block []*node) {
	for c.tail != nil && c.tail.st.kind == kindBlank {
		c.unlink(c.tail)
	}
	if c.tail != nil {
		if t := c.tail.text(); t[len(t)-1] != '\n' {
			text := append(append([]byte{}, t...), c.nl...)
			c.tail.src, c.tail.st.start, c.tail.st.end = text, 0, len(text)
		}
		c.link(c.blank(), nil)
	}
	for _, n := range block {
		c.link(n, nil)
	}
}

// blank is a new blank line.
func (c *chain) blank() *node {
	return &node{src: []byte(c.nl), st: stmt{kind: kindBlank, end: len(c.nl)}}
}
