package registry

import (
	"bytes"
	"encoding/json"
	"github.com/mcpwire/mcpwire/internal/jsonc"
	"sort"
)

// marshalWithExtra encodes v (a struct without a MarshalJSON method) and appends the
// extra members, sorted by name. HTML characters are not escaped.
func marshalWithExtra(v any, extra map[string]json.RawMessage) ([]byte, error) {
	b, err := jsonc.Marshal(v)
	if err != nil {
		return nil, err
	}
	return appendExtra(b, extra)
}

// appendExtra appends the extra members, sorted by name, to b, the encoding of an
// object (which it ends with '}').
func appendExtra(b []byte, extra map[string]json.RawMessage) ([]byte, error) {
	if len(extra) == 0 {
		return b, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1])
	first := len(b) == 2
	for _, k := range keys {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		kb, _ := jsonc.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		var c bytes.Buffer
		if err := json.Compact(&c, extra[k]); err != nil {
			return nil, err
		}
		buf.Write(c.Bytes())
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
