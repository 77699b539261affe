// Package jsonc edits JSON and JSONC documents (JSON with // and /* */
// comments and trailing commas) in place, changing only the members it is
// asked to change.
//
// # Functionality
//
// Parse validates a document and returns a Doc. Lookup and Root give
// read-only Values; Set and Delete edit object members by path; Bytes and
// WriteTo return the result. Every byte outside the edited members is kept:
// comments, spacing, line endings (LF or CRLF), key order and the members
// that were not touched. Inserted text follows the file's indentation unit
// (two spaces, four spaces or a tab), its line endings and its
// trailing-comma style.
//
// Decode is the read-only mode, for files read far more often than edited:
// the same validation and errors, and in the same pass the members of the
// first two levels as standard JSON (Raw values), with no Doc to build.
//
// # Performance
//
// Parse is a hand-written validating scanner that allocates nothing per
// value: it records only the members of the root object. An edit
// materialises just the objects on its path, and only their own members;
// Bytes and WriteTo splice the untouched original byte ranges with the
// edited pieces. So an edit of a small member of a 50 MB file costs one
// scan of the file, and WriteTo writes the file without building a copy.
//
// # Duplicate names
//
// When an object has several members with the same name, Lookup, Member,
// Set and the paths of Delete use the last one, which is the one that
// encoding/json and JavaScript see. Delete removes every member with the
// name, so that the name is really gone afterwards.
//
// # Grammar
//
// The grammar is the JSON grammar of RFC 8259 plus comments wherever
// whitespace may appear and one optional trailing comma after the last
// member of an object or the last element of an array. As in hujson,
// comments must be valid UTF-8 and line comments must not contain U+2028
// or U+2029. Objects and arrays may nest at most 1000 deep.
package jsonc

import (
	"bufio"
	"bytes"
	"io"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// Doc is a parsed JSONC document being edited. It aliases the input given
// to Parse, which must not be modified while the Doc is in use. A Doc is
// not safe for concurrent use.
type Doc struct {
	data       []byte
	start, end int    // the root value is data[start:end]
	spans      []span // members of a root object, until root is built
	root       *object
	// noted are the members of the object value of the root member ParseOpen was
	// asked about, as spans into data, where that value starts at notedAt
	noted   []span
	notedAt int

	// Style, detected on first use.
	styled bool
	nl     string // "\n" or "\r\n"
	unit   string // one level of indentation
	brk    []byte // the last lineBreak made
}

// Parse validates data as JSONC and returns an editable document. Parse
// does not modify data, but the Doc keeps referring to it.
//
// Errors are *SyntaxError values, worded "line L, column C: problem".
// Input that is empty or holds only whitespace and comments gives an error
// that matches ErrEmpty. A root value that is not an object is accepted;
// callers check Root().Kind().
func Parse(data []byte) (*Doc, error) {
	return ParseOpen(data, "")
}

// ParseOpen is Parse that also notes, in the same pass, the members of the root's
// member named open when it is an object (a name written with escapes is not
// noted): an Open or edit below it then finds them without scanning its text
// again. A 50 MB ~/.claude.json is almost all one member, "projects", and an edit
// of one project's servers would otherwise read it twice.
func ParseOpen(data []byte, open string) (*Doc, error) {
	rec := record{open: open}
	start, end, err := scanDocument(data, &rec)
	if err != nil {
		return nil, err
	}
	d := &Doc{data: data, start: start, end: end, spans: rec.members}
	for _, sp := range rec.members {
		if sp.end > sp.first {
			d.noted, d.notedAt = rec.inner[sp.first:sp.end:sp.end], sp.valStart
		}
	}
	return d, nil
}

// scanDocument validates data as one JSONC document, recording into rec as
// scan does, and returns the root value's [start, end) offsets.
func scanDocument(data []byte, rec *record) (start, end int, err error) {
	start, end, serr := scan(data, 0, rec)
	if serr == nil {
		var i int
		if i, serr = skipSpace(data, end, rec); serr == nil && i < len(data) {
			serr = errAt(i, "invalid character %s after the top-level value", describe(data, i))
		}
	}
	if serr != nil {
		return 0, 0, syntaxError(data, serr)
	}
	return start, end, nil
}

// rootObject returns the root object, materialising its members on first
// use, or nil if the root is not an object.
func (d *Doc) rootObject() *object {
	if d.root == nil && d.data[d.start] == '{' {
		indent := ""
		if lb := bytes.LastIndexByte(d.data[:d.start], '\n'); lb >= 0 || d.start > 0 {
			indent = leadingSpace(d.data[lb+1 : d.start])
		}
		d.root = newObject(d.data, d.start, d.end, d.spans, indent, false)
		d.spans = nil
	}
	return d.root
}

// Root returns the root value.
func (d *Doc) Root() Value {
	if o := d.rootObject(); o != nil {
		return Value{obj: o}
	}
	return Value{raw: sub(d.data, d.start, d.end)}
}

// Lookup returns the value at path, where each element of path is the name
// of an object member (as is, not escaped as in a JSON pointer). An empty
// path gives the root. It reports false if a member is missing or a value
// on the way is not an object. Only the objects on the path are looked
// at: looking up a small member of a huge document copies nothing.
func (d *Doc) Lookup(path ...string) (Value, bool) {
	v := d.Root()
	for _, name := range path {
		var ok bool
		if v, ok = v.Member(name); !ok {
			return Value{}, false
		}
	}
	return v, true
}

// Open materialises the objects at path and on the way to it, as an edit there
// would, and reports whether they all exist and are objects. Lookups below them
// then read the materialised members instead of scanning the text again: a
// caller that will look up or edit several members of one deep object (a
// project's servers in a 50 MB ~/.claude.json) opens it first.
func (d *Doc) Open(path ...string) bool {
	o := d.rootObject()
	for _, name := range path {
		if o == nil {
			return false
		}
		k := o.find(name)
		if k < 0 {
			return false
		}
		o = d.child(o, k)
	}
	return o != nil
}

// emit passes the document's bytes, in order, to fn.
func (d *Doc) emit(fn func([]byte)) {
	if d.root == nil {
		fn(d.data)
		return
	}
	fn(sub(d.data, 0, d.start))
	d.root.emit(fn)
	fn(d.data[d.end:])
}

// Bytes returns the document with all edits applied, in a new slice.
func (d *Doc) Bytes() []byte {
	n := 0
	d.emit(func(p []byte) { n += len(p) })
	out := bigbuf.Make(0, n)
	d.emit(func(p []byte) { out = append(out, p...) })
	return out
}

// WriteTo writes the same bytes as Bytes to w, without building them in one
// buffer: untouched stretches of the input are written as they are. It
// implements io.WriterTo.
func (d *Doc) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 32<<10)
	d.emit(func(p []byte) {
		_, _ = bw.Write(p) // bufio keeps the first error for Flush
	})
	err := bw.Flush()
	return cw.n, err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
