package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Object is a JSON-like object that keeps its member order: the neutral form of one
// server entry (and of any other value mcpwire writes), which every format encodes.
// Values are strings, bools, numbers, []string, nested Objects, json.RawMessage (JSON
// only) or anything encoding/json takes.
type Object []Member

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

// Set appends a member, or replaces the value of the member with that key in place.
func (o *Object) Set(k string, v any) {
	for i := range *o {
		if (*o)[i].Key == k {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{k, v})
}

// Get returns a member's value.
func (o Object) Get(k string) (any, bool) {
	for _, m := range o {
		if m.Key == k {
			return m.Value, true
		}
	}
	return nil, false
}

// Without returns a copy of o without the member k.
func (o Object) Without(k string) Object {
	out := make(Object, 0, len(o))
	for _, m := range o {
		if m.Key != k {
			out = append(out, m)
		}
	}
	return out
}

// MarshalJSON writes the members in order, without HTML escaping.
func (o Object) MarshalJSON() ([]byte, error) { return appendObject(nil, o) }

// Sorted turns a string map into an Object with sorted keys.
func Sorted(m map[string]string) Object {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	o := make(Object, 0, len(keys))
	for _, k := range keys {
		o = append(o, Member{k, m[k]})
	}
	return o
}

// Indent encodes v with two-space indentation and a final newline: a standalone file.
func Indent(v any) ([]byte, error) {
	raw, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// ObjectOf decodes a JSON object keeping the order of its members (nested objects are
// Objects too, numbers json.Number): an entry read back as JSON, written again in any
// format.
func ObjectOf(raw []byte) (Object, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return nil, err
	}
	o, ok := v.(Object)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return o, nil
}

// decodeOrdered decodes the next value of dec, objects as Objects.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := Object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, Member{Key: k.(string), Value: v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}
