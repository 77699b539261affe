package yamledit

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// KV is one member of a Map.
type KV struct {
	Key   string
	Value any
}

// Map is a mapping that keeps its member order: what an entry is written as. Values
// are strings, bools, nil, numbers (int, int64, uint64, float64, json.Number), []string,
// []any, nested Maps, map[string]any (written in key order) and json.RawMessage.
type Map []KV

// style is how new text is laid out: the document's line ending and indentation step.
type style struct {
	nl   string
	step int
}

// writer renders values as block YAML.
type writer struct {
	style
	b   strings.Builder
	err error
}

// member writes "key: value" at indentation ind (the key's column), the value on the
// same line when it is a scalar or an empty collection, else in a block below.
func (w *writer) member(ind int, key string, v any) {
	w.b.WriteString(strings.Repeat(" ", ind))
	w.b.WriteString(scalarKey(key))
	w.b.WriteByte(':')
	w.value(ind, v)
}

// value writes v after a "key:" or "-" already written, at block indentation ind.
func (w *writer) value(ind int, v any) {
	v = w.plain(v)
	switch x := v.(type) {
	case Map:
		if len(x) == 0 {
			w.b.WriteString(" {}" + w.nl)
			return
		}
		w.b.WriteString(w.nl)
		for _, kv := range x {
			w.member(ind+w.step, kv.Key, kv.Value)
		}
	case []any:
		if len(x) == 0 {
			w.b.WriteString(" []" + w.nl)
			return
		}
		w.b.WriteString(w.nl)
		for _, e := range x {
			w.item(ind+w.step, e)
		}
	default:
		w.b.WriteByte(' ')
		w.b.WriteString(w.scalar(x))
		w.b.WriteString(w.nl)
	}
}

// item writes one sequence entry "- value" with its dash at indentation ind; a
// mapping's first member shares the dash's line.
func (w *writer) item(ind int, v any) {
	v = w.plain(v)
	w.b.WriteString(strings.Repeat(" ", ind))
	w.b.WriteByte('-')
	m, ok := v.(Map)
	if !ok || len(m) == 0 {
		w.value(ind, v)
		return
	}
	w.b.WriteByte(' ')
	w.b.WriteString(scalarKey(m[0].Key))
	w.b.WriteByte(':')
	w.value(ind+2, m[0].Value)
	for _, kv := range m[1:] {
		w.member(ind+2, kv.Key, kv.Value)
	}
}

// plain turns the value kinds a caller may give into Map, []any or a scalar.
func (w *writer) plain(v any) any {
	switch x := v.(type) {
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := make(Map, len(keys))
		for i, k := range keys {
			m[i] = KV{k, x[k]}
		}
		return m
	case json.RawMessage:
		var d any
		dec := json.NewDecoder(strings.NewReader(string(x)))
		dec.UseNumber()
		if err := dec.Decode(&d); err != nil {
			w.fail(err)
			return nil
		}
		return w.plain(d)
	}
	return v
}

func (w *writer) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// scalar writes a scalar value.
func (w *writer) scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return scalarString(x)
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case json.Number:
		return x.String()
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			w.fail(fmt.Errorf("cannot write the number %v", x))
			return "null"
		}
		s := strconv.FormatFloat(x, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	w.fail(fmt.Errorf("cannot write a value of type %T", v))
	return "null"
}

// scalarKey writes a mapping key.
func scalarKey(k string) string { return scalarString(k) }

// scalarString writes a string plain when every YAML parser reads it back as the same
// string, and double-quoted (JSON escapes are YAML escapes) otherwise.
func scalarString(s string) string {
	if plainKey(s) {
		return s
	}
	return quote(s)
}

// quote writes a double-quoted scalar.
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// plainKey reports whether s can be written as a plain scalar that every YAML 1.1 and
// 1.2 parser reads as this string: printable ASCII words with single inner spaces, no
// indicator at the start, no ": " or " #", nothing that reads as a boolean, null or
// number in either version, and none of the flow indicators.
func plainKey(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || strings.IndexByte(`,[]{}#&*!|>'"%@`+"`", c) >= 0 {
			return false
		}
	}
	switch s[0] {
	case '-', '?', ':':
		if len(s) == 1 || s[1] == ' ' || strings.HasPrefix(s, "---") {
			return false
		}
	case '.', '=', '<', '~':
		return false
	}
	if strings.Contains(s, ": ") || strings.HasSuffix(s, ":") {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null":
		return false
	}
	// anything a number could start with: digits, a sign or a point before a digit
	c := s[0]
	if c >= '0' && c <= '9' || (c == '+' || c == '-') && len(s) > 1 && (s[1] >= '0' && s[1] <= '9' || s[1] == '.') {
		return false
	}
	return true
}
