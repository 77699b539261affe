package format

import (
	"bytes"
	"encoding/json"
	"testing"
)

// refObject encodes an Object as Marshal did through encoding/json alone: each key
// and value marshalled by encoding/json, nested Objects alike.
type refObject Object

func (o refObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := marshalJSON(m.Key)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		v, err := marshalJSON(ref(m.Value))
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ref replaces the Objects in v by refObjects.
func ref(v any) any {
	switch x := v.(type) {
	case Object:
		return refObject(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = ref(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = ref(e)
		}
		return out
	}
	return v
}

// TestMarshalMatchesEncodingJSON: the direct encoding of entries is byte for byte
// encoding/json's (every client file and digest depends on it).
//
// spec: W1 C6
func TestMarshalMatchesEncodingJSON(t *testing.T) {
	tricky := []string{"plain", "", "<&>", "quote\"", `back\slash`, "tab\t", "nl\n", "caf\u00e9", "sep\u2028", "bad\xff", "del\x7f", "${VAR}"}
	var values []any
	for _, s := range tricky {
		values = append(values, s, []string{"a", s}, Object{{Key: s, Value: s}})
	}
	values = append(values, true, false, 0, -12, 3.5, 1e21, nil, []string(nil), []string{}, Object(nil), Object{},
		json.RawMessage(`{ "a" : [1, 2] }`), map[string]string{"b": "1", "a": "<"}, map[string]any{"o": Object{{Key: "z", Value: 1}}},
		[]any{Object{{Key: "k", Value: []string{"x"}}}, "s"},
		Object{{Key: "command", Value: "npx"}, {Key: "args", Value: []string{"-y", "pkg"}}, {Key: "env", Value: Sorted(map[string]string{"B": "${B}", "A": "1"})},
			{Key: "nested", Value: Object{{Key: "deep", Value: Object{{Key: "raw", Value: json.RawMessage(" [ true ] ")}}}}}, {Key: "n", Value: 30000}})
	for _, v := range values {
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%#v): %v", v, err)
		}
		want, err := marshalJSON(ref(v))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("Marshal(%#v) = %s, want %s", v, got, want)
		}
	}
}
