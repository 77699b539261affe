package format

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// marshalDecoded is json.Marshal of decoded data, byte for byte, written without
// reflection for what entries hold: maps of strings to values, lists, plain ASCII
// strings, booleans, null and integers; any other value (a float, a string with
// escapes or beyond ASCII) is encoded by encoding/json itself. Listing the 22,000
// entries of a 1.5 MB Goose file took a third of its read through reflection (K7).
func marshalDecoded(v any) ([]byte, error) {
	if b, ok := appendDecoded(nil, v); ok {
		return b, nil
	}
	return json.Marshal(v)
}

// appendDecoded appends the JSON of v to b; false for a value it leaves to
// encoding/json as a whole (a value json.Marshal cannot encode).
func appendDecoded(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		return appendString(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	case uint64:
		return strconv.AppendUint(b, x, 10), true
	case float64:
		f, err := json.Marshal(x)
		return append(b, f...), err == nil
	case []any:
		if x == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendDecoded(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if x == nil {
			return append(b, "null"...), true
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendString(b, k); !ok {
				return b, false
			}
			b = append(b, ':')
			if b, ok = appendDecoded(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendString appends a JSON string as encoding/json writes it.
func appendString(b []byte, s string) ([]byte, bool) { return jsonc.AppendMarshaled(b, s) }
