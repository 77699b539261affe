package jsonc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/limits"
)

// maxDepth is the deepest nesting of objects and arrays Parse accepts
// (limits.Depth, SPEC K1). Configuration files never come close; the limit
// turns hostile input into an error instead of unbounded work.
const maxDepth = limits.Depth

// span records where one object member sits in the scanned bytes: its key
// token (quotes included) and its value, both as [start, end) offsets.
type span struct {
	keyStart, keyEnd, valStart, valEnd int
	// in decode mode, the members of a root member's object value are
	// record.inner[first:end]
	first, end int
}

// record is what scan records besides validating: the members of a root
// object and, in decode mode (deep), the members of their object values
// and the text that standard JSON does not have.
type record struct {
	visit   Visitor // told of every token (Walk)
	members []span  // members of the root object
	deep    bool    // decode mode: fill inner and blanks too
	open    string  // edit mode: fill inner for the root member of this name
	inner   []span  // members of the root members' object values, in order
	blanks  []int   // [start, end) pairs of comments and trailing commas
}

// blank notes, in decode mode, text that standard JSON does not have.
func (r *record) blank(start, end int) {
	if r != nil && r.deep {
		r.blanks = append(r.blanks, start, end)
	}
}

// appendSpan appends to spans, doubling the capacity when it is full: an object with
// tens of thousands of members (the projects of a 50 MB ~/.claude.json) then leaves
// a few copies behind for the garbage collector, not the dozens append's slower
// growth of large slices would.
func appendSpan(spans []span, sp span) []span {
	if len(spans) == cap(spans) && cap(spans) >= 256 {
		spans = append(make([]span, 0, 2*cap(spans)), spans...)
	}
	return append(spans, sp)
}

// scanner states.
const (
	stValue = iota // a value must come next
	stKey          // an object key must come next
	stAfter        // a value just ended: ',' or a closing bracket must come next
)

// strStop marks the bytes that end the fast path of string scanning.
var strStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

// scan validates one JSONC value that starts at or after offset i of data,
// after optional whitespace and comments. It does not look past the value's
// end. It returns the value's [start, end) offsets. If rec is not nil and
// the value is an object, the spans of the object's direct members are
// appended to rec.members, and in decode mode the spans of their own
// members to rec.inner. scan allocates nothing else: it records no
// structure below the first level (the second in decode mode).
func scan(data []byte, i int, rec *record) (start, end int, serr *scanError) {
	n := len(data)
	if i, serr = skipSpace(data, i, rec); serr != nil {
		return 0, 0, serr
	}
	if i >= n {
		return 0, 0, &scanError{off: i, msg: "empty document", err: ErrEmpty}
	}
	start = i

	var stack [maxDepth]byte // '{' or '[' for each open container
	depth := 0
	recording := false // record members of the outermost object
	deep := rec != nil && rec.deep
	opening := rec != nil && rec.open != ""
	inner := deep // record the members of this root member's object value
	visit := rec != nil && rec.visit != nil
	// a mapped file (internal/bigbuf) is scanned a window at a time: the pages of
	// each are mapped at once and dropped once passed, so that the file is never
	// resident whole
	relFrom, relAt := start, n+1
	if bigbuf.IsMapped(data) {
		relAt = start + bigbuf.Chunk
		bigbuf.Populate(data[start:min(relAt, n)])
	}
	state := stValue
	for {
		// Skip whitespace and comments; the common case stays inline.
		i = skipWS(data, i)
		if i < n && data[i] == '/' {
			if i, serr = skipSpace(data, i, rec); serr != nil {
				return 0, 0, serr
			}
		}
		if i >= n {
			return 0, 0, eofError(i, state, depth, &stack)
		}
		c := data[i]

		switch state {
		case stKey:
			if c != '"' {
				return 0, 0, keyError(data, i)
			}
			ks := i
			if i, serr = scanString(data, i); serr != nil {
				return 0, 0, serr
			}
			ke := i
			if i = skipWS(data, i); i < n && data[i] == '/' {
				if i, serr = skipSpace(data, i, rec); serr != nil {
					return 0, 0, serr
				}
			}
			if i >= n {
				return 0, 0, errAt(i, "unexpected end of input, expected ':' after object key")
			}
			if data[i] != ':' {
				return 0, 0, errAt(i, "expected ':' after object key, found %s", describe(data, i))
			}
			if i = skipWS(data, i+1); i < n && data[i] == '/' {
				if i, serr = skipSpace(data, i, rec); serr != nil {
					return 0, 0, serr
				}
			}
			if visit {
				rec.visit.Key(ks, ke)
			}
			if recording {
				if depth == 1 {
					rec.members = appendSpan(rec.members, span{keyStart: ks, keyEnd: ke, valStart: i, first: len(rec.inner)})
					if opening {
						inner = ke-ks-2 == len(rec.open) && string(data[ks+1:ke-1]) == rec.open
					}
				} else if depth == 2 && inner {
					rec.inner = appendSpan(rec.inner, span{keyStart: ks, keyEnd: ke, valStart: i})
				}
			}
			state = stValue
			continue

		case stValue:
			vs := i
			switch {
			case c == '"':
				if i, serr = scanString(data, i); serr != nil {
					return 0, 0, serr
				}
			case c == '{' || c == '[':
				if depth == maxDepth {
					e := errAt(i, "nesting depth exceeds %d", maxDepth)
					e.err = limits.Nesting(0)
					return 0, 0, e
				}
				if depth == 0 && c == '{' && rec != nil {
					recording = true
				}
				stack[depth] = c
				depth++
				if visit {
					rec.visit.Open(i, c == '[')
				}
				if i = skipWS(data, i+1); i < n && data[i] == '/' {
					if i, serr = skipSpace(data, i, rec); serr != nil {
						return 0, 0, serr
					}
				}
				if i < n && data[i] == c+2 { // '}' or ']': empty container
					i++
					depth--
					if visit {
						rec.visit.Close(i)
					}
					break
				}
				if c == '{' {
					state = stKey
				}
				continue
			case c == '-' || (c >= '0' && c <= '9'):
				if i, serr = scanNumber(data, i); serr != nil {
					return 0, 0, serr
				}
			case c == 't':
				if i, serr = scanLiteral(data, i, "true"); serr != nil {
					return 0, 0, serr
				}
			case c == 'f':
				if i, serr = scanLiteral(data, i, "false"); serr != nil {
					return 0, 0, serr
				}
			case c == 'n':
				if i, serr = scanLiteral(data, i, "null"); serr != nil {
					return 0, 0, serr
				}
			default:
				return 0, 0, valueError(data, i)
			}
			if visit && data[vs] != '{' && data[vs] != '[' {
				rec.visit.Scalar(vs, i)
			}

		case stAfter:
			top := stack[depth-1]
			switch c {
			case ',':
				comma := i
				if i = skipWS(data, i+1); i < n && data[i] == '/' {
					if i, serr = skipSpace(data, i, rec); serr != nil {
						return 0, 0, serr
					}
				}
				if i < n && data[i] == top+2 { // trailing comma
					rec.blank(comma, comma+1)
					i++
					depth--
					if visit {
						rec.visit.Close(i)
					}
					break
				}
				if top == '{' {
					state = stKey
				} else {
					state = stValue
				}
				continue
			case top + 2:
				i++
				depth--
				if visit {
					rec.visit.Close(i)
				}
			default:
				if top == '{' {
					return 0, 0, errAt(i, "invalid character %s after object member, expected ',' or '}'", describe(data, i))
				}
				return 0, 0, errAt(i, "invalid character %s after array element, expected ',' or ']'", describe(data, i))
			}
		}

		// A value ended at i.
		if depth == 0 {
			return start, i, nil
		}
		if i >= relAt {
			bigbuf.Release(data[relFrom:i])
			relFrom, relAt = i, i+bigbuf.Chunk
			bigbuf.Populate(data[i:min(relAt, n)])
		}
		if recording {
			if depth == 1 {
				m := &rec.members[len(rec.members)-1]
				m.valEnd, m.end = i, len(rec.inner)
			} else if depth == 2 && inner && stack[1] == '{' {
				rec.inner[len(rec.inner)-1].valEnd = i
			}
		}
		state = stAfter
	}
}

// skipWS skips whitespace (not comments) from offset i. The check for the
// common case of no whitespace is inlined at the call sites.
func skipWS(data []byte, i int) int {
	if i < len(data) && data[i] > ' ' {
		return i
	}
	return skipWSLoop(data, i)
}

// nonSpace returns a word with the top bit set in exactly the bytes of x
// that are not JSON whitespace (' ', '\t', '\n', '\r'). nonZero is exact
// (no carries cross bytes), unlike the "has zero byte" trick.
func nonSpace(x uint64) uint64 {
	return nonZero(x^(lsb*' ')) & nonZero(x^(lsb*'\n')) & nonZero(x^(lsb*'\t')) & nonZero(x^(lsb*'\r'))
}

func nonZero(x uint64) uint64 {
	const low7 = lsb * 0x7F
	return ((x & low7) + low7 | x) & msb
}

func skipWSLoop(data []byte, i int) int {
	n := len(data)
	if i+1 < n && data[i] == ' ' && data[i+1] > ' ' {
		return i + 1 // the common single space after ':'
	}
	for i+8 <= n {
		if m := nonSpace(binary.LittleEndian.Uint64(data[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < n {
		if c := data[i]; c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			return i
		}
		i++
	}
	return i
}

// skipSpace skips whitespace and comments from offset i and returns the
// offset of the next other byte (or len(data)). In decode mode the comments
// are noted in rec.
func skipSpace(data []byte, i int, rec *record) (int, *scanError) {
	n := len(data)
	for i < n {
		switch data[i] {
		case ' ', '\n', '\t', '\r':
			i++
		case '/':
			end, serr := skipComment(data, i)
			if serr != nil {
				return i, serr
			}
			rec.blank(i, end)
			i = end
		default:
			return i, nil
		}
	}
	return i, nil
}

// skipComment validates the comment that starts at data[i] == '/' and
// returns the offset just after it. A line comment ends before its newline
// (or at the end of input).
func skipComment(data []byte, i int) (int, *scanError) {
	n := len(data)
	if i+1 >= n || (data[i+1] != '/' && data[i+1] != '*') {
		return i, errAt(i, "invalid character '/', a comment starts with // or /*")
	}
	if data[i+1] == '/' {
		end := n
		if j := bytes.IndexByte(data[i+2:], '\n'); j >= 0 {
			end = i + 2 + j
		}
		return end, checkComment(data, i, end, true)
	}
	j := bytes.Index(data[i+2:], []byte("*/"))
	if j < 0 {
		return i, errAt(i, "unterminated comment")
	}
	end := i + 2 + j + 2
	return end, checkComment(data, i, end, false)
}

// checkComment rejects comments that are not valid UTF-8 and line comments
// holding U+2028 or U+2029, which JavaScript treats as line ends. This
// matches hujson, so a document Parse accepts is also one hujson accepts.
func checkComment(data []byte, start, end int, line bool) *scanError {
	body := data[start:end]
	if !utf8.Valid(body) {
		for k := 0; k < len(body); {
			r, size := utf8.DecodeRune(body[k:])
			if r == utf8.RuneError && size == 1 {
				return errAt(start+k, "invalid UTF-8 in comment")
			}
			k += size
		}
	}
	if line && bytes.IndexByte(body, 0xE2) >= 0 {
		for _, sep := range []string{"\u2028", "\u2029"} {
			if k := bytes.Index(body, []byte(sep)); k >= 0 {
				return errAt(start+k, "invalid character %s in line comment", describe(data, start+k))
			}
		}
	}
	return nil
}

// scanString validates the string that starts at data[i] == '"' and returns
// the offset just after its closing quote.
func scanString(data []byte, i int) (int, *scanError) {
	start := i
	n := len(data)
	i++
	for {
		// Fast path: eight bytes at a time, up to the first special byte.
		for i+8 <= n {
			if m := special(binary.LittleEndian.Uint64(data[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto slow
			}
			i += 8
		}
		for i < n && !strStop[data[i]] {
			i++
		}
	slow:
		if i >= n {
			return i, errAt(start, "unterminated string")
		}
		switch c := data[i]; c {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 >= n {
				return i, errAt(start, "unterminated string")
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= n || !isHex(data[k]) {
						return i, errAt(i, "invalid escape sequence in string, expected four hex digits")
					}
				}
				i += 6
			default:
				return i, errAt(i, "invalid escape sequence in string")
			}
		case '\n', '\r':
			return i, errAt(start, "unterminated string")
		default:
			return i, errAt(i, "invalid control character %s in string", describe(data, i))
		}
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special returns a word with the top bit set in the bytes of x that are
// '"', '\\' or below 0x20. These are the classic "has zero byte" and "has
// byte less than" bit tricks: bytes above a flagged one may be flagged
// falsely, but the lowest flagged byte is always a true one.
func special(x uint64) uint64 {
	q := x ^ (lsb * '"')
	s := x ^ (lsb * '\\')
	return ((q-lsb)&^q | (s-lsb)&^s | (x-lsb*0x20)&^x) & msb
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber validates the number that starts at data[i] and returns the
// offset just after it.
func scanNumber(data []byte, i int) (int, *scanError) {
	n := len(data)
	start := i
	// the number is not quoted: a malformed file may hold a secret there
	bad := func(at int, why string) *scanError { return errAt(at, "invalid number: %s", why) }
	if data[i] == '-' {
		i++
		if i >= n || !isDigit(data[i]) {
			return i, bad(start, "expected a digit after '-'")
		}
	}
	if data[i] == '0' {
		i++
		if i < n && isDigit(data[i]) {
			return i, bad(start, "leading zero")
		}
	} else {
		for i < n && isDigit(data[i]) {
			i++
		}
	}
	if i < n && data[i] == '.' {
		i++
		if i >= n || !isDigit(data[i]) {
			return i, bad(start, "expected a digit after the decimal point")
		}
		for i < n && isDigit(data[i]) {
			i++
		}
	}
	if i < n && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < n && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= n || !isDigit(data[i]) {
			return i, bad(start, "expected a digit in the exponent")
		}
		for i < n && isDigit(data[i]) {
			i++
		}
	}
	return i, nil
}

// isWordByte reports whether c can be part of a bare word such as an
// unquoted key or a misspelt literal.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c == '-' || c == '.' || isDigit(c) ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// word returns the bare word starting at data[i].
func word(data []byte, i int) []byte {
	end := i
	for end < len(data) && isWordByte(data[end]) {
		end++
	}
	return data[i:end]
}

// scanLiteral validates the literal lit (true, false or null) at data[i].
func scanLiteral(data []byte, i int, lit string) (int, *scanError) {
	w := word(data, i)
	if string(w) != lit {
		return i, errAt(i, "invalid literal, expected true, false, null, a number, a string, an object or an array")
	}
	return i + len(lit), nil
}

// valueError describes a byte that cannot start a value.
func valueError(data []byte, i int) *scanError {
	if bytes.HasPrefix(data[i:], []byte("\ufeff")) {
		return errAt(i, "invalid character U+FEFF (byte order mark), expected a value")
	}
	if c := data[i]; isWordByte(c) && c != '.' && c != '-' {
		return errAt(i, "invalid value, strings must be in double quotes")
	}
	if data[i] == '\'' {
		return errAt(i, "invalid character %s, strings must be in double quotes", describe(data, i))
	}
	return errAt(i, "invalid character %s, expected a value", describe(data, i))
}

// keyError describes a byte that cannot start an object key.
func keyError(data []byte, i int) *scanError {
	if isWordByte(data[i]) {
		return errAt(i, "object key must be in double quotes")
	}
	return errAt(i, "invalid character %s, expected a double-quoted object key", describe(data, i))
}

// eofError describes input that ends inside a value.
func eofError(i, state, depth int, stack *[maxDepth]byte) *scanError {
	switch {
	case state == stKey:
		return errAt(i, "unexpected end of input, expected an object key")
	case state == stValue:
		return errAt(i, "unexpected end of input, expected a value")
	case stack[depth-1] == '{':
		return errAt(i, "unexpected end of input, expected ',' or '}'")
	default:
		return errAt(i, "unexpected end of input, expected ',' or ']'")
	}
}

// describe names the character at data[i] for an error message.
func describe(data []byte, i int) string {
	r, size := utf8.DecodeRune(data[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf("byte 0x%02x", data[i])
	case r == '\'':
		return `"'"`
	case r < 0x80 && unicode.IsPrint(r):
		return fmt.Sprintf("'%c'", r)
	case unicode.IsPrint(r) && r != '\ufeff':
		return fmt.Sprintf("'%c' (U+%04X)", r, r)
	default:
		return fmt.Sprintf("U+%04X", r)
	}
}
