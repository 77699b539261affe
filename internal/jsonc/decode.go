package jsonc

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// Decoded is a document read by Decode: its root value as standard JSON and
// the members of its first two levels.
type Decoded struct {
	// Root is the root value.
	Root Raw
	// Members are the members of a root object, in document order
	// (duplicates included); nil when the root is not an object.
	Members []RawMember
}

// RawMember is one object member read by Decode.
type RawMember struct {
	// Name is the member's decoded name.
	Name string
	// Value is the member's value.
	Value Raw
	// Members are the members of Value, when it is an object and this is a
	// member of the root object; nil otherwise.
	Members []RawMember
}

// Decode is the read-only fast path of this package, for files that are
// read far more often than edited (the registry's layer files). It
// validates data with the same grammar and errors as Parse, and in the same
// single pass records the members of a root object and the members of
// their object values, so that a file of entries needs no second pass.
//
// The values are standard JSON: comments and trailing commas are replaced
// by spaces (line breaks kept), in a copy of data made only when data has
// any. They share memory with data or that copy, as do the names and the
// strings Raw.Text returns, so data must not be modified afterwards.
func Decode(data []byte) (*Decoded, error) {
	rec := record{deep: true}
	start, end, err := scanDocument(data, &rec)
	if err != nil {
		return nil, err
	}
	std := data
	if len(rec.blanks) > 0 {
		std = bytes.Clone(data)
		for k := 0; k < len(rec.blanks); k += 2 {
			for p := rec.blanks[k]; p < rec.blanks[k+1]; p++ {
				if c := std[p]; c != '\n' && c != '\r' {
					std[p] = ' '
				}
			}
		}
	}
	d := &Decoded{Root: Raw(std[start:end:end])}
	if std[start] != '{' {
		return d, nil
	}
	inner := make([]RawMember, len(rec.inner))
	for k, sp := range rec.inner {
		inner[k] = rawMember(std, sp)
	}
	d.Members = make([]RawMember, len(rec.members))
	for k, sp := range rec.members {
		m := rawMember(std, sp)
		if std[sp.valStart] == '{' {
			m.Members = inner[sp.first:sp.end:sp.end]
		}
		d.Members[k] = m
	}
	return d, nil
}

func rawMember(std []byte, sp span) RawMember {
	name, _ := Raw(std[sp.keyStart:sp.keyEnd]).Text()
	return RawMember{Name: name, Value: Raw(std[sp.valStart:sp.valEnd:sp.valEnd])}
}

// Raw is the text of one standard JSON value, as Decode returns it. Its
// methods read it without validating it again: it must be valid JSON (what
// Decode or encoding/json hands out). Surrounding whitespace is allowed.
type Raw []byte

// Kind returns the JSON type of r, or Invalid when r is blank.
func (r Raw) Kind() Kind {
	i := skipWS(r, 0)
	if i >= len(r) {
		return Invalid
	}
	return kindOf(r[i])
}

// IsNull reports whether r is the literal null.
func (r Raw) IsNull() bool { return r.Kind() == Null }

// Text decodes a string value as encoding/json does. It reports false when
// r is not a string. The result shares memory with r when the string holds
// no escapes and is valid UTF-8, so r must never be modified afterwards; never
// with a mapped file (internal/bigbuf), which another program may write.
func (r Raw) Text() (string, bool) {
	if len(r) > 0 && (r[0] <= ' ' || r[len(r)-1] <= ' ') {
		r = bytes.TrimSpace(r)
	}
	if len(r) < 2 || r[0] != '"' {
		return "", false
	}
	body := r[1 : len(r)-1]
	switch {
	case len(body) == 0:
		return "", true
	case bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body):
		if bigbuf.IsMapped(body) {
			// a mapped file's bytes change when another program writes it in place:
			// a string must not (registry values, map keys, a probe's command)
			return string(body), true
		}
		return unsafe.String(&body[0], len(body)), true
	case utf8.Valid(body):
		return unquote(r), true
	}
	// encoding/json turns each byte that is not UTF-8 into U+FFFD
	var out string
	if err := json.Unmarshal(r, &out); err != nil {
		return "", false
	}
	return out, true
}

// Members calls fn with the decoded name and the value of each member of
// the object r, in order (duplicates included); fn returning false stops
// the walk. It reports false, without calling fn, when r is not an object.
func (r Raw) Members(fn func(name string, value Raw) bool) bool {
	i := skipWS(r, 0)
	if i >= len(r) || r[i] != '{' {
		return false
	}
	for i = skipWS(r, i+1); i < len(r) && r[i] != '}'; {
		ks := i
		i = stringEnd(r, i)
		name, _ := r[ks:i].Text()
		i = skipWS(r, skipWS(r, i)+1) // ':'
		vs := i
		if i = valueEnd(r, i); i == vs || !fn(name, r[vs:i:i]) {
			break
		}
		if i = skipWS(r, i); i < len(r) && r[i] == ',' {
			i = skipWS(r, i+1)
		}
	}
	return true
}

// Elements calls fn with each element of the array r, in order; fn
// returning false stops the walk. It reports false, without calling fn,
// when r is not an array.
func (r Raw) Elements(fn func(value Raw) bool) bool {
	i := skipWS(r, 0)
	if i >= len(r) || r[i] != '[' {
		return false
	}
	for i = skipWS(r, i+1); i < len(r) && r[i] != ']'; {
		vs := i
		if i = valueEnd(r, i); i == vs || !fn(r[vs:i:i]) {
			break
		}
		if i = skipWS(r, i); i < len(r) && r[i] == ',' {
			i = skipWS(r, i+1)
		}
	}
	return true
}

// valueEnd returns the offset just after the standard JSON value that
// starts at v[i].
func valueEnd(v []byte, i int) int {
	if i >= len(v) {
		return i
	}
	switch v[i] {
	case '"':
		return stringEnd(v, i)
	case '{', '[':
		depth := 0
		for i < len(v) {
			switch v[i] {
			case '"':
				i = stringEnd(v, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
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
