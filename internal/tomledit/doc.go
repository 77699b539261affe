// Package tomledit edits a TOML document in its source text (SPEC W1, W2, X1): the sub-tables of a
// table ([key.NAME], a "table of tables") and the entries of an array of tables ([[key]], each named
// by a member such as name = "x"). It knows TOML — tables, dotted keys, inline tables, arrays of
// tables — and nothing about what the tables hold.
//
// A [Doc] is the source of a document that go-toml/v2 accepts strictly (no duplicate keys or table
// redefinitions), split into statements: blank lines, comment lines, [table] and [[array]] headers,
// and key/values (which may span lines in multi-line strings, arrays and inline tables). Edits remove
// whole statements and insert new text; everything else stays byte for byte (comments, blank lines,
// key order, quoting, CRLF or LF). Every edit is checked: the result is parsed again strictly and
// its data compared with the expected data; if either check fails the edit returns an error and the
// Doc is unchanged. [Doc.Apply] makes many edits and checks once, so its cost is linear in the
// document.
//
// A sub-table NAME of a table key (for example mcp_servers) may be defined by any of:
//
//   - [key.NAME] and sub-tables such as [key.NAME.env], in any key spelling ([key."NAME"],
//     [ key . 'NAME' ], ["key".NAME], escapes);
//   - key/values inside [key]: NAME = { ... } or NAME.command = "x";
//   - dotted keys in the root table: key.NAME.command = "x";
//   - a root inline table: key = { NAME = { ... } }.
//
// What a table owns. When a sub-table is replaced or removed, only what is clearly the table's own
// goes with it (SPEC W1): its header, and its body from the header down to its last key/value line
// (comments and blank lines between its key/values included). Comments and blank lines after the
// last key/value — before the next header — and comments above the header stay, because they may
// be about what follows, about a whole section, or a banner the person wrote; they are never
// removed. The only comments a table owns besides its body are the caller's frame lines
// ([Doc.SetFrame]; Grok Build's marker lines, SPEC C6): a line that is exactly Start+NAME directly
// above the table's header, and one that is exactly End+NAME directly after its last key/value line
// (or after the header of a table without key/values), where NAME is the sub-table (or array entry)
// the table belongs to. Replace puts the new block where the old table's own statements began, so
// comments directly above it stay directly above the new table. Blank lines left over by a removal
// are tidied: none at the start or the end of the document, and no doubled blank line where removed
// statements sat between two blank lines. An entry of an array of tables owns its [[key]] table and
// the [key.…] sub-tables that follow it, in the same way.
//
// StripTree (SPEC X1) builds a derived file (a Codex runtime config), never the person's own file,
// and removes the whole subtree of a key greedily: a table there also takes the comment block
// directly above its header and everything after its body up to the next header's comment block.
//
// A Doc is not safe for concurrent use.
package tomledit

import (
	"bytes"
	"fmt"
	"slices"
)

// Doc is a parsed TOML document. Its methods never leave it in an invalid state.
type Doc struct {
	src   []byte
	stmts []stmt
	data  map[string]any
	nl    string
	frame Frame
	// idx and itemCache cache, per table key, where its sub-tables are defined, and per array of
	// tables its entries (built on first use).
	idx       map[string]*keyIndex
	itemCache map[string]*items
}

// Frame is a pair of comment-line prefixes: a table owns the line Start+NAME directly above its
// header and End+NAME directly after its body (see the package documentation). The zero Frame
// frames nothing.
type Frame struct{ Start, End string }

// SetFrame makes the document's tables own their frame lines.
func (d *Doc) SetFrame(f Frame) { d.frame = f }

// Parse validates src strictly with Decode (what go-toml/v2 accepts strictly, in linear time)
// and splits it into statements. Errors read "line N: message".
func Parse(src []byte) (*Doc, error) {
	src = bytes.Clone(src)
	data, err := decode(src)
	if err != nil {
		return nil, err
	}
	stmts, err := scan(src)
	if err != nil {
		return nil, err
	}
	nl := "\n"
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		nl = "\r\n"
	}
	return &Doc{src: src, stmts: stmts, data: data, nl: nl}, nil
}

// Bytes returns the document's source text.
func (d *Doc) Bytes() []byte {
	return bytes.Clone(d.src)
}

// Newline reports the document's line ending: "\r\n" when its first line ends with CRLF, else "\n".
func (d *Doc) Newline() string {
	return d.nl
}

// Check verifies that key (for example "mcp_servers") is absent or a table whose values are all
// tables. It refuses `key = 3`, `key = [...]`, arrays of tables ([[key]], [[key.x]]) and any other
// value under key that is not a table; the error names the key.
func (d *Doc) Check(key string) error {
	v, ok := d.data[key]
	if !ok {
		return nil
	}
	servers, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s%s must be a table of tables, not %s", d.linePrefix([]string{key}), formatKey(key), describe(v))
	}
	for _, name := range d.orderedNames(key, servers) {
		if sv := servers[name]; !isTable(sv) {
			path := []string{key, name}
			return fmt.Errorf("%s%s must be a table, not %s", d.linePrefix(path), formatPath(path), describe(sv))
		}
	}
	return nil
}

func isTable(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// linePrefix returns "line N: " for the first statement defining path, or "".
func (d *Doc) linePrefix(path []string) string {
	for i := range d.stmts {
		st := &d.stmts[i]
		if (st.isHeader() || st.kind == kindKeyValue) && hasPrefix(st.path, path) {
			return fmt.Sprintf("line %d: ", st.line)
		}
	}
	for i := range d.stmts {
		st := &d.stmts[i]
		if st.kind == kindKeyValue && hasPrefix(path, st.path) {
			return fmt.Sprintf("line %d: ", st.line)
		}
	}
	return ""
}

// Names returns the names of the sub-tables of key, in document order. It returns nil when key is
// absent or not a table.
func (d *Doc) Names(key string) []string {
	servers, ok := d.data[key].(map[string]any)
	if !ok {
		return nil
	}
	return d.orderedNames(key, servers)
}

// orderedNames lists the keys of servers in the order the document first mentions them.
func (d *Doc) orderedNames(key string, servers map[string]any) []string {
	out := make([]string, 0, len(servers))
	seen := make(map[string]bool, len(servers))
	add := func(name string) {
		if _, ok := servers[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for i := range d.stmts {
		st := &d.stmts[i]
		switch {
		case (st.isHeader() || st.kind == kindKeyValue) && len(st.path) >= 2 && st.path[0] == key:
			add(st.path[1])
		case d.isRootInline(i, key):
			entries, err := inlineEntries(d.src, st.valStart)
			if err == nil {
				for _, e := range entries {
					add(e.key[0].name)
				}
			}
		}
	}
	if len(out) < len(servers) {
		var rest []string
		for name := range servers {
			if !seen[name] {
				rest = append(rest, name)
			}
		}
		slices.Sort(rest)
		out = append(out, rest...)
	}
	return out
}

// Get returns a copy of the decoded value of sub-table name of key; ok is false when it is absent
// or not a table.
func (d *Doc) Get(key, name string) (map[string]any, bool) {
	srv := Entry(d.data, key, "", name)
	if srv == nil {
		return nil, false
	}
	return clone(srv).(map[string]any), true
}

// Text returns the exact source statements that define sub-table name of key, in document order:
// its tables as they own them (frame lines, header, body to the last key/value line; see the
// package documentation), and its dotted or inline key/values, concatenated. When the sub-table
// sits inside a root `key = { ... }` inline table, that whole statement is returned. ok is false
// when it is absent.
//
// After Replace(key, name, block), Text returns block (ending with a line terminator), which makes
// it suitable for ownership digests and frame checks.
func (d *Doc) Text(key, name string) (string, bool) {
	servers, ok := d.data[key].(map[string]any)
	if !ok {
		return "", false
	}
	if _, ok := servers[name]; !ok {
		return "", false
	}
	rm := d.tableMarks(key, name)
	if i := d.index(key).inline; i >= 0 && d.inlineHas(i, name) {
		rm[i] = true
	}
	return d.textOf(rm), true
}

// textOf concatenates the statements rm marks, each run without its trailing blank lines.
func (d *Doc) textOf(rm map[int]bool) string {
	var b bytes.Buffer
	idx := make([]int, 0, len(rm))
	for i := range rm {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for n := 0; n < len(idx); {
		i, j := idx[n], idx[n]
		for n < len(idx) && idx[n] == j {
			j++
			n++
		}
		k := j
		for k > i && d.stmts[k-1].kind == kindBlank {
			k--
		}
		if k > i {
			b.Write(d.src[d.stmts[i].start:d.stmts[k-1].end])
		}
	}
	return b.String()
}

// hasPrefix reports whether path starts with prefix.
func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// isMarker reports whether statement i is a comment line that is exactly prefix+name (line
// terminator aside; no indentation, no trailing space). Without a frame there are none.
func (d *Doc) isMarker(i int, prefix, name string) bool {
	if prefix == "" || i < 0 || i >= len(d.stmts) || d.stmts[i].kind != kindComment {
		return false
	}
	return markerLine(d.src[d.stmts[i].start:d.stmts[i].end], prefix, name)
}

// markerLine reports whether a comment statement's text is exactly prefix+name.
func markerLine(text []byte, prefix, name string) bool {
	line := bytes.TrimSuffix(bytes.TrimSuffix(text, []byte("\n")), []byte("\r"))
	return string(line) == prefix+name
}

// extent returns the index range of statements header h owns: its start frame line, itself, its
// body up to its last key/value line, and its end frame line (see the package documentation). name
// is the sub-table or array entry the frame lines name.
func (d *Doc) extent(h int, name string) (int, int) {
	s := h
	if d.isMarker(h-1, d.frame.Start, name) {
		s = h - 1
	}
	e := h + 1
	for k := h + 1; k < len(d.stmts) && !d.stmts[k].isHeader(); k++ {
		if d.stmts[k].kind == kindKeyValue {
			e = k + 1
		}
	}
	if d.isMarker(e, d.frame.End, name) {
		e++
	}
	return s, e
}

// greedyExtents returns, for each header statement, its leading comment block, itself and
// everything up to the next header's extent (or the end). Only StripTree uses it.
func (d *Doc) greedyExtents() map[int][2]int {
	var heads []int
	for i := range d.stmts {
		if d.stmts[i].isHeader() {
			heads = append(heads, i)
		}
	}
	starts := make([]int, len(heads))
	for n, h := range heads {
		s := h
		for s > 0 && d.stmts[s-1].kind == kindComment {
			s--
		}
		starts[n] = s
	}
	out := make(map[int][2]int, len(heads))
	for n, h := range heads {
		end := len(d.stmts)
		if n+1 < len(heads) {
			end = starts[n+1]
		}
		out[h] = [2]int{starts[n], end}
	}
	return out
}

// marks returns which statements define something under a path matched by match: every matched
// header's extent and every matched key/value.
func (d *Doc) marks(match func(path []string) bool, ext map[int][2]int) []bool {
	rm := make([]bool, len(d.stmts))
	for i := range d.stmts {
		st := &d.stmts[i]
		switch {
		case st.isHeader() && match(st.path):
			e := ext[i]
			for k := e[0]; k < e[1]; k++ {
				rm[k] = true
			}
		case st.kind == kindKeyValue && match(st.path):
			rm[i] = true
		}
	}
	return rm
}

// keyIndex is where the sub-tables of one table key are defined.
type keyIndex struct {
	// names holds, per sub-table, its headers and key/values under [key, name], in document order.
	names map[string][]int
	// inline is the root `key = {...}` statement, or -1.
	inline int
}

// index returns the key's index, building it on first use (one pass over the statements).
func (d *Doc) index(key string) *keyIndex {
	if x, ok := d.idx[key]; ok {
		return x
	}
	x := &keyIndex{names: map[string][]int{}, inline: -1}
	for i := range d.stmts {
		st := &d.stmts[i]
		switch {
		case (st.isHeader() || st.kind == kindKeyValue) && len(st.path) >= 2 && st.path[0] == key:
			x.names[st.path[1]] = append(x.names[st.path[1]], i)
		case x.inline < 0 && d.isRootInline(i, key):
			x.inline = i
		}
	}
	if d.idx == nil {
		d.idx = map[string]*keyIndex{}
	}
	d.idx[key] = x
	return x
}

// tableMarks marks the statements under [key, name] (not a root inline table holding it): every
// header's extent and every key/value.
func (d *Doc) tableMarks(key, name string) map[int]bool {
	return d.ownedMarks(d.index(key).names[name], name)
}

// isRootInline reports whether statement i is a root key/value `key = {...}`.
func (d *Doc) isRootInline(i int, key string) bool {
	st := &d.stmts[i]
	return st.kind == kindKeyValue && len(st.path) == 1 && st.path[0] == key && d.src[st.valStart] == '{'
}

// inlineHas reports whether the root inline table at statement i has an entry for name.
func (d *Doc) inlineHas(i int, name string) bool {
	entries, err := inlineEntries(d.src, d.stmts[i].valStart)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.key[0].name == name {
			return true
		}
	}
	return false
}
