package format

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// decoded is a Value of decoded data (JSON-like: maps, slices, strings, bools, numbers,
// nil), as the TOML and YAML adapters read entries. raw says whether any value can be
// carried back into a rewritten entry (YAML); otherwise only arrays of strings are
// (TOML: anything else mcpwire did not write).
type decoded struct {
	v   any
	raw bool
}

func (v decoded) Kind() Kind {
	switch v.v.(type) {
	case map[string]any:
		return KindObject
	case []any, []map[string]any:
		return KindArray
	case string:
		return String
	case bool:
		return Bool
	case nil:
		return jsonc.Null
	}
	return Number
}

func (v decoded) JSON() []byte {
	b, _ := marshalDecoded(v.v)
	return b
}

// digest is the ownership digest of the value ("" when it cannot be encoded).
func (v decoded) digest() string {
	b, err := marshalDecoded(v.v)
	if err != nil {
		return ""
	}
	return Digest(b)
}

func (v decoded) Member(key string) (Value, bool) {
	m, ok := v.v.(map[string]any)
	if !ok {
		return nil, false
	}
	x, ok := m[key]
	if !ok {
		return nil, false
	}
	return decoded{x, v.raw}, true
}

func (v decoded) Keys() []string {
	m, _ := v.v.(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Carry writes back any value as it decodes when raw (the entry is rewritten whole,
// its comments and quoting with it), else an array of strings only.
func (v decoded) Carry() (any, bool) {
	if !v.raw {
		return Strings(v)
	}
	b, err := json.Marshal(v.v)
	if err != nil || strings.Contains(string(b), `\u0000`) {
		return nil, false
	}
	return json.RawMessage(b), true
}
