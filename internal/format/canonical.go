package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// Canonical returns a key-sorted compact encoding of JSON, for digests and comparisons.
// It is, byte for byte, what decoding raw into an `any` with encoding/json and
// encoding it again with Marshal gives — the form every ownership record on disk holds
// the digests of (C6) — and raw itself when raw is not valid JSON. JSON whose every
// value is already spelled that way (strings without escapes or U+2028/U+2029, integers
// of at most 15 digits, objects without a repeated key) is canonicalised directly, in
// one pass; anything else takes the encoding/json round trip.
func Canonical(raw []byte) []byte {
	c := canonicalizer{in: raw, out: make([]byte, 0, len(raw))} // about as long as the input
	c.space()
	if c.value() {
		c.space()
		if c.i == len(raw) {
			return c.out
		}
	}
	return canonicalSlow(raw)
}

// canonicalSlow is Canonical through encoding/json.
func canonicalSlow(raw []byte) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	b, err := Marshal(v)
	if err != nil {
		return raw
	}
	return b
}

// Digest is the sha256 of an entry's canonical JSON: member order and formatting do
// not count, so a client that reformats its file keeps mcpwire's ownership (C6). The
// same bytes are digested once per process (digestMemo).
func Digest(entryJSON []byte) string {
	if d, ok := digests.get(entryJSON); ok {
		return d
	}
	d := DigestOnce(entryJSON)
	digests.put(entryJSON, d)
	return d
}

// DigestOnce is Digest without the memo, for entries digested once each (every entry
// of a file being read, of which there may be hundreds of thousands: K7).
func DigestOnce(entryJSON []byte) string {
	sum := sha256.Sum256(Canonical(entryJSON))
	return hex.EncodeToString(sum[:])
}

// canonicalizer writes the canonical form of the JSON value at in[i:] to out. Each
// method reports false when the value is not one it spells exactly as encoding/json
// would (then Canonical falls back to it).
type canonicalizer struct {
	in  []byte
	i   int
	out []byte
	// scratch holds an object's values while its members are written in key order
	// (reused: an object's values are copied out before any other object is done)
	scratch []byte
}

// maxDirectDigits bounds the integers spelled as they are: a float64 holds every
// integer of up to 15 digits exactly, and encoding/json writes it back unchanged.
const maxDirectDigits = 15

func (c *canonicalizer) space() {
	for c.i < len(c.in) {
		switch c.in[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *canonicalizer) value() bool {
	if c.i >= len(c.in) {
		return false
	}
	switch b := c.in[c.i]; {
	case b == '{':
		return c.object()
	case b == '[':
		return c.array()
	case b == '"':
		s, ok := c.str()
		c.out = append(c.out, s...)
		return ok
	case b == '-' || b >= '0' && b <= '9':
		return c.integer()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(c.in[c.i:], []byte(lit)) {
			c.i += len(lit)
			c.out = append(c.out, lit...)
			return true
		}
	}
	return false
}

// str reads a string that needs no escape and returns it, quotes included.
func (c *canonicalizer) str() ([]byte, bool) {
	start := c.i
	c.i++
	for c.i < len(c.in) {
		b := c.in[c.i]
		switch {
		case b == '"':
			c.i++
			s := c.in[start:c.i]
			// encoding/json writes U+2028 and U+2029 as escapes, and invalid UTF-8 as U+FFFD
			return s, utf8.Valid(s) && !bytes.Contains(s, []byte("\u2028")) && !bytes.Contains(s, []byte("\u2029"))
		case b == '\\' || b < 0x20:
			return nil, false
		}
		c.i++
	}
	return nil, false
}

// integer reads -?(0|[1-9][0-9]*) of at most maxDirectDigits digits.
func (c *canonicalizer) integer() bool {
	start := c.i
	if c.in[c.i] == '-' {
		c.i++
	}
	digits := c.i
	for c.i < len(c.in) && c.in[c.i] >= '0' && c.in[c.i] <= '9' {
		c.i++
	}
	n := c.i - digits
	if n == 0 || n > maxDirectDigits || n > 1 && c.in[digits] == '0' {
		return false
	}
	if c.i < len(c.in) {
		if b := c.in[c.i]; b == '.' || b == 'e' || b == 'E' {
			return false
		}
	}
	c.out = append(c.out, c.in[start:c.i]...)
	return true
}

func (c *canonicalizer) array() bool {
	c.i++
	c.out = append(c.out, '[')
	c.space()
	if c.i < len(c.in) && c.in[c.i] == ']' {
		c.i++
		c.out = append(c.out, ']')
		return true
	}
	for {
		c.space()
		if !c.value() {
			return false
		}
		c.space()
		if c.i >= len(c.in) {
			return false
		}
		switch c.in[c.i] {
		case ',':
			c.i++
			c.out = append(c.out, ',')
		case ']':
			c.i++
			c.out = append(c.out, ']')
			return true
		default:
			return false
		}
	}
}

// member is one member of an object being canonicalised: its quoted key and the
// canonical form of its value in out.
type member struct {
	key        []byte
	start, end int
}

func (c *canonicalizer) object() bool {
	c.i++
	c.space()
	if c.i < len(c.in) && c.in[c.i] == '}' {
		c.i++
		c.out = append(c.out, "{}"...)
		return true
	}
	base := len(c.out)
	var own [16]member // an entry's objects are small: no allocation for their members
	members := own[:0]
	for {
		c.space()
		if c.i >= len(c.in) || c.in[c.i] != '"' {
			return false
		}
		key, ok := c.str()
		if !ok {
			return false
		}
		c.space()
		if c.i >= len(c.in) || c.in[c.i] != ':' {
			return false
		}
		c.i++
		c.space()
		start := len(c.out)
		if !c.value() {
			return false
		}
		members = append(members, member{key: key, start: start, end: len(c.out)})
		c.space()
		if c.i >= len(c.in) {
			return false
		}
		if c.in[c.i] == '}' {
			c.i++
			break
		}
		if c.in[c.i] != ',' {
			return false
		}
		c.i++
	}
	// encoding/json sorts the keys of a map by their bytes (unquoted); a repeated key
	// keeps its last value (a map), which the round trip handles
	unquoted := func(m member) []byte { return m.key[1 : len(m.key)-1] }
	slices.SortFunc(members, func(a, b member) int { return bytes.Compare(unquoted(a), unquoted(b)) })
	for k := 1; k < len(members); k++ {
		if bytes.Equal(members[k-1].key, members[k].key) {
			return false
		}
	}
	c.scratch = append(c.scratch[:0], c.out[base:]...) // the values, before they move
	values := c.scratch
	c.out = append(c.out[:base], '{')
	for k, m := range members {
		if k > 0 {
			c.out = append(c.out, ',')
		}
		c.out = append(c.out, m.key...)
		c.out = append(c.out, ':')
		c.out = append(c.out, values[m.start-base:m.end-base]...)
	}
	c.out = append(c.out, '}')
	return true
}
