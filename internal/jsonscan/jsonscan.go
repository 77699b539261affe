// Package jsonscan reads the registry's layer files fast: one validating pass turns
// JSONC (comments, trailing commas) into standard JSON of the same length, and a
// non-validating iterator walks the members of objects in that validated text without
// decoding what it skips. Loading 10,000 servers from 16 layers is dominated by this
// code, so it avoids encoding/json's repeated scans (issue 2, Speed).
package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
	"unsafe"
)

// maxDepth bounds the nesting of objects and arrays, like render/jsonc.
const maxDepth = 1000

// SyntaxError is malformed input, worded "line L, column C: problem".
type SyntaxError struct {
	Line, Column int
	Msg          string
	// Offset is the byte offset of the problem.
	Offset int
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// ErrEmpty is returned by Scan for input holding only whitespace and comments.
var ErrEmpty = &SyntaxError{Line: 1, Column: 1, Msg: "empty document"}

// Member is one member of an object: its raw quoted name and its value, both
// slices of Doc.Std.
type Member struct {
	Name, Value []byte
	// Members are the value's own members when it is an object and the member
	// belongs to the root object (Scan records two levels), else nil.
	Members []Member
}

// Doc is a scanned document.
type Doc struct {
	// Std is the document as standard JSON: comments and trailing commas replaced
	// by spaces (line breaks inside block comments kept, so line numbers do not
	// move); data itself when it was standard JSON already.
	Std []byte
	// Root is the root value (a slice of Std).
	Root []byte
	// Members are the root object's members, in order, each with its own members
	// when its value is an object; nil when the root is not an object.
	Members []Member
}

// Scan validates data as JSONC (RFC 8259 JSON plus // and /* */ comments wherever
// whitespace may appear and one trailing comma after the last member or element),
// turns it into standard JSON of the same length, and records, in the same single
// pass, the members of the root object and the members of each of their object
// values: a layer file's top-level fields and its entries, without another pass over
// the text. Input holding only whitespace and comments returns ErrEmpty.
func Scan(data []byte) (*Doc, error) {
	s := &scanner{data: data}
	doc, err := s.scan()
	if err != nil {
		return nil, err
	}
	doc.Std = data
	if s.std != nil {
		doc.Std = s.std
	}
	// Offsets were recorded; turn them into slices of Std.
	doc.Root = doc.Std[s.rootStart:s.rootEnd]
	if s.rootMembers != nil {
		doc.Members = make([]Member, len(s.rootMembers))
		for k, sp := range s.rootMembers {
			m := &doc.Members[k]
			m.Name, m.Value = doc.Std[sp.ks:sp.ke], doc.Std[sp.vs:sp.ve]
			if sp.children != nil {
				m.Members = make([]Member, len(sp.children))
				for c, cs := range sp.children {
					m.Members[c] = Member{Name: doc.Std[cs.ks:cs.ke], Value: doc.Std[cs.vs:cs.ve]}
				}
			}
		}
	}
	return doc, nil
}

type span struct {
	ks, ke, vs, ve int
	children       []span
}

func (s *scanner) scan() (*Doc, error) {
	data := s.data
	s.space()
	if s.err != nil {
		return nil, s.err
	}
	if s.i >= len(data) {
		return nil, ErrEmpty
	}
	s.rootStart = s.i
	if data[s.i] == '{' {
		s.rootMembers = []span{}
	}
	s.value(0)
	s.rootEnd = s.i
	if s.err == nil {
		s.space()
		if s.err == nil && s.i < len(data) {
			s.fail(s.i, "invalid character %s after the top-level value", describe(data, s.i))
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	return &Doc{}, nil
}

type scanner struct {
	data []byte
	i    int
	std  []byte // copy being blanked, nil while the input is standard JSON
	err  *SyntaxError

	rootStart, rootEnd int
	rootMembers        []span // recorded members of a root object
	children           []span // members of the root member being scanned, when an object
}

func (s *scanner) fail(off int, format string, args ...any) {
	if s.err != nil {
		return
	}
	line, col := 1, 1
	for _, c := range s.data[:min(off, len(s.data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	s.err = &SyntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Offset: off}
}

// blank replaces data[from:to] with spaces in the standard copy, keeping line breaks.
func (s *scanner) blank(from, to int) {
	if s.std == nil {
		s.std = bytes.Clone(s.data)
	}
	for k := from; k < to; k++ {
		if c := s.std[k]; c != '\n' && c != '\r' {
			s.std[k] = ' '
		}
	}
}

// space skips whitespace and comments.
func (s *scanner) space() {
	d := s.data
	for s.i < len(d) {
		switch d[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		case '/':
			start := s.i
			if s.i+1 >= len(d) || (d[s.i+1] != '/' && d[s.i+1] != '*') {
				s.fail(s.i, "invalid character '/' (a comment starts with // or /*)")
				return
			}
			if d[s.i+1] == '/' {
				end := bytes.IndexByte(d[s.i+2:], '\n')
				if end < 0 {
					s.i = len(d)
				} else {
					s.i += 2 + end
				}
			} else {
				end := bytes.Index(d[s.i+2:], []byte("*/"))
				if end < 0 {
					s.fail(start, "unterminated /* comment")
					return
				}
				s.i += 2 + end + 2
			}
			if !utf8.Valid(d[start:s.i]) {
				s.fail(start, "invalid UTF-8 in a comment")
				return
			}
			s.blank(start, s.i)
		default:
			return
		}
	}
}

func (s *scanner) value(depth int) {
	d := s.data
	if s.i >= len(d) {
		s.fail(s.i, "unexpected end of input, expecting a value")
		return
	}
	switch c := d[s.i]; {
	case c == '{':
		s.container(depth, '}')
	case c == '[':
		s.container(depth, ']')
	case c == '"':
		s.str()
	case c == '-' || (c >= '0' && c <= '9'):
		s.number()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		s.fail(s.i, "invalid character %s, expecting a value", describe(d, s.i))
	}
}

// container scans an object (close '}') or an array (close ']').
func (s *scanner) container(depth int, closer byte) {
	if depth >= maxDepth {
		s.fail(s.i, "nested more than %d deep", maxDepth)
		return
	}
	d := s.data
	s.i++ // '{' or '['
	s.space()
	if s.err != nil {
		return
	}
	if s.i < len(d) && d[s.i] == closer {
		s.i++
		return
	}
	for {
		var sp span
		if closer == '}' {
			if s.i >= len(d) || d[s.i] != '"' {
				s.fail(s.i, "%s, expecting a member name in double quotes", what(d, s.i))
				return
			}
			sp.ks = s.i
			s.str()
			sp.ke = s.i
			s.space()
			if s.err != nil {
				return
			}
			if s.i >= len(d) || d[s.i] != ':' {
				s.fail(s.i, "%s after a member name, expecting ':'", what(d, s.i))
				return
			}
			s.i++
			s.space()
			if s.err != nil {
				return
			}
		}
		sp.vs = s.i
		if closer == '}' && depth == 0 && s.rootMembers != nil {
			// a member of the root object: record it, and its own members
			if s.i < len(d) && d[s.i] == '{' {
				s.children = []span{}
			}
			s.value(depth + 1)
			sp.ve, sp.children, s.children = s.i, s.children, nil
			s.rootMembers = append(s.rootMembers, sp)
		} else {
			s.value(depth + 1)
			if closer == '}' && depth == 1 && s.children != nil {
				sp.ve = s.i
				s.children = append(s.children, sp)
			}
		}
		s.space()
		if s.err != nil {
			return
		}
		if s.i >= len(d) {
			s.fail(s.i, "unexpected end of input, expecting ',' or '%c'", closer)
			return
		}
		switch d[s.i] {
		case closer:
			s.i++
			return
		case ',':
			comma := s.i
			s.i++
			s.space()
			if s.err != nil {
				return
			}
			if s.i < len(d) && d[s.i] == closer { // trailing comma
				s.blank(comma, comma+1)
				s.i++
				return
			}
		default:
			s.fail(s.i, "invalid character %s, expecting ',' or '%c'", describe(d, s.i), closer)
			return
		}
	}
}

func (s *scanner) str() {
	d := s.data
	start := s.i
	s.i++
	for s.i < len(d) {
		c := d[s.i]
		switch {
		case c == '"':
			s.i++
			return
		case c == '\\':
			if s.i+1 >= len(d) {
				s.fail(start, "unterminated string")
				return
			}
			switch d[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(d) || !hex4(d[s.i+2:s.i+6]) {
					s.fail(s.i, "invalid \\u escape in a string")
					return
				}
				s.i += 6
			default:
				s.fail(s.i, "invalid escape \\%c in a string", d[s.i+1])
				return
			}
		case c < 0x20:
			s.fail(s.i, "invalid control character in a string")
			return
		default:
			s.i++
		}
	}
	s.fail(start, "unterminated string")
}

func hex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (s *scanner) number() {
	d := s.data
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(d) && d[s.i] >= '0' && d[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if d[s.i] == '-' {
		s.i++
	}
	if s.i < len(d) && d[s.i] == '0' {
		s.i++
	} else if digits() == 0 {
		s.fail(start, "invalid number")
		return
	}
	if s.i < len(d) && d[s.i] == '.' {
		s.i++
		if digits() == 0 {
			s.fail(start, "invalid number")
			return
		}
	}
	if s.i < len(d) && (d[s.i] == 'e' || d[s.i] == 'E') {
		s.i++
		if s.i < len(d) && (d[s.i] == '+' || d[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			s.fail(start, "invalid number")
			return
		}
	}
	if s.i < len(d) && isWordByte(d[s.i]) {
		s.fail(start, "invalid number")
	}
}

func (s *scanner) literal(lit string) {
	d := s.data
	if len(d)-s.i < len(lit) || string(d[s.i:s.i+len(lit)]) != lit || (s.i+len(lit) < len(d) && isWordByte(d[s.i+len(lit)])) {
		s.fail(s.i, "invalid character %s, expecting a value", describe(d, s.i))
		return
	}
	s.i += len(lit)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '+' || c == '-'
}

// what describes the byte at i, or the end of input.
func what(d []byte, i int) string {
	if i >= len(d) {
		return "unexpected end of input"
	}
	return "invalid character " + describe(d, i)
}

func describe(d []byte, i int) string {
	r, _ := utf8.DecodeRune(d[i:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", d[i])
	}
	return fmt.Sprintf("%q", r)
}

// Kind returns the first byte of a JSON value with leading whitespace skipped: '{',
// '[', '"', 't', 'f', 'n', or a digit or '-' for numbers; 0 when v is blank.
func Kind(v []byte) byte {
	i := skipWS(v, 0)
	if i >= len(v) {
		return 0
	}
	return v[i]
}

// KindName names the JSON type of a value for messages: "an object", "a string"…
func KindName(v []byte) string {
	switch Kind(v) {
	case 0:
		return "nothing"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// IsNull reports whether v is the literal null.
func IsNull(v []byte) bool { return Kind(v) == 'n' }

// Members calls fn with the raw quoted name and the value of each member of the
// object v, in order (duplicates included). v must be valid standard JSON, as
// returned by Scan. It reports false, without calling fn, when v is not an
// object. fn returning false stops the walk.
func Members(v []byte, fn func(name, value []byte) bool) bool {
	i := skipWS(v, 0)
	if i >= len(v) || v[i] != '{' {
		return false
	}
	i = skipWS(v, i+1)
	if i < len(v) && v[i] == '}' {
		return true
	}
	for i < len(v) {
		ks := i
		i = skipString(v, i)
		ke := i
		i = skipWS(v, i)
		i = skipWS(v, i+1) // ':'
		vs := i
		i = skipValue(v, i)
		if !fn(v[ks:ke], v[vs:i]) {
			return true
		}
		i = skipWS(v, i)
		if i >= len(v) || v[i] == '}' {
			break
		}
		i = skipWS(v, i+1) // ','
	}
	return true
}

// Elements calls fn with each element of the array v (valid standard JSON). It
// reports false, without calling fn, when v is not an array.
func Elements(v []byte, fn func(value []byte) bool) bool {
	i := skipWS(v, 0)
	if i >= len(v) || v[i] != '[' {
		return false
	}
	i = skipWS(v, i+1)
	if i < len(v) && v[i] == ']' {
		return true
	}
	for i < len(v) {
		vs := i
		i = skipValue(v, i)
		if !fn(v[vs:i]) {
			return true
		}
		i = skipWS(v, i)
		if i >= len(v) || v[i] == ']' {
			break
		}
		i = skipWS(v, i+1)
	}
	return true
}

// String decodes a JSON string value (valid JSON). It reports false when v is not a
// string. The result shares memory with v when the string holds no escapes, so v
// must never be modified afterwards: the layer files' buffers are read once and
// kept unchanged for the life of the process.
func String(v []byte) (string, bool) {
	// v is usually exactly one value (from Members, Elements or Scan); trim
	// whitespace otherwise.
	if len(v) > 0 && (v[0] <= ' ' || v[len(v)-1] <= ' ') {
		v = bytes.TrimSpace(v)
	}
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	if plain(body) {
		if len(body) == 0 {
			return "", true
		}
		return unsafe.String(&body[0], len(body)), true
	}
	var out string
	if err := json.Unmarshal(v, &out); err != nil {
		return "", false
	}
	return out, true
}

// plain reports whether a string body needs no decoding: no escapes, valid UTF-8.
func plain(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			return bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b)
		}
	}
	return true
}

func skipWS(v []byte, i int) int {
	for i < len(v) {
		switch v[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset after the string starting at v[i].
func skipString(v []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(v[i:], '"')
		if j < 0 {
			return len(v)
		}
		i += j
		// the quote is escaped when an odd number of backslashes precede it
		n := 0
		for k := i - 1; k >= 0 && v[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1
		}
		i++
	}
}

// skipValue returns the offset after the value starting at v[i].
func skipValue(v []byte, i int) int {
	if i >= len(v) {
		return i
	}
	switch v[i] {
	case '"':
		return skipString(v, i)
	case '{', '[':
		depth := 0
		for i < len(v) {
			switch v[i] {
			case '"':
				i = skipString(v, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(v) {
		switch v[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}
