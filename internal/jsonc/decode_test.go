package jsonc

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// decodeSeeds are layer-file shapes and the grammar's corners.
var decodeSeeds = []string{
	`{}`, `[]`, `"s"`, `1`, `-0.5e+10`, `true`, `false`, `null`, ` {"a": 1} `,
	`{"a": [1, 2, {"b": null}], "c": "d\"e\\f\u00e9\n"}`,
	"// c\n{\"a\": 1, /* b */ \"b\": [1, 2,],}\n",
	"{\"a\": {\"x\": 1,},} // end",
	"/* only */ [1, /* in */ 2,]",
	`{"a" : 1 , "b":2}`, "{\"a\": \"é ✓\"}", "{\"a\": \"\xff\"}", `{"\u0061": {"\ud83d": "\ud83d\ude00"}}`,
	`{"servers": {"a": {"command": "x", "args": ["-y", "p"], "env": {"K": "v"}}, "b": {}}, "apiVersion": "aiwg.io/v1"}`,
	`{"a": 01}`, `{"a": 1.}`, `{"a": tru}`, `{"a": 1,,}`, `{a: 1}`, `{'a': 1}`, `[1, 2`, `{"a": "x`,
	`{"a": 1} {}`, `/* open`, `/ x`, "// only a comment", "", "   ", "\xef\xbb\xbf{}", "// a\u2028b\n{}",
	"{\"a\": 1, // c\n}", "[1 /* c */ ,]", `{"a":{"b":{"c":{}}},"a":{"d":[{"e":1},]}}`,
}

// spec: L11
func TestDecodeAgreesWithParseAndHujson(t *testing.T) {
	for _, s := range decodeSeeds {
		checkDecode(t, []byte(s))
	}
}

// FuzzDecode checks the decode mode against hujson, the reference JSONC
// parser, and against Parse.
func FuzzDecode(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	for _, s := range append(decodeSeeds, seedSnippets...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 1<<14 {
			t.Skip("input too large")
		}
		checkDecode(t, in)
	})
}

// checkDecode checks Decode(in): it accepts what hujson accepts (up to the
// nesting limit), fails with the error Parse gives, leaves in as it is, and
// gives standard JSON equal to hujson's, with the members and strings
// encoding/json sees.
func checkDecode(t *testing.T, in []byte) {
	t.Helper()
	orig := bytes.Clone(in)
	d, err := Decode(in)
	_, perr := Parse(in)
	if !bytes.Equal(in, orig) {
		t.Fatalf("Decode modified its input %q", orig)
	}
	if (err == nil) != (perr == nil) || err != nil && err.Error() != perr.Error() {
		t.Fatalf("Decode(%q) = %v, Parse = %v", in, err, perr)
	}
	want, herr := standardize(in)
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 {
			t.Fatalf("Decode(%q): bad error %#v", in, err)
		}
		if herr == nil && !strings.Contains(se.Problem, "nesting depth") {
			t.Fatalf("Decode(%q) = %v, but hujson accepts it", in, err)
		}
		return
	}
	if herr != nil {
		t.Fatalf("Decode(%q) succeeded, but hujson says %v", in, herr)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, d.Root); err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("Decode(%q).Root = %q (%v), want %q", in, d.Root, err, want)
	}
	root, isObj := decode(t, d.Root).(map[string]any)
	if isObj != (d.Members != nil) || isObj != (d.Root.Kind() == Object) {
		t.Fatalf("Decode(%q): root members %v for root %q", in, d.Members, d.Root)
	}
	checkMembers(t, d.Root, d.Members, root, true)
}

// checkMembers checks the members Decode recorded for the object v, whose
// decoded value is want, and the Raw methods on them.
func checkMembers(t *testing.T, v Raw, members []RawMember, want map[string]any, inner bool) {
	t.Helper()
	var names []string
	v.Members(func(name string, _ Raw) bool { names = append(names, name); return true })
	if len(names) != len(members) {
		t.Fatalf("%q: Raw.Members gives %q, Decode %d members", v, names, len(members))
	}
	for k, m := range members {
		var name string
		if err := json.Unmarshal([]byte(jsonQuoteOf(v, k)), &name); err != nil || name != m.Name || names[k] != m.Name {
			t.Fatalf("%q: member %d named %q, want %q", v, k, m.Name, name)
		}
		mv := decode(t, m.Value)
		if count(names, m.Name) == 1 && !reflect.DeepEqual(mv, want[m.Name]) {
			t.Fatalf("%q: member %q = %q", v, m.Name, m.Value)
		}
		checkRaw(t, m.Value, mv)
		obj, isObj := mv.(map[string]any)
		if inner && isObj != (m.Members != nil) || !inner && m.Members != nil {
			t.Fatalf("%q: members of %q recorded wrongly: %v", v, m.Name, m.Members)
		}
		if inner && isObj {
			checkMembers(t, m.Value, m.Members, obj, false)
		}
	}
}

// jsonQuoteOf returns the quoted name of member k of the object v.
func jsonQuoteOf(v Raw, k int) string {
	var rec record
	if _, _, err := scan(v, 0, &rec); err != nil {
		panic(err.msg)
	}
	sp := rec.members[k]
	return string(v[sp.keyStart:sp.keyEnd])
}

// checkRaw checks the Raw methods on v, whose decoded value is want.
func checkRaw(t *testing.T, v Raw, want any) {
	t.Helper()
	s, ok := v.Text()
	if ws, isStr := want.(string); isStr != ok || ok && s != ws {
		t.Fatalf("Raw(%q).Text() = %q, %v; want %q", v, s, ok, want)
	}
	if v.IsNull() != (want == nil) {
		t.Fatalf("Raw(%q).IsNull() = %v", v, v.IsNull())
	}
	arr, isArr := want.([]any)
	els := []any{}
	if v.Elements(func(e Raw) bool { els = append(els, decode(t, e)); return true }) != isArr || isArr && !reflect.DeepEqual(els, arr) {
		t.Fatalf("Raw(%q).Elements gives %v, want %v", v, els, want)
	}
}

func count(names []string, name string) int {
	n := 0
	for _, s := range names {
		if s == name {
			n++
		}
	}
	return n
}

// spec: L11
func TestDecodeStandardJSON(t *testing.T) {
	in := "{\n  // servers\n  \"servers\": {\"a\": {\"x\": [1, 2,],}, /* b */},\n  \"k\": 1,\n}\n"
	d, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	blank := func(s string) string { return strings.Repeat(" ", len(s)) }
	want := strings.NewReplacer("// servers", blank("// servers"), "2,],}", "2 ] }", ", /* b */", blank(", /* b */"),
		"1,\n}\n", "1 \n}").Replace(in)
	if string(d.Root) != want {
		t.Errorf("Root = %q, want %q", d.Root, want)
	}
	if got := d.Members[0].Members[0].Value; string(got) != `{"x": [1, 2 ] }` {
		t.Errorf("servers.a = %q", got)
	}
	plain := []byte(`{"a": "b"}`)
	if d, _ := Decode(plain); &d.Root[0] != &plain[0] {
		t.Error("Decode copied standard JSON")
	}
}

func TestRawHelpers(t *testing.T) {
	for v, want := range map[string]string{`{}`: "an object", ` [1]`: "an array", `"x"`: "a string", `true`: "a boolean",
		`null`: "null", `-1`: "a number", ``: "nothing", ` `: "nothing"} {
		if got := Raw(v).Kind().Noun(); got != want {
			t.Errorf("Raw(%q).Kind().Noun() = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[string]string{`"plain"`: "plain", `"a\"b\\c\u00e9\ud83d\ude00"`: "a\"b\\cé😀", `""`: "",
		` "x" `: "x", "\"\xff\"": "\ufffd", `"\ud83d"`: "\ufffd", "\"é\\n\"": "é\n"} {
		if got, ok := Raw(v).Text(); !ok || got != want {
			t.Errorf("Raw(%q).Text() = %q, %v; want %q", v, got, ok, want)
		}
	}
	if _, ok := Raw(`1`).Text(); ok {
		t.Error("Text of a number")
	}
	var els []string
	if !Raw(`[ "a", {"b": [1]}, 2 ]`).Elements(func(v Raw) bool { els = append(els, string(v)); return true }) ||
		!reflect.DeepEqual(els, []string{`"a"`, `{"b": [1]}`, `2`}) {
		t.Errorf("Elements %q", els)
	}
	if Raw(`{}`).Elements(func(Raw) bool { return true }) || Raw(`[]`).Members(func(string, Raw) bool { return true }) {
		t.Error("wrong kind accepted")
	}
	var keys []string
	Raw(`{"a\"b": "}", "c": {"d": "\\"}, "e": [] }`).Members(func(n string, v Raw) bool {
		keys = append(keys, n+"="+string(v))
		return n != "c"
	})
	if !reflect.DeepEqual(keys, []string{`a"b="}"`, `c={"d": "\\"}`}) {
		t.Errorf("Members %q", keys)
	}
	for _, bad := range []string{`[}`, `{"a" 1`, `[1`, `{"a":`, `["x`} { // must not hang or panic
		Raw(bad).Elements(func(Raw) bool { return true })
		Raw(bad).Members(func(string, Raw) bool { return true })
	}
}
