package render

import (
	"bytes"
	"encoding/json"
	"sort"
)

// object is a JSON object that keeps its member order.
type object []member

type member struct {
	Key   string
	Value any
}

// set appends or replaces a member.
func (o *object) set(k string, v any) {
	for i := range *o {
		if (*o)[i].Key == k {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, member{k, v})
}

// get returns a member's value.
func (o object) get(k string) (any, bool) {
	for _, m := range o {
		if m.Key == k {
			return m.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the members in order, without HTML escaping.
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := marshal(m.Key)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		v, err := marshal(m.Value)
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// sortedObject turns a string map into an object with sorted keys.
func sortedObject(m map[string]string) object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := make(object, 0, len(keys))
	for _, k := range keys {
		o = append(o, member{k, m[k]})
	}
	return o
}

// marshal is json.Marshal without HTML escaping and without a final newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// canonical returns a key-sorted compact encoding of JSON, for digests and comparisons.
func canonical(raw []byte) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	b, err := marshal(v)
	if err != nil {
		return raw
	}
	return b
}

// jsonIndent indents JSON with two spaces.
func jsonIndent(buf *bytes.Buffer, raw []byte) error { return json.Indent(buf, raw, "", "  ") }
