package providers

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Fast paths of reading entries back (K7: status, audit and import read every entry
// of every client file, 200,000 of them in under two seconds). An entry is standard
// JSON, checked once with jsonc.Valid; its members are then split without
// reflection, and the strings, string lists and string maps that most members are
// taken as they are when they hold no escape. Anything else goes through
// encoding/json, which gives the same values.

// member is one member of an entry.
type member struct {
	key string
	raw json.RawMessage
}

// members are the members of an entry, each name once (the last of a name wins, as
// with encoding/json): a short list searched in order, and indexed by name once it is
// long (an entry of thousands of members is read in linear time). An entry's
// members fit in buf, inside the (pooled) reading, until they are indexed: no list
// grown and no map per entry (K7: a Goose extension has 11 members).
type members struct {
	list  []member
	index map[string]int // by name, once list is long
	buf   [indexFrom]member
}

// indexFrom is the number of members from which they are indexed by name.
const indexFrom = 16

// find returns the position of the member of a name, -1 when there is none.
func (ms *members) find(key string) int {
	if ms.index != nil {
		if i, ok := ms.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range ms.list {
		if ms.list[i].key == key {
			return i
		}
	}
	return -1
}

// get returns the member of a name.
func (ms *members) get(key string) (json.RawMessage, bool) {
	if i := ms.find(key); i >= 0 {
		return ms.list[i].raw, true
	}
	return nil, false
}

// set sets the member of a name: a later member of the same name replaces it.
func (ms *members) set(key string, raw json.RawMessage) {
	if i := ms.find(key); i >= 0 {
		ms.list[i].raw = raw
		return
	}
	if ms.list == nil {
		ms.list = ms.buf[:0]
	}
	ms.list = append(ms.list, member{key, raw})
	switch {
	case ms.index != nil:
		ms.index[key] = len(ms.list) - 1
	case len(ms.list) == indexFrom:
		ms.reindex()
	}
}

// remove removes the member of a name.
func (ms *members) remove(key string) {
	if i := ms.find(key); i >= 0 {
		ms.list = append(ms.list[:i], ms.list[i+1:]...)
		if ms.index != nil {
			ms.reindex()
		}
	}
}

func (ms *members) reindex() {
	ms.index = make(map[string]int, len(ms.list))
	for i, m := range ms.list {
		ms.index[m.key] = i
	}
}

// splitObject splits valid JSON into the members of its object (the last of a name
// wins, as with encoding/json); false when it is not an object or a key needs
// unescaping.
func splitObject(b []byte, ms *members) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return true
	}
	for i < len(b) && b[i] == '"' {
		end := stringEnd(b, i)
		key, ok := quickString(b[i:end])
		if !ok {
			return false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		vend := valueEnd(b, i)
		ms.set(key, json.RawMessage(b[i:vend:vend]))
		i = skipSpace(b, vend)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return true
		}
		return false
	}
	return false
}

// skipSpace returns the offset of the first byte at or after i that is not JSON
// white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the offset just after the string that starts at b[i] ('"').
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd returns the offset just after the valid JSON value that starts at b[i].
func valueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i = stringEnd(b, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return i // the end of the enclosing container
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i // after a number or a literal
			}
		}
		i++
	}
	return i
}

// quickString returns the string a JSON string token holds when it needs no
// unescaping: no backslash, no control character, valid UTF-8.
func quickString(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return "", false
	}
	body := tok[1 : len(tok)-1]
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

// quickDecode decodes raw (valid JSON, not null) into dst for the kinds entries
// mostly hold — a string, a list of strings, a map of strings, a boolean, a number
// (strconv.ParseFloat, as encoding/json parses one) — when every string in it needs
// no unescaping; false leaves dst alone for encoding/json.
func quickDecode(raw []byte, dst any) bool {
	switch d := dst.(type) {
	case *string:
		s, ok := quickString(raw)
		if ok {
			*d = s
		}
		return ok
	case *bool:
		switch string(raw) {
		case "true", "false":
			*d = raw[0] == 't'
			return true
		}
		return false
	case *float64:
		if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
			return false
		}
		f, err := strconv.ParseFloat(string(raw), 64) // a number of valid JSON: what encoding/json does
		if err == nil {
			*d = f
		}
		return err == nil
	case *[]string:
		var out []string
		ok := quickElements(raw, '[', ']', func(_, v []byte) bool {
			s, ok := quickString(v)
			out = append(out, s)
			return ok
		})
		if ok {
			if out == nil {
				out = []string{}
			}
			*d = out
		}
		return ok
	case *map[string]string:
		out := map[string]string{}
		ok := quickElements(raw, '{', '}', func(k, v []byte) bool {
			key, ok1 := quickString(k)
			s, ok2 := quickString(v)
			out[key] = s
			return ok1 && ok2
		})
		if ok {
			*d = out
		}
		return ok
	}
	return false
}

// quickElements calls fn with each element of the valid JSON array (open '[') or
// object ('{', with its keys) raw; false when raw is not one, or fn says false.
func quickElements(raw []byte, open, close byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != open {
		return false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == close {
		return true
	}
	for i < len(raw) {
		var key []byte
		if open == '{' {
			if raw[i] != '"' {
				return false
			}
			end := stringEnd(raw, i)
			key = raw[i:end]
			i = skipSpace(raw, end)
			if i >= len(raw) || raw[i] != ':' {
				return false
			}
			i = skipSpace(raw, i+1)
		}
		end := valueEnd(raw, i)
		if !fn(key, raw[i:end]) {
			return false
		}
		i = skipSpace(raw, end)
		switch {
		case i < len(raw) && raw[i] == ',':
			i = skipSpace(raw, i+1)
		case i < len(raw) && raw[i] == close:
			return true
		default:
			return false
		}
	}
	return false
}
