package format

import (
	"github.com/mcpwire/mcpwire/internal/jsonc"
	"strconv"
	"unicode/utf8"
)

// Marshal is json.Marshal without HTML escaping and without a final newline. Objects,
// strings, string lists, bools and ints whose strings need no escape are encoded
// directly, byte for byte as encoding/json would (digests and files depend on it);
// anything else goes through encoding/json.
func Marshal(v any) ([]byte, error) {
	return appendValue(nil, v)
}

// marshalJSON is Marshal through encoding/json.
func marshalJSON(v any) ([]byte, error) { return jsonc.Marshal(v) }

// appendValue appends the encoding of v to b.
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case Object:
		return appendObject(b, x)
	case string:
		if out, ok := appendPlain(b, x); ok {
			return out, nil
		}
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case []string:
		if out, ok := appendStrings(b, x); ok {
			return out, nil
		}
	}
	raw, err := marshalJSON(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

// appendObject appends the members in order, each encoded as Marshal encodes it.
func appendObject(b []byte, o Object) ([]byte, error) {
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendValue(b, m.Key); err != nil {
			return nil, err
		}
		b = append(b, ':')
		if b, err = appendValue(b, m.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendStrings appends a list of plain strings (see appendPlain); nil is null.
func appendStrings(b []byte, list []string) ([]byte, bool) {
	if list == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendPlain(b, s); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendPlain appends s quoted when encoding/json (without HTML escaping) would write
// it as it is: no quote, backslash or control character, valid UTF-8, no U+2028 or
// U+2029.
func appendPlain(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return b, false
		}
	}
	if !utf8.ValidString(s) || containsLineSep(s) {
		return b, false
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

// containsLineSep reports U+2028 or U+2029, which encoding/json escapes.
func containsLineSep(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == 0xe2 && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
			return true
		}
	}
	return false
}
