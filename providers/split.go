package providers

import (
	"encoding/json"
	"unicode/utf8"
)

// Fast paths of reading entries back (K7: status, audit and import read every entry
// of every client file, 200,000 of them in under two seconds). An entry is standard
// JSON, checked once with json.Valid; its members are then split without
// reflection, and the strings, string lists and string maps that most members are
// taken as they are when they hold no escape. Anything else goes through
// encoding/json, which gives the same values.

// splitObject splits valid JSON into the members of its object (the last of a name
// wins, as with encoding/json); false when it is not an object or a key needs
// unescaping.
func splitObject(b []byte) (map[string]json.RawMessage, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	m := map[string]json.RawMessage{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return m, true
	}
	for i < len(b) && b[i] == '"' {
		end := stringEnd(b, i)
		key, ok := quickString(b[i:end])
		if !ok {
			return nil, false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		vend := valueEnd(b, i)
		m[key] = json.RawMessage(b[i:vend:vend])
		i = skipSpace(b, vend)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return m, true
		}
		return nil, false
	}
	return nil, false
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
// mostly hold — a string, a list of strings, a map of strings — when every string in
// it needs no unescaping; false leaves dst alone for encoding/json.
func quickDecode(raw []byte, dst any) bool {
	switch d := dst.(type) {
	case *string:
		s, ok := quickString(raw)
		if ok {
			*d = s
		}
		return ok
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
