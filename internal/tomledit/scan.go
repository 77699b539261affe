package tomledit

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// kind classifies one statement (one logical line) of a TOML document.
type kind uint8

const (
	kindBlank      kind = iota // whitespace only
	kindComment                // a comment on its own line
	kindTable                  // [a.b]
	kindArrayTable             // [[a.b]]
	kindKeyValue               // a.b = value, possibly spanning several lines
)

// keyPart is one part of a dotted key: its decoded name and its raw source range.
type keyPart struct {
	name       string
	start, end int
}

// stmt is one statement of the document. start is the offset of the start of its first line
// (indentation included) and end the offset just after its line terminator (or len(src) at EOF), so
// the statements of a document tile it exactly.
type stmt struct {
	kind       kind
	start, end int
	line       int       // 1-based line of start
	key        []keyPart // header name or the key of a key/value
	path       []string  // absolute path: header name, or the current header name + key
	valStart   int       // key/value only: raw value range
	valEnd     int
}

func (s *stmt) isHeader() bool { return s.kind == kindTable || s.kind == kindArrayTable }

// entry is one key/value of an inline table.
type entry struct {
	key              []keyPart
	valStart, valEnd int
}

// scanner tokenizes TOML source text into statements. It relies on the document having been
// validated by Decode first: it finds statement boundaries (strings, multi-line strings, arrays and
// inline tables spanning lines, comments) and decodes keys, but does not check values.
type scanner struct {
	src []byte
	i   int
}

// scan splits src into statements and computes their absolute key paths.
func scan(src []byte) ([]stmt, error) {
	s := &scanner{src: src}
	var out []stmt
	var cur []string
	line := 1
	for s.i < len(src) {
		st, err := s.statement()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", 1+bytes.Count(src[:min(s.i, len(src))], []byte{'\n'}), err)
		}
		st.line = line
		line += bytes.Count(src[st.start:st.end], []byte{'\n'})
		switch st.kind {
		case kindTable, kindArrayTable:
			cur = names(st.key)
			st.path = cur
		case kindKeyValue:
			st.path = append(append(make([]string, 0, len(cur)+len(st.key)), cur...), names(st.key)...)
		}
		out = append(out, st)
	}
	return out, nil
}

func names(parts []keyPart) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.name
	}
	return out
}

// statement scans one statement starting at the beginning of a line.
func (s *scanner) statement() (stmt, error) {
	st := stmt{start: s.i}
	s.ws()
	if s.eol() {
		st.kind = kindBlank
		st.end = s.i
		return st, nil
	}
	switch s.src[s.i] {
	case '#':
		st.kind = kindComment
		s.comment()
		if !s.eol() {
			return st, fmt.Errorf("expected newline after comment")
		}
	case '[':
		s.i++
		st.kind = kindTable
		if s.i < len(s.src) && s.src[s.i] == '[' {
			st.kind = kindArrayTable
			s.i++
		}
		s.ws()
		key, err := s.key()
		if err != nil {
			return st, err
		}
		st.key = key
		if !s.expect(']') || (st.kind == kindArrayTable && !s.expect(']')) {
			return st, fmt.Errorf("expected ']' to close table name")
		}
		if err := s.lineEnd(); err != nil {
			return st, err
		}
	default:
		st.kind = kindKeyValue
		key, err := s.key()
		if err != nil {
			return st, err
		}
		st.key = key
		if !s.expect('=') {
			return st, fmt.Errorf("expected '=' after key")
		}
		s.ws()
		st.valStart = s.i
		if err := s.value(); err != nil {
			return st, err
		}
		st.valEnd = s.i
		if err := s.lineEnd(); err != nil {
			return st, err
		}
	}
	st.end = s.i
	return st, nil
}

// ws skips spaces and tabs.
func (s *scanner) ws() {
	for s.i < len(s.src) && (s.src[s.i] == ' ' || s.src[s.i] == '\t') {
		s.i++
	}
}

// eol consumes a line terminator and reports whether there was one (end of input counts).
func (s *scanner) eol() bool {
	switch {
	case s.i >= len(s.src):
		return true
	case s.src[s.i] == '\n':
		s.i++
		return true
	case s.src[s.i] == '\r' && s.i+1 < len(s.src) && s.src[s.i+1] == '\n':
		s.i += 2
		return true
	}
	return false
}

// comment skips a comment up to (not including) its line terminator.
func (s *scanner) comment() {
	for s.i < len(s.src) && s.src[s.i] != '\n' && (s.src[s.i] != '\r' || s.i+1 >= len(s.src) || s.src[s.i+1] != '\n') {
		s.i++
	}
}

// expect consumes c if it is next.
func (s *scanner) expect(c byte) bool {
	if s.i < len(s.src) && s.src[s.i] == c {
		s.i++
		return true
	}
	return false
}

// lineEnd consumes trailing whitespace, an optional comment and the line terminator.
func (s *scanner) lineEnd() error {
	s.ws()
	if s.i < len(s.src) && s.src[s.i] == '#' {
		s.comment()
	}
	if !s.eol() {
		return fmt.Errorf("expected newline")
	}
	return nil
}

// key scans a possibly dotted key and the whitespace after it.
func (s *scanner) key() ([]keyPart, error) {
	var parts []keyPart
	for {
		p, err := s.simpleKey()
		if err != nil {
			return nil, err
		}
		parts = append(parts, p)
		s.ws()
		if s.i < len(s.src) && s.src[s.i] == '.' {
			s.i++
			s.ws()
			continue
		}
		return parts, nil
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// simpleKey scans one bare, basic-quoted or literal-quoted key part.
func (s *scanner) simpleKey() (keyPart, error) {
	start := s.i
	if s.i >= len(s.src) {
		return keyPart{}, fmt.Errorf("expected key but reached end of input")
	}
	switch s.src[s.i] {
	case '\'':
		end := bytes.IndexAny(s.src[s.i+1:], "'\n")
		if end < 0 || s.src[s.i+1+end] != '\'' {
			return keyPart{}, fmt.Errorf("unterminated literal string")
		}
		s.i += end + 2
		return keyPart{name: string(s.src[start+1 : s.i-1]), start: start, end: s.i}, nil
	case '"':
		name, err := s.basicKey()
		if err != nil {
			return keyPart{}, err
		}
		return keyPart{name: name, start: start, end: s.i}, nil
	}
	for s.i < len(s.src) && isBareKeyChar(s.src[s.i]) {
		s.i++
	}
	if s.i == start {
		return keyPart{}, fmt.Errorf("invalid character at start of key: %q", s.src[s.i])
	}
	return keyPart{name: string(s.src[start:s.i]), start: start, end: s.i}, nil
}

// basicKey decodes a single-line basic string starting at the opening quote.
func (s *scanner) basicKey() (string, error) {
	s.i++
	var buf []byte
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch c {
		case '"':
			s.i++
			return string(buf), nil
		case '\n', '\r':
			return "", fmt.Errorf("basic strings cannot have new lines")
		case '\\':
			if s.i+1 >= len(s.src) {
				return "", fmt.Errorf(`need a character after \`)
			}
			var err error
			buf, err = s.unescape(buf)
			if err != nil {
				return "", err
			}
		default:
			buf = append(buf, c)
			s.i++
		}
	}
	return "", fmt.Errorf("unterminated basic string")
}

// unescape decodes the escape sequence at s.i (the backslash), as go-toml does (TOML 1.1: \e, \xHH).
func (s *scanner) unescape(buf []byte) ([]byte, error) {
	c := s.src[s.i+1]
	s.i += 2
	switch c {
	case '"', '\\':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'e':
		return append(buf, 0x1b), nil
	case 'x':
		return s.unescapeHex(buf, 2)
	case 'u':
		return s.unescapeHex(buf, 4)
	case 'U':
		return s.unescapeHex(buf, 8)
	}
	return nil, fmt.Errorf("invalid escape character %q", c)
}

func (s *scanner) unescapeHex(buf []byte, n int) ([]byte, error) {
	if s.i+n > len(s.src) {
		return nil, fmt.Errorf("unicode escape sequence is too short")
	}
	var r rune
	for _, c := range s.src[s.i : s.i+n] {
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = rune(c - '0')
		case c >= 'a' && c <= 'f':
			d = rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = rune(c-'A') + 10
		default:
			return nil, fmt.Errorf("invalid hexadecimal digit in unicode escape sequence")
		}
		r = r<<4 | d
	}
	if r > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
		return nil, fmt.Errorf("escape sequence is not a valid unicode code point")
	}
	s.i += n
	return utf8.AppendRune(buf, r), nil
}

// value skips one value: a string, an array or inline table (which may span lines and hold
// comments), or a scalar. It stops right after the value.
func (s *scanner) value() error {
	if s.i >= len(s.src) {
		return fmt.Errorf("expected value, not end of input")
	}
	switch s.src[s.i] {
	case '"', '\'':
		return s.str()
	case '[', '{':
		return s.container()
	}
	start := s.i
	for s.i < len(s.src) {
		c := s.src[s.i]
		if c == '\n' || c == '\r' || c == '#' || c == ',' || c == ']' || c == '}' {
			break
		}
		s.i++
	}
	for s.i > start && (s.src[s.i-1] == ' ' || s.src[s.i-1] == '\t') {
		s.i--
	}
	if s.i == start {
		return fmt.Errorf("expected value")
	}
	return nil
}

// str skips a basic, literal, multi-line basic or multi-line literal string starting at its quote.
func (s *scanner) str() error {
	q := s.src[s.i]
	if s.i+2 < len(s.src) && s.src[s.i+1] == q && s.src[s.i+2] == q {
		s.i += 3
		for s.i < len(s.src) {
			c := s.src[s.i]
			switch {
			case q == '"' && c == '\\':
				s.i += 2
			case c == q:
				j := s.i
				for j < len(s.src) && s.src[j] == q {
					j++
				}
				if j-s.i >= 3 {
					s.i = j
					return nil
				}
				s.i = j
			default:
				s.i++
			}
		}
		return fmt.Errorf("unterminated multi-line string")
	}
	s.i++
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\n' || c == '\r':
			return fmt.Errorf("strings cannot have new lines")
		case q == '"' && c == '\\':
			s.i += 2
		case c == q:
			s.i++
			return nil
		default:
			s.i++
		}
	}
	return fmt.Errorf("unterminated string")
}

// container skips an array or inline table, nested ones included, starting at its bracket.
func (s *scanner) container() error {
	depth := 0
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '"', '\'':
			if err := s.str(); err != nil {
				return err
			}
			continue
		case '#':
			s.comment()
			continue
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				s.i++
				return nil
			}
		}
		s.i++
	}
	return fmt.Errorf("unterminated array or inline table")
}

// inlineEntries returns the key/values of the inline table whose '{' is at start.
func inlineEntries(src []byte, start int) ([]entry, error) {
	s := &scanner{src: src, i: start + 1}
	var out []entry
	for s.i < len(src) {
		switch src[s.i] {
		case ' ', '\t', '\n', '\r', ',':
			s.i++
			continue
		case '#':
			s.comment()
			continue
		case '}':
			return out, nil
		}
		key, err := s.key()
		if err != nil {
			return nil, err
		}
		if !s.expect('=') {
			return nil, fmt.Errorf("expected '=' after key")
		}
		s.ws()
		e := entry{key: key, valStart: s.i}
		if err := s.value(); err != nil {
			return nil, err
		}
		e.valEnd = s.i
		out = append(out, e)
	}
	return nil, fmt.Errorf("unterminated inline table")
}
