// Package yamledit edits a YAML document in its source text (SPEC W1, W2, V9): the
// entries of a container (a mapping keyed by name, or a sequence of mappings named by
// one of their members) are replaced, added or removed, and every other byte of the
// file stays as it was — comments, key order, quoting, blank lines, line endings and a
// byte order mark.
//
// go.yaml.in/yaml/v3 (the YAML organisation's yaml.v3, a port of libyaml, as Goose's
// serde_yaml is) parses the document into a tree that gives each node its line and
// column; its encoder, though, re-spaces the whole file on output, so the edits here
// are splices of whole lines of the source, the same approach as internal/jsonc and
// internal/tomledit. An entry of a block container owns the lines from its key (or its
// "-") to its last line of content; comment and blank lines after that, and before the
// next entry, are not its own.
//
// Every batch of edits is checked before it is kept: the result is parsed again
// strictly (one document, no duplicate keys, a mapping at the top) and its data must
// equal the original data with exactly the intended changes. A layout the line splices
// cannot edit (a non-empty flow container, anchors, aliases or merge keys in a
// container, an entry sharing its line with another) is refused, never guessed.
//
// What a document may cost is bounded (SPEC K1): nesting at most limits.Depth levels,
// and aliases adding at most limits.AliasNodes nodes when expanded, both counted on
// the parsed tree before its data is built (convert.go).
//
// A Doc knows nothing of MCP: which container and which entries are the caller's.
package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/limits"
	"go.yaml.in/yaml/v3"
)

// utf8BOM is kept in front of the document when it is written back.
var utf8BOM = []byte("\xef\xbb\xbf")

// Doc is a parsed YAML document. Its methods never leave it in an invalid state.
type Doc struct {
	bom  bool
	src  []byte // without the byte order mark
	nl   string
	root *yaml.Node // the top-level mapping; nil for an empty document
	data *lazyData
	ls   lineTable

	// index indexes the entries of a container by name, for View: a look-up of each
	// of n entries then costs n, not n² (K7). Built on first use; a Doc's tree never
	// changes (Apply makes a new one).
	index map[string]*entryIndex
}

// lazyData is a document's decoded data, built from its checked tree on first use:
// reading a container's entries (View) never builds it, only Lookup and Apply do
// (K7: the data of a 1.5 MB Goose file is 8 MB of maps built and then read once).
type lazyData struct {
	once sync.Once
	root *yaml.Node
	v    map[string]any
}

// get returns the data, building it on first use.
func (l *lazyData) get() map[string]any {
	l.once.Do(func() {
		l.v = map[string]any{}
		if l.root != nil {
			l.v, _ = mapping(l.root) // the tree passed checkData: it cannot fail
		}
	})
	return l.v
}

// Parse validates src strictly and returns its document. It refuses a stream of
// several documents, a top level that is not a mapping, duplicate keys, anything the
// YAML parser refuses, and a document past mcpwire's limits (a *limits.Error);
// errors give the line.
func Parse(src []byte) (*Doc, error) {
	d := &Doc{}
	if bytes.HasPrefix(src, utf8BOM) {
		d.bom, src = true, src[len(utf8BOM):]
	}
	if err := d.load(src); err != nil {
		return nil, err
	}
	return d, nil
}

// load parses src into d.
func (d *Doc) load(src []byte) error {
	root, err := parseTree(src)
	if err != nil {
		return err
	}
	if root != nil {
		if err := checkTree(root, limits.AliasNodes, limits.Depth); err != nil {
			return err
		}
		if err := checkData(root); err != nil {
			return err
		}
	}
	d.src, d.root, d.data = src, root, &lazyData{root: root}
	d.ls = newLineTable(src)
	d.nl = "\n"
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		d.nl = "\r\n"
	}
	return nil
}

// parseTree parses src as one YAML document whose top level is a mapping, and
// returns that mapping (nil for an empty document, or one that is only comments or
// null). A large document is parsed in pieces on every core when its layout allows
// (parallel.go), to the same tree; otherwise, and for every error, whole.
func parseTree(src []byte) (*yaml.Node, error) {
	if root, ok := parseParallel(src); ok {
		return root, nil
	}
	return parseWhole(src)
}

// parseWhole is parseTree's parse of the whole source at once.
func parseWhole(src []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil { // the parser's own failures are errors, never a crash
			if bigbuf.Recovered(r) != nil {
				panic(r) // a mapped file cut short is no parser failure: for the caller's guard
			}
			root, err = nil, fmt.Errorf("the YAML parser failed: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	switch err := dec.Decode(&doc); {
	case err == io.EOF:
		return nil, nil
	case err != nil:
		return nil, parseError(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, errors.New("holds several YAML documents (---); mcpwire edits a file of one document")
	case err != io.EOF:
		return nil, parseError(err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	body := doc.Content[0]
	switch {
	case isNull(body) && body.Anchor == "":
		return nil, nil
	case body.Kind == yaml.AliasNode || !isMapping(body):
		return nil, fmt.Errorf("the top level must be a mapping, not %s", describeNode(body))
	}
	return body, nil
}

// parseError keeps the first line of the parser's message, without its "yaml: "
// prefix (a message never shows the source).
func parseError(err error) error {
	msg := strings.TrimPrefix(firstLine(err.Error()), "yaml: ")
	if strings.Contains(msg, "exceeded max depth") { // the parser's own limit (10,000 levels), past mcpwire's
		l := 0
		fmt.Sscanf(msg, "line %d:", &l)
		return limits.Nesting(l)
	}
	return errors.New(msg)
}

// firstLine is the first line of a message.
func firstLine(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return strings.TrimSpace(msg)
}

// Bytes returns the document's source text.
func (d *Doc) Bytes() []byte {
	if !d.bom {
		return bytes.Clone(d.src)
	}
	return append(bytes.Clone(utf8BOM), d.src...)
}

// Newline reports the document's line ending: "\r\n" when its first line ends with
// CRLF, else "\n".
func (d *Doc) Newline() string { return d.nl }

// Lookup returns a copy of the decoded value at a path of member names from the top
// level (the top level itself for an empty path).
func (d *Doc) Lookup(path ...string) (any, bool) {
	v, ok := d.at(path)
	if !ok {
		return nil, false
	}
	return clone(v), true
}

// at returns the decoded value at path itself, not a copy.
func (d *Doc) at(path []string) (any, bool) {
	var v any = d.data.get()
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// Check verifies that the container at path is absent, null, or (item empty) a
// mapping, or (item set) a sequence whose entries are mappings with distinct string
// members item (entries without one, such as Continue's `uses:` blocks, are kept but
// cannot be named). The error names the path and its line.
func (d *Doc) Check(path []string, item string) error {
	n := d.node(path)
	if n == nil {
		return d.checkParents(path)
	}
	switch {
	case isNull(n):
		return nil
	case isMapping(n):
		if item == "" {
			return nil
		}
	case isSequence(n):
		if item == "" {
			break
		}
		seen := map[string]bool{}
		for i, e := range n.Content {
			if !isMapping(e) {
				return fmt.Errorf("line %d: entry %d of %s must be a mapping, not %s", line(e), i+1, formatPath(path), describeNode(e))
			}
			name, ok := memberString(e, item)
			if !ok {
				continue
			}
			if seen[name] {
				return fmt.Errorf("line %d: %s has two entries named %q", line(e), formatPath(path), name)
			}
			seen[name] = true
		}
		return nil
	}
	want := "a mapping"
	if item != "" {
		want = "a list"
	}
	return fmt.Errorf("line %d: %s must be %s, not %s", line(n), formatPath(path), want, describeNode(n))
}

// checkParents refuses a path whose missing container would go under a value that is
// not a mapping.
func (d *Doc) checkParents(path []string) error {
	for i := len(path) - 1; i > 0; i-- {
		if n := d.node(path[:i]); n != nil {
			if isMapping(n) || isNull(n) {
				return nil
			}
			return fmt.Errorf("line %d: %s must be a mapping, not %s", line(n), formatPath(path[:i]), describeNode(n))
		}
	}
	return nil
}

// Names returns the names of the container's entries in document order: the keys of
// a mapping, or the item members of a sequence's mappings.
func (d *Doc) Names(path []string, item string) []string {
	entries := d.entries(path, item)
	if len(entries) == 0 {
		return nil
	}
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.name
	}
	return out
}

// All returns the names of the container's entries in document order (Names) and
// each one's value (View): a mapping's own members read from the tree in one pass,
// without an index of their names (K7).
func (d *Doc) All(path []string, item string) ([]string, []Value) {
	names := d.Names(path, item)
	vals := make([]Value, len(names))
	if n := d.node(path); item == "" && isMapping(n) {
		i := 0
		for k := 0; k+1 < len(n.Content); k += 2 { // the members Names lists, in its order
			if _, ok := keyString(n.Content[k]); ok {
				vals[i] = Value{n: n.Content[k+1]}
				i++
			}
		}
		return names, vals
	}
	for i, name := range names {
		vals[i], _ = d.View(path, item, name)
	}
	return names, vals
}

// Get returns a copy of the decoded value of a container's entry (only the entry is
// copied: a lookup of every entry of a container stays linear).
func (d *Doc) Get(path []string, item, name string) (any, bool) {
	v, ok := d.View(path, item, name)
	if !ok {
		return nil, false
	}
	if v.n != nil {
		return v.Data(), true // built afresh
	}
	return clone(v.v), true
}

// View is the value of a container's entry, read from the parsed tree when the
// container is a plain one (a mapping, or a list of mappings, without aliases or
// merge keys on the way to its entries), else from the document's data; its data
// and JSON are built only when asked for (K7: status reads back each of a Goose
// file's 22,000 extensions, and builds nothing else). A Value never changes.
func (d *Doc) View(path []string, item, name string) (Value, bool) {
	if ix := d.entryIndex(path, item); ix != nil {
		if n, ok := ix.nodes[name]; ok {
			return Value{n: n}, true
		}
		if v, ok := ix.vals[name]; ok {
			return Value{v: v}, true
		}
		if ix.whole {
			return Value{}, false
		}
	}
	v, ok := d.at(path)
	if !ok || item != "" {
		return Value{}, false
	}
	m, ok := v.(map[string]any)
	if !ok {
		return Value{}, false
	}
	e, ok := m[name]
	return Value{v: e}, ok
}

// steps counts the list entries Get looks at, when a test sets it (K7).
var steps *int

func countStep() {
	if steps != nil {
		*steps++
	}
}

// formatPath shows a path of member names.
func formatPath(path []string) string {
	if len(path) == 0 {
		return "the top level"
	}
	parts := make([]string, len(path))
	for i, p := range path {
		if plainKey(p) {
			parts[i] = p
		} else {
			parts[i] = quote(p)
		}
	}
	return strings.Join(parts, ".")
}
