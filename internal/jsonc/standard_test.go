package jsonc

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// referenceFormat is what format gave before reformat (K7): json.Indent of the
// value for a multiline style, with the document's line ending; json.Compact and a
// space after each ':' and ',' outside strings for a spaced one; json.Compact
// otherwise.
func referenceFormat(value []byte, st valueStyle) []byte {
	var buf bytes.Buffer
	value = bytes.TrimSpace(value)
	if st.multiline {
		_ = json.Indent(&buf, value, st.indent, st.unit)
		return bytes.ReplaceAll(buf.Bytes(), []byte("\n"), []byte(st.nl))
	}
	_ = json.Compact(&buf, value)
	compact := buf.Bytes()
	if !st.spaced {
		return compact
	}
	var out []byte
	for i := 0; i < len(compact); {
		c := compact[i]
		if c == '"' {
			end := stringEnd(compact, i)
			out = append(out, compact[i:end]...)
			i = end
			continue
		}
		out = append(out, c)
		if c == ':' || c == ',' {
			out = append(out, ' ')
		}
		i++
	}
	return out
}

// nestedDeeper reports whether value opens more than levels containers at once
// (outside strings), where json.Valid's limit (10,000) and reformat's (maxDepth)
// differ.
func nestedDeeper(value []byte, levels int) bool {
	depth := 0
	for i := 0; i < len(value); i++ {
		switch value[i] {
		case '"':
			i = stringEnd(value, i) - 1
		case '{', '[':
			if depth++; depth > levels {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

var reformatStyles = []valueStyle{
	{},
	{spaced: true},
	{multiline: true, nl: "\n", indent: "", unit: "  "},
	{multiline: true, nl: "\r\n", indent: "    ", unit: "\t"},
}

// spec: K7
// reformat accepts exactly what json.Valid accepts (within maxDepth levels) and
// writes what json.Indent, json.Compact and the spacing of a one-line object wrote
// before it (K7).
func FuzzReformat(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{ }`, "[\n]", `{"a":1}`, `{"a": [1, 2, {"b": null}], "c": {}}`, `"s"`, `-0.5e+10`,
		`{"a":1,}`, `[1,]`, `{"a" 1}`, `[01]`, `[1.]`, `[tru]`, `[true1]`, `nul`, `{"a":"\u00e9\"\\"}`,
		"\"\x01\"", `"\x"`, `"\u12g4"`, ` {"a" : [ true , false ] } `, `{"a":1}x`, `{"a":1} {}`, `{"a":1`,
		`{"name":"s0","type":"stdio","command":"x","args":["-y","p"],"addedAt":"2026-12-07T00:28:15Z"}`,
		"{\"a\":\"x y, z: w\"}", "1 // c", `[1]/**/`, "\ufeff{}", `{"\u0061": "\ud83d\ude00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, value []byte) {
		valid := json.Valid(value)
		if _, ok := reformat(nil, value, nil); ok != valid && !nestedDeeper(value, maxDepth) {
			t.Fatalf("reformat(%q) ok = %v, json.Valid %v", value, ok, valid)
		}
		if !valid || nestedDeeper(value, maxDepth) {
			return
		}
		for _, st := range reformatStyles {
			got, ok := reformat([]byte("x"), value, &st)
			if want := referenceFormat(value, st); !ok || string(got) != "x"+string(want) {
				t.Fatalf("reformat(%q, %+v) = %q, %v; want %q", value, st, got, ok, want)
			}
		}
	})
}

// spec: K1 K7
// A value nested deeper than a document may be is refused, and a value at that
// depth is not.
func TestReformatDepth(t *testing.T) {
	for _, c := range []struct {
		levels int
		ok     bool
	}{{maxDepth, true}, {maxDepth + 1, false}} {
		v := []byte(strings.Repeat("[", c.levels) + strings.Repeat("]", c.levels))
		if _, ok := reformat(nil, v, nil); ok != c.ok {
			t.Errorf("%d levels: ok = %v", c.levels, ok)
		}
	}
}

// spec: K7
// Checking and laying out a value allocates nothing but what it writes.
func TestReformatAllocations(t *testing.T) {
	v := []byte(`{"name": "s0", "type": "stdio", "args": ["-y", "p"], "env": {"A": "1"}, "n": -1.5e3, "on": true}`)
	st := valueStyle{multiline: true, nl: "\n", indent: "  ", unit: "  "}
	dst := make([]byte, 0, 4*len(v))
	if n := testing.AllocsPerRun(100, func() {
		if _, ok := reformat(dst[:0], v, &st); !ok {
			t.Fatal("refused")
		}
		if !Valid(v) {
			t.Fatal("not valid")
		}
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
