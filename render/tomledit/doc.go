// Package tomledit edits the MCP server tables of a TOML config file (Codex ~/.codex/config.toml,
// Grok Build ~/.grok/config.toml and .grok/config.toml) in its source text (SPEC W1, W2, X1).
//
// A [Doc] is the source of a document that go-toml/v2 accepts strictly (no duplicate keys or table
// redefinitions), split into statements: blank lines, comment lines, [table] and [[array]] headers,
// and key/values (which may span lines in multi-line strings, arrays and inline tables). Edits remove
// whole statements and insert new text; everything else stays byte for byte (comments, blank lines,
// key order, quoting, CRLF or LF). After each edit the result is parsed again and its data compared
// with the expected data; if either check fails the edit returns an error and the Doc is unchanged.
//
// A server NAME under the servers key (for example mcp_servers) may be defined by any of:
//
//   - [mcp_servers.NAME] and sub-tables such as [mcp_servers.NAME.env], in any key spelling
//     ([mcp_servers."NAME"], [ mcp_servers . 'NAME' ], ["mcp_servers".NAME], escapes);
//   - key/values inside [mcp_servers]: NAME = { ... } or NAME.command = "x";
//   - dotted keys in the root table: mcp_servers.NAME.command = "x";
//   - a root inline table: mcp_servers = { NAME = { ... } }.
//
// What a table owns. When a server is replaced or removed, only what is clearly the table's own goes
// with it (SPEC W1): its header, and its body from the header down to its last key/value line
// (comments and blank lines between its key/values included). Comments and blank lines after the
// last key/value — before the next header — and comments above the header stay, because they may
// be about what follows, about a whole section, or a banner the person wrote; they are never
// removed. The only comments a table owns besides its body are mcpwire's own marker lines (Grok
// Build, SPEC C6): a line that is exactly [MarkerStart]+NAME directly above the table's header, and
// one that is exactly [MarkerEnd]+NAME directly after its last key/value line (or after the header
// of a table without key/values), where NAME is the server the table belongs to. ReplaceServer puts
// the new block where the old table's own statements began, so comments directly above it stay
// directly above the new table. Blank lines left over by a removal are tidied: none at the start or
// the end of the document, and no doubled blank line where removed statements sat between two
// blank lines.
//
// StripTree (SPEC X1) builds a derived file (a Codex runtime config), never the person's own file,
// and removes the whole servers subtree greedily: a table there also takes the comment block
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
}

// Parse validates src strictly with go-toml/v2 and splits it into statements. Errors read
// "line N: message".
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

// CheckServers verifies that key (for example "mcp_servers") is absent or a table whose values are
// all tables. It refuses `mcp_servers = 3`, `mcp_servers = [...]`, arrays of tables ([[mcp_servers]],
// [[mcp_servers.x]]) and any other server value that is not a table; the error names the key.
func (d *Doc) CheckServers(key string) error {
	v, ok := d.data[key]
	if !ok {
		return nil
	}
	servers, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s%s must be a table of servers, not %s", d.linePrefix([]string{key}), formatKey(key), describe(v))
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

// ServerNames returns the names of the servers under key, in document order. It returns nil when
// key is absent or not a table.
func (d *Doc) ServerNames(key string) []string {
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

// Server returns a copy of the decoded value of server name under key; ok is false when it is absent
// or not a table.
func (d *Doc) Server(key, name string) (map[string]any, bool) {
	servers, ok := d.data[key].(map[string]any)
	if !ok {
		return nil, false
	}
	srv, ok := servers[name].(map[string]any)
	if !ok {
		return nil, false
	}
	return clone(srv).(map[string]any), true
}

// ServerText returns the exact source statements that define server name under key, in document
// order: its tables as they own them (marker lines, header, body to the last key/value line; see
// the package documentation), and its dotted or inline key/values, concatenated. When the server
// sits inside a root `key = { ... }` inline table, that whole statement is returned. ok is false
// when the server is absent.
//
// After ReplaceServer(key, name, block), ServerText returns block (ending with a line terminator),
// which makes it suitable for ownership digests and marker checks.
func (d *Doc) ServerText(key, name string) (string, bool) {
	servers, ok := d.data[key].(map[string]any)
	if !ok {
		return "", false
	}
	if _, ok := servers[name]; !ok {
		return "", false
	}
	rm := d.serverMarks(key, name)
	if i := d.rootInline(key); i >= 0 && d.inlineHas(i, name) {
		rm[i] = true
	}
	var b bytes.Buffer
	for i := 0; i < len(d.stmts); {
		if !rm[i] {
			i++
			continue
		}
		j := i
		for j < len(d.stmts) && rm[j] {
			j++
		}
		k := j
		for k > i && d.stmts[k-1].kind == kindBlank {
			k--
		}
		if k > i {
			b.Write(d.src[d.stmts[i].start:d.stmts[k-1].end])
		}
		i = j
	}
	return b.String(), true
}

// hasPrefix reports whether path starts with prefix.
func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// MarkerStart and MarkerEnd begin the marker lines mcpwire writes around a server block it owns
// (Grok Build, SPEC C6): "# >>> mcpwire-managed: NAME" and "# <<< mcpwire-managed: NAME". A table
// owns such a line only when it names the table's server and sits right against the table (see the
// package documentation).
const (
	MarkerStart = "# >>> mcpwire-managed: "
	MarkerEnd   = "# <<< mcpwire-managed: "
)

// isMarker reports whether statement i is a comment line that is exactly prefix+name (line
// terminator aside; no indentation, no trailing space).
func (d *Doc) isMarker(i int, prefix, name string) bool {
	if i < 0 || i >= len(d.stmts) || d.stmts[i].kind != kindComment {
		return false
	}
	line := d.src[d.stmts[i].start:d.stmts[i].end]
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	return string(line) == prefix+name
}

// extents returns, for each header statement, the index range of statements it owns: its start
// marker line, itself, its body up to its last key/value line, and its end marker line (see the
// package documentation).
func (d *Doc) extents() map[int][2]int {
	n := len(d.stmts)
	out := map[int][2]int{}
	for h := range d.stmts {
		if !d.stmts[h].isHeader() {
			continue
		}
		path := d.stmts[h].path
		named := len(path) >= 2 // a server's table: its name may be on marker lines
		s := h
		if named && d.isMarker(h-1, MarkerStart, path[1]) {
			s = h - 1
		}
		e := h + 1
		for k := h + 1; k < n && !d.stmts[k].isHeader(); k++ {
			if d.stmts[k].kind == kindKeyValue {
				e = k + 1
			}
		}
		if named && d.isMarker(e, MarkerEnd, path[1]) {
			e++
		}
		out[h] = [2]int{s, e}
	}
	return out
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

// serverMarks marks the statements under [key, name] (not a root inline table holding it).
func (d *Doc) serverMarks(key, name string) []bool {
	prefix := []string{key, name}
	return d.marks(func(path []string) bool { return hasPrefix(path, prefix) }, d.extents())
}

// isRootInline reports whether statement i is a root key/value `key = {...}`.
func (d *Doc) isRootInline(i int, key string) bool {
	st := &d.stmts[i]
	return st.kind == kindKeyValue && len(st.path) == 1 && st.path[0] == key && d.src[st.valStart] == '{'
}

// rootInline returns the index of the root `key = {...}` statement, or -1.
func (d *Doc) rootInline(key string) int {
	for i := range d.stmts {
		if d.isRootInline(i, key) {
			return i
		}
	}
	return -1
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
