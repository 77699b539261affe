// Package plainjson reads plain JSON — objects, arrays, strings without escapes, true,
// false and null: what mcpwire writes in its own records — into Go values exactly as
// encoding/json decodes them, without its reflection. Anything else it refuses (a
// number, an escape, a control character or invalid UTF-8 in a string, a syntax
// error, data after the value), and its caller decodes the document with
// encoding/json instead, which decodes it or says what is wrong with it.
package plainjson

import (
	"bytes"
	"unicode/utf8"
)

// maxDepth is the deepest nesting Skip follows; deeper is refused (encoding/json's
// own limit is 10,000).
const maxDepth = 64

// Decoder reads one JSON document. Its first refusal sticks: every later call reads
// nothing and gives zero values, and End reports false.
type Decoder struct {
	data []byte
	// text is data as one string: the strings the decoder hands out are substrings of
	// it, one allocation for all of them
	text   string
	pos    int
	failed bool
}

// NewDecoder returns a decoder of data.
func NewDecoder(data []byte) Decoder { return Decoder{data: data, text: string(data)} }

// Fail refuses the document.
func (d *Decoder) Fail() { d.failed = true }

// End reports whether the document was read to its end (only white space left) and
// nothing was refused.
func (d *Decoder) End() bool {
	d.peek()
	return !d.failed && d.pos == len(d.data)
}

// peek skips white space and returns the next byte, 0 at the end or once failed.
func (d *Decoder) peek() byte {
	for !d.failed && d.pos < len(d.data) {
		switch c := d.data[d.pos]; c {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return c
		}
	}
	return 0
}

// take consumes the next byte if it is c; otherwise it refuses the document.
func (d *Decoder) take(c byte) bool {
	if d.peek() != c {
		d.failed = true
		return false
	}
	d.pos++
	return true
}

// Null consumes a null if it comes next.
func (d *Decoder) Null() bool {
	if d.peek() == 'n' {
		return d.literal("null")
	}
	return false
}

// literal consumes word (true, false, null), refusing anything else.
func (d *Decoder) literal(word string) bool {
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		d.failed = true
		return false
	}
	d.pos += len(word)
	return true
}

// str reads a string.
func (d *Decoder) str() string {
	if !d.take('"') {
		return ""
	}
	start, wide := d.pos, false
	for i := start; i < len(d.data); i++ {
		switch strByte[d.data[i]] {
		case plain:
		case quote:
			d.pos = i + 1
			s := d.text[start:i]
			if wide && !utf8.ValidString(s) {
				d.failed = true // encoding/json replaces invalid UTF-8
				return ""
			}
			return s
		case wideByte:
			wide = true
		default:
			d.failed = true
			return ""
		}
	}
	d.failed = true
	return ""
}

// The bytes of a string: plain, its end, outside ASCII (valid only as UTF-8), or
// refused (a backslash, a control character).
const (
	plain = iota
	quote
	wideByte
	refused
)

var strByte = func() (t [256]byte) {
	for c := range t {
		switch {
		case c == '"':
			t[c] = quote
		case c == '\\' || c < 0x20:
			t[c] = refused
		case c >= utf8.RuneSelf:
			t[c] = wideByte
		}
	}
	return t
}()

// Members yields the key of each member of the object that comes next; the loop's
// body reads the member's value (String, Strings, StringMap, Skip, …). A value that is
// not an object, or a loop left early, refuses the document.
func (d *Decoder) Members(yield func(key string) bool) {
	if !d.take('{') || d.end('}') {
		return
	}
	for {
		key := d.str()
		if !d.take(':') {
			return
		}
		if !yield(key) {
			d.failed = true
			return
		}
		if !d.more('}') {
			return
		}
	}
}

// elements yields once for each element of the array that comes next; the loop's
// body reads the element.
func (d *Decoder) elements(yield func() bool) {
	if !d.take('[') || d.end(']') {
		return
	}
	for {
		if !yield() {
			d.failed = true
			return
		}
		if !d.more(']') {
			return
		}
	}
}

// end consumes the byte that closes an object or array if it comes next.
func (d *Decoder) end(closer byte) bool {
	if d.peek() == closer {
		d.pos++
		return true
	}
	return false
}

// more consumes the comma before another member or element, or the byte that closes
// their object or array (then reports false, as it does once failed).
func (d *Decoder) more(closer byte) bool {
	if d.peek() == ',' {
		d.pos++
		return true
	}
	if !d.end(closer) {
		d.failed = true
	}
	return false
}

// String reads a string into *p; null leaves *p as it is, as encoding/json does.
func (d *Decoder) String(p *string) {
	if !d.Null() {
		if s := d.str(); !d.failed {
			*p = s
		}
	}
}

// Strings reads an array of strings into *p (a new slice); null sets it to nil. A
// null element is refused (encoding/json leaves the element as it was).
func (d *Decoder) Strings(p *[]string) {
	if d.Null() {
		*p = nil
		return
	}
	out := []string{}
	for range d.elements {
		out = append(out, d.str())
	}
	if !d.failed {
		*p = out
	}
}

// StringMap reads an object of strings into *p: into the map it holds, as encoding/json
// does, or a new one; null sets it to nil. A null value is refused (encoding/json
// stores "").
func (d *Decoder) StringMap(p *map[string]string) {
	if d.Null() {
		*p = nil
		return
	}
	m := *p
	if m == nil && d.peek() == '{' {
		m = make(map[string]string, d.countMembers())
	}
	for key := range d.Members {
		v := d.str()
		if d.failed {
			return
		}
		m[key] = v
	}
	if !d.failed {
		*p = m
	}
}

// countMembers guesses, from the '{' that comes next, how many members its object
// has: the colons up to the first '}' (exact for an object of strings in which no
// string holds ':' or '}').
func (d *Decoder) countMembers() int {
	rest := d.data[d.pos:]
	if end := bytes.IndexByte(rest, '}'); end >= 0 {
		rest = rest[:end]
	}
	return bytes.Count(rest, []byte{':'})
}

// Skip reads the value of a member key of an object decoded into a struct whose
// fields are named fields, a member that is none of them: encoding/json skips it.
// A key that differs from one of them only by case is refused, since encoding/json
// decodes it into that field, and so is any key holding a byte outside ASCII
// (encoding/json folds Unicode case too) or one of fields itself (a field its
// caller does not decode).
func (d *Decoder) Skip(key string, fields []string) {
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			d.failed = true
			return
		}
	}
	for _, f := range fields {
		if equalFoldASCII(key, f) {
			d.failed = true
			return
		}
	}
	d.skip(0)
}

// equalFoldASCII reports whether two ASCII strings are equal but for the case of
// their letters.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// skip reads any value of the plain subset.
func (d *Decoder) skip(depth int) {
	if depth >= maxDepth {
		d.failed = true
		return
	}
	switch d.peek() {
	case '"':
		d.str()
	case 'n':
		d.literal("null")
	case 't':
		d.literal("true")
	case 'f':
		d.literal("false")
	case '{':
		for range d.Members {
			d.skip(depth + 1)
		}
	case '[':
		for range d.elements {
			d.skip(depth + 1)
		}
	default:
		d.failed = true // a number, or no value
	}
}
