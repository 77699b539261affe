package tomledit

import (
	"bytes"
	"fmt"
	"strings"
)

// Replace makes the definition of sub-table name of key equal to block, the TOML source text of a
// table such as [Table] renders: it must start with a [key.name] header and define nothing else,
// and every line of it must be the table's own (see the package documentation), so the only comment
// lines that may surround it are its frame lines. Every statement the sub-table owns is removed (see
// [Doc.Text]); comments that are not the table's own stay.
//
// The block goes where the sub-table's first table's own statements began, so the comments directly
// above that table stay directly above the block (a blank line sets the block apart from a comment
// that sat above a removed statement instead, or that is the table's start frame line). When the
// sub-table was defined only by dotted keys or inline entries, or is absent, those statements are
// removed and the block is appended at the end of the document after exactly one blank line.
//
// A root inline table `key = { other = { ... } }` is closed to additions, so when one exists it is
// rewritten as standalone [key.other] tables appended at the end, before the block: each entry's key
// and value are copied from the source text (not re-encoded), and comments inside that inline table
// are dropped. All other statements are kept byte for byte.
//
// Replace refuses what [Doc.Check] refuses. If the result does not parse strictly or its data
// differs from the original data with only the sub-table changed, it returns an error and the Doc is
// unchanged.
func (d *Doc) Replace(key, name string, block []byte) error {
	return d.Apply([]Op{{Key: key, Name: name, Block: block}})
}

// Remove removes every statement defining sub-table name of key: its tables as they own them (see
// the package documentation; every other comment stays) and its dotted key/values. It reports
// whether the sub-table existed. One inside a root inline table `key = { ... }` is removed from that
// statement, which keeps the other entries' source text; the statement goes when it held only that
// one. An explicit [key] header is always kept, but no empty one is created. Remove refuses what
// [Doc.Check] refuses; on any failure the Doc is unchanged.
func (d *Doc) Remove(key, name string) (bool, error) {
	if err := d.Check(key); err != nil {
		return false, err
	}
	tables, _ := d.data[key].(map[string]any)
	if _, ok := tables[name]; !ok {
		return false, nil
	}
	return true, d.Apply([]Op{{Key: key, Name: name}})
}

// replaceSlow is Replace one change at a time, checked: the way for a document with a root inline
// table `key = { ... }`, which goes, its other entries rewritten as standalone tables appended at
// the end before the block (rewriteInline). Such a key has no table of its own, so the block is
// appended too.
func (d *Doc) replaceSlow(key, name string, block []byte, want map[string]any) error {
	c := newChain(d, []Op{{Key: key, Name: name}})
	own, nodes := c.tables[key][name], blockNodes(block)
	if i := d.index(key).inline; i >= 0 {
		tail, err := d.rewriteInline(i, key, name)
		if err != nil {
			return err
		}
		own = withStmt(own, c.at(i))
		if len(tail) > 0 {
			nodes = append(append(blockNodes(tail), c.blank()), nodes...)
		}
	}
	c.edit(own, name, nodes)
	return d.commit(c.bytes(), want, []string{key})
}

// removeSlow is Remove one change at a time, checked: the way for a document with a root inline
// table, from which the entry of name is removed (the statement goes when it held only that one).
func (d *Doc) removeSlow(key, name string, want map[string]any) error {
	c := newChain(d, []Op{{Key: key, Name: name}})
	own := c.tables[key][name]
	if i := d.index(key).inline; i >= 0 && d.inlineHas(i, name) {
		text, err := d.inlineWithout(i, name)
		if err != nil {
			return err
		}
		if n := c.at(i); text == nil {
			own = withStmt(own, n)
		} else {
			n.src, n.st.start, n.st.end = text, 0, len(text)
		}
	}
	c.edit(own, name, nil)
	return d.commit(c.bytes(), want, []string{key})
}

// checkBlock validates a replacement block and returns the server's decoded value and the block
// ending with a line terminator.
func (d *Doc) checkBlock(key, name string, block []byte) (map[string]any, []byte, error) {
	if len(block) > 0 && block[len(block)-1] != '\n' {
		block = append(bytes.Clone(block), d.nl...)
	}
	want := formatPath([]string{key, name})
	data, err := decode(block)
	if err != nil {
		return nil, nil, fmt.Errorf("block for %s: %w", want, err)
	}
	servers, _ := data[key].(map[string]any)
	val, ok := servers[name].(map[string]any)
	if len(data) != 1 || len(servers) != 1 || !ok {
		return nil, nil, fmt.Errorf("block must define exactly the table %s", want)
	}
	stmts, err := scan(block)
	if err != nil {
		return nil, nil, fmt.Errorf("block for %s: %w", want, err)
	}
	prefix := []string{key, name}
	seenHeader := false
	for _, st := range stmts {
		switch st.kind {
		case kindTable, kindArrayTable:
			if !hasPrefix(st.path, prefix) {
				return nil, nil, fmt.Errorf("block for %s: line %d: table %s is outside it", want, st.line, formatPath(st.path))
			}
			seenHeader = true
		case kindKeyValue:
			if !seenHeader {
				return nil, nil, fmt.Errorf("block for %s: line %d: must start with a [%s] header", want, st.line, want)
			}
		}
	}
	// Every line must be the table's own: a comment or blank line the table did not own would stay
	// behind when the server is replaced again, and pile up.
	bd := &Doc{src: block, stmts: stmts, frame: d.frame}
	own := bd.tableMarks(key, name)
	for i, st := range stmts {
		if !own[i] {
			return nil, nil, fmt.Errorf("block for %s: line %d: only the table and its frame lines may be in the block", want, st.line)
		}
	}
	return val, block, nil
}

// rewriteInline renders the entries of the root inline table at statement i, except server skip, as
// standalone [key.NAME] tables separated by blank lines. Keys and values are copied from the source.
func (d *Doc) rewriteInline(i int, key, skip string) ([]byte, error) {
	entries, err := inlineEntries(d.src, d.stmts[i].valStart)
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", d.stmts[i].line, err)
	}
	type group struct {
		name  string
		lines []string
	}
	var groups []*group
	byName := map[string]*group{}
	for _, e := range entries {
		name := e.key[0].name
		if name == skip {
			continue
		}
		g := byName[name]
		if g == nil {
			g = &group{name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		val := string(d.src[e.valStart:e.valEnd])
		if len(e.key) > 1 {
			g.lines = append(g.lines, d.rawKey(e.key[1:])+" = "+val)
			continue
		}
		if val[0] != '{' {
			return nil, fmt.Errorf("line %d: %s must be a table", d.stmts[i].line, formatPath([]string{key, name}))
		}
		inner, err := inlineEntries(d.src, e.valStart)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", d.stmts[i].line, err)
		}
		for _, ie := range inner {
			g.lines = append(g.lines, d.rawKey(ie.key)+" = "+string(d.src[ie.valStart:ie.valEnd]))
		}
	}
	var b strings.Builder
	for n, g := range groups {
		if n > 0 {
			b.WriteString(d.nl)
		}
		b.WriteString("[" + formatPath([]string{key, g.name}) + "]" + d.nl)
		for _, l := range g.lines {
			b.WriteString(l + d.nl)
		}
	}
	return []byte(b.String()), nil
}

// inlineWithout returns the text of the root inline statement at i without the entries of server
// name, or nil when no entry is left.
func (d *Doc) inlineWithout(i int, name string) ([]byte, error) {
	st := &d.stmts[i]
	entries, err := inlineEntries(d.src, st.valStart)
	if err != nil {
		return nil, fmt.Errorf("line %d: %w", st.line, err)
	}
	var keep []string
	for _, e := range entries {
		if e.key[0].name != name {
			keep = append(keep, string(d.src[e.key[0].start:e.valEnd]))
		}
	}
	if len(keep) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	b.Write(d.src[st.start:st.valStart])
	b.WriteString("{ " + strings.Join(keep, ", ") + " }")
	b.Write(d.src[st.valEnd:st.end])
	return b.Bytes(), nil
}

// rawKey returns the source text of a dotted key made of parts, joined by dots.
func (d *Doc) rawKey(parts []keyPart) string {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = string(d.src[p.start:p.end])
	}
	return strings.Join(s, ".")
}

// commit replaces the document with out after checking that it parses strictly and that its data
// equals want (see equalModel). On failure the Doc is unchanged.
func (d *Doc) commit(out []byte, want map[string]any, keys []string) error {
	nd, err := Parse(out)
	if err != nil {
		return fmt.Errorf("edited document does not parse: %w", err)
	}
	if !equalModel(nd.data, want, keys) {
		return fmt.Errorf("edited document does not hold the expected data")
	}
	nd.frame = d.frame
	*d = *nd
	return nil
}
