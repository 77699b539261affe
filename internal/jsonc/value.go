package jsonc

import "bytes"

// Kind is the JSON type of a Value.
type Kind int

// The kinds of JSON values. Invalid is the Kind of the zero Value, which
// Lookup and Member return when nothing is found.
const (
	Invalid Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid", "null", "bool", "number", "string", "array", "object"}

// String returns the lowercase name of the kind, such as "object".
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

var kindNouns = [...]string{"nothing", "null", "a boolean", "a number", "a string", "an array", "an object"}

// Noun returns the kind as messages name it: "an object", "a boolean",
// "null"; "nothing" for Invalid.
func (k Kind) Noun() string {
	if k < 0 || int(k) >= len(kindNouns) {
		return kindNouns[Invalid]
	}
	return kindNouns[k]
}

// kindOf returns the Kind of the value whose text starts with c.
func kindOf(c byte) Kind {
	switch c {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	default:
		return Number
	}
}

// Value is a read-only view of one value of a Doc. A Value obtained before
// an edit of the Doc must not be used after it.
type Value struct {
	raw []byte  // the value's exact text, comments included (when obj is nil)
	obj *object // the materialised, possibly edited object (when not nil)
}

// Kind returns the JSON type of v.
func (v Value) Kind() Kind {
	if v.obj != nil {
		return Object
	}
	if len(v.raw) == 0 {
		return Invalid
	}
	return kindOf(v.raw[0])
}

// JSON returns v as compact standard JSON: comments, trailing commas and
// insignificant whitespace are removed; member order, duplicate members,
// string escapes and number spellings are kept as written. It returns nil
// for the zero Value.
func (v Value) JSON() []byte {
	if v.Kind() == Invalid {
		return nil
	}
	return v.appendJSON(nil)
}

func (v Value) appendJSON(out []byte) []byte {
	if v.obj != nil {
		v.obj.full()
		out = append(out, '{')
		for k := range v.obj.members {
			m := &v.obj.members[k]
			if k > 0 {
				out = append(out, ',')
			}
			out = append(out, m.key...)
			out = append(out, ':')
			out = m.val.appendJSON(out)
		}
		return append(out, '}')
	}
	return appendStandard(out, v.raw)
}

// appendStandard appends the compact standard JSON form of the valid JSONC
// text raw to out.
func appendStandard(out, raw []byte) []byte {
	comma := false // a ',' was seen and not yet written
	for i := 0; i < len(raw); {
		switch c := raw[i]; c {
		case ' ', '\t', '\n', '\r':
			i++
		case '/':
			i = commentEnd(raw, i)
		case ',':
			comma = true
			i++
		case '}', ']':
			comma = false // a trailing comma is dropped
			out = append(out, c)
			i++
		case '"':
			if comma {
				out = append(out, ',')
				comma = false
			}
			end := stringEnd(raw, i)
			out = append(out, raw[i:end]...)
			i = end
		default:
			if comma {
				out = append(out, ',')
				comma = false
			}
			out = append(out, c)
			i++
		}
	}
	return out
}

// Keys returns the member names of an object in document order (duplicates
// included), or nil if v is not an object.
func (v Value) Keys() []string {
	if v.obj != nil {
		v.obj.full()
		keys := make([]string, len(v.obj.members))
		for k := range v.obj.members {
			keys[k] = unquote(v.obj.members[k].key)
		}
		return keys
	}
	spans, ok := v.spans()
	if !ok {
		return nil
	}
	keys := make([]string, len(spans))
	for k, sp := range spans {
		keys[k] = unquote(v.raw[sp.keyStart:sp.keyEnd])
	}
	return keys
}

// Member returns the value of the member called name of an object. If the
// name occurs more than once, the last occurrence wins, as with
// encoding/json. It reports false if v is not an object or has no such
// member. Member looks only at the object's own members: it does not
// materialise or copy the values of the others.
func (v Value) Member(name string) (Value, bool) {
	if v.obj != nil {
		if k := v.obj.find(name); k >= 0 {
			return v.obj.members[k].val, true
		}
		return Value{}, false
	}
	spans, ok := v.spans()
	if !ok {
		return Value{}, false
	}
	for k := len(spans) - 1; k >= 0; k-- {
		sp := spans[k]
		if keyIs(v.raw[sp.keyStart:sp.keyEnd], name) {
			return Value{raw: v.raw[sp.valStart:sp.valEnd:sp.valEnd]}, true
		}
	}
	return Value{}, false
}

// spans lists the members of a raw object value.
func (v Value) spans() ([]span, bool) {
	if v.Kind() != Object {
		return nil, false
	}
	var rec record
	if _, _, err := scan(v.raw, 0, &rec); err != nil {
		panic("jsonc: internal error: rescanning a valid value: " + err.msg)
	}
	return rec.members, true
}

// String returns the decoded text of a String value. For other kinds it
// returns the value's standard JSON text (see JSON), and "" for the zero
// Value.
func (v Value) String() string {
	if v.Kind() == String {
		return unquote(v.raw)
	}
	return string(v.JSON())
}

// Text returns v's exact text in the document, comments and spacing included (as
// edited, for a value edited since the document was parsed); nil for the zero Value.
func (v Value) Text() []byte {
	if v.Kind() == Invalid {
		return nil
	}
	var out []byte
	v.emit(func(b []byte) { out = append(out, b...) })
	return out
}

// emit passes the bytes of v, in order, to fn.
func (v Value) emit(fn func([]byte)) {
	if v.obj != nil {
		v.obj.emit(fn)
		return
	}
	fn(v.raw)
}

// commentEnd returns the offset just after the comment starting at raw[i]
// in already validated text. A line comment ends before its newline.
func commentEnd(raw []byte, i int) int {
	if raw[i+1] == '/' {
		if j := bytes.IndexByte(raw[i+2:], '\n'); j >= 0 {
			return i + 2 + j
		}
		return len(raw)
	}
	return i + 2 + bytes.Index(raw[i+2:], []byte("*/")) + 2
}

// stringEnd returns the offset just after the string starting at raw[i] in
// already validated text (len(raw) if it has no end).
func stringEnd(raw []byte, i int) int {
	for i++; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(raw)
}
