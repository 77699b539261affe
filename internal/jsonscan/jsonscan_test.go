package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/render/jsonc"
	"github.com/tailscale/hujson"
)

var seeds = []string{
	`{}`, `[]`, `"s"`, `1`, `-0.5e+10`, `true`, `false`, `null`, ` {"a": 1} `,
	`{"a": [1, 2, {"b": null}], "c": "d\"e\\f\u00e9\n"}`,
	"// c\n{\"a\": 1, /* b */ \"b\": [1, 2,],}\n",
	"{\"a\": {\"x\": 1,},} // end",
	"/* only */ [1, /* in */ 2,]",
	`{"a" : 1 , "b":2}`,
	"{\"a\": \"é ✓\"}",
	`{"a": 01}`, `{"a": 1.}`, `{"a": .5}`, `{"a": -}`, `{"a": 1e}`, `{"a": tru}`, `{"a": nul}`, `{"a": truex}`,
	`{"a": 1,,}`, `{,}`, `[,]`, `{"a" 1}`, `{"a": 1 "b": 2}`, `{a: 1}`, `{'a': 1}`, `[1, 2`, `{"a": "x`,
	"{\"a\": \"x\ty\"}", `{"a": "\x"}`, `{"a": "\u12"}`, `{"a": 1} {}`, `{"a": 1} x`, `/* open`, `/ x`,
	"// only a comment", "", "   ", `{"a": [1,]]}`, `{"a":{}}}`, "\xef\xbb\xbf{}",
	"{\"a\": 1, // c\n}", "[1 /* c */ ,]",
}

// spec: L11
func TestStandardizeAgreesWithJSONC(t *testing.T) {
	for _, s := range seeds {
		check(t, []byte(s))
	}
}

func FuzzStandardize(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { check(t, data) })
}

// check compares Scan with render/jsonc, the editor that writes layer files
// (a file mcpwire reads it must be able to edit): the same inputs are valid, and
// they decode to the same value; the output has the input's length, and line
// numbers do not move. Where hujson (the reference JSONC parser) accepts the input,
// its value agrees too.
func check(t *testing.T, data []byte) {
	t.Helper()
	orig := bytes.Clone(data)
	var std []byte
	scanned, err := Scan(data)
	if err == nil {
		std = scanned.Std
	}
	if !bytes.Equal(orig, data) {
		t.Fatalf("Scan changed its input %q", orig)
	}
	var want []byte
	doc, werr := jsonc.Parse(bytes.Clone(data))
	if werr == nil {
		want = doc.Root().JSON()
	} else if errors.Is(werr, jsonc.ErrEmpty) {
		werr = ErrEmpty
	}
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q: err %v, jsonc %v", data, err, werr)
	}
	if err != nil {
		if se, ok := err.(*SyntaxError); !ok || se.Line < 1 || se.Column < 1 {
			t.Fatalf("%q: error %T %v", data, err, err)
		}
		return
	}
	if len(std) != len(data) || bytes.Count(std, []byte("\n")) != bytes.Count(data, []byte("\n")) {
		t.Fatalf("%q: length or lines changed: %q", data, std)
	}
	if h, herr := hujson.Standardize(bytes.Clone(data)); herr == nil {
		var x, y any
		if decode(h, &x) == nil && decode(std, &y) == nil && !reflect.DeepEqual(x, y) {
			t.Fatalf("%q: %v, hujson %v", data, y, x)
		}
	}
	var a, b any
	if err := decode(std, &a); err != nil {
		t.Fatalf("%q: output %q is not JSON: %v", data, std, err)
	}
	if err := decode(want, &b); err != nil {
		t.Fatalf("jsonc output invalid: %v", err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("%q: %v, jsonc %v", data, a, b)
	}
	// Scan records the root members and their members as Members/String see them.
	sc, _ := Scan(data)
	m, ok := a.(map[string]any)
	if ok != (sc.Members != nil) {
		t.Fatalf("%q: root members recorded for a non-object, or missing", data)
	}
	for _, mem := range sc.Members {
		name, ok := String(mem.Name)
		if !ok {
			t.Fatalf("%q: member name %q", data, mem.Name)
		}
		var v any
		if err := decode(mem.Value, &v); err != nil || !reflect.DeepEqual(v, m[name]) && countName(sc.Members, name) == 1 {
			t.Fatalf("%q: member %s = %q", data, name, mem.Value)
		}
		inner, isObj := v.(map[string]any)
		if isObj != (mem.Members != nil) {
			t.Fatalf("%q: inner members of %s", data, name)
		}
		for _, im := range mem.Members {
			k, _ := String(im.Name)
			var iv any
			if err := decode(im.Value, &iv); err != nil || !reflect.DeepEqual(iv, inner[k]) && countName(mem.Members, k) == 1 {
				t.Fatalf("%q: inner member %s.%s = %q", data, name, k, im.Value)
			}
		}
		// the iterator agrees with the recorded members
		var got []string
		Members(mem.Value, func(n, _ []byte) bool { s, _ := String(n); got = append(got, s); return true })
		if isObj && len(got) != len(mem.Members) {
			t.Fatalf("%q: Members found %q", data, got)
		}
	}
}

func countName(ms []Member, name string) int {
	n := 0
	for _, m := range ms {
		if s, _ := String(m.Name); s == name {
			n++
		}
	}
	return n
}

// spec: L11
func TestErrors(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  \"a\": 1,\n  \"b\": }":    "line 3, column 8: invalid character '}', expecting a value",
		`{"a": 1`:                       "line 1, column 8: unexpected end of input, expecting ',' or '}'",
		"{\"a\":\n\"x":                  "line 2, column 1: unterminated string",
		"{} x":                          "line 1, column 4: invalid character 'x' after the top-level value",
		"\n\n/* x":                      "line 3, column 1: unterminated /* comment",
		`{"a": 1,,}`:                    "line 1, column 9: invalid character ',', expecting a member name in double quotes",
		" // c\n":                       "line 1, column 1: empty document",
		`{"a": "\q"}`:                   `line 1, column 8: invalid escape \q in a string`,
		"{\"a\": \"\x01\"}":             "line 1, column 8: invalid control character in a string",
		`[` + strings.Repeat("[", 1000): "nested more than 1000 deep",
	} {
		_, err := Scan([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

func TestHelpers(t *testing.T) {
	for v, want := range map[string]string{`{}`: "an object", ` [1]`: "an array", `"x"`: "a string", `true`: "a boolean",
		`null`: "null", `-1`: "a number", ``: "nothing"} {
		if got := KindName([]byte(v)); got != want {
			t.Errorf("KindName(%q) = %q", v, got)
		}
	}
	for v, want := range map[string]string{`"plain"`: "plain", `"a\"b\\c\u00e9\ud83d\ude00"`: "a\"b\\cé😀", `""`: "", ` "x" `: "x", "\"\xff\"": "\ufffd"} {
		if got, ok := String([]byte(v)); !ok || got != want {
			t.Errorf("String(%q) = %q, %v", v, got, ok)
		}
	}
	if _, ok := String([]byte(`1`)); ok {
		t.Error("String of a number")
	}
	var els []string
	if !Elements([]byte(`[ "a", {"b": [1]}, 2 ]`), func(v []byte) bool { els = append(els, string(v)); return true }) ||
		!reflect.DeepEqual(els, []string{`"a"`, `{"b": [1]}`, `2`}) {
		t.Errorf("Elements %q", els)
	}
	if Elements([]byte(`{}`), func([]byte) bool { return true }) || Members([]byte(`[]`), func(_, _ []byte) bool { return true }) {
		t.Error("wrong kind accepted")
	}
	var keys []string
	Members([]byte(`{"a\"b": "}", "c": {"d": "\\"}, "e": [] }`), func(n, v []byte) bool {
		s, _ := String(n)
		keys = append(keys, s+"="+string(v))
		return true
	})
	if !reflect.DeepEqual(keys, []string{`a"b="}"`, `c={"d": "\\"}`, `e=[]`}) {
		t.Errorf("Members %q", keys)
	}
}

// decode is json.Unmarshal keeping numbers as written (huge numbers are valid JSON).
func decode(data []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("more than one value")
	}
	return nil
}
