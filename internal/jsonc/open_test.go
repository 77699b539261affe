package jsonc

import (
	"bytes"
	"strings"
	"testing"
)

// spec: W1 Q4
// TestParseOpen checks that a document read by ParseOpen edits exactly as one read by
// Parse, whether or not the named member could be noted, after it was replaced, and
// through every use of an object built only around one member (window.go): a second
// lookup, a removal beside it, an insertion, its own removal, its keys.
func TestParseOpen(t *testing.T) {
	type op struct {
		path  []string
		value string // "" deletes
	}
	projects := `{"a":1,"projects":{"/p1":{"x":1},"/p2":{"mcpServers":{}},"/p3":{"y":[1,2]}},"z":[]}`
	pretty := "{\n  \"projects\": {\n    \"/p1\": {\n      \"x\": 1\n    },\n    // note\n    \"/p2\": {\n      \"mcpServers\": {}\n    },\n    \"/p3\": {} // end\n  }\n}\n"
	gh := `{"command":"gh"}`
	cases := []struct {
		name, in, open string
		ops            []op
	}{
		{"project in the middle", projects, "projects", []op{{[]string{"projects", "/p2", "mcpServers", "gh"}, gh}}},
		{"pretty, with comments", pretty, "projects", []op{{[]string{"projects", "/p2", "mcpServers", "gh"}, gh}, {[]string{"projects", "/p2", "k"}, `{"a":[1,2]}`}}},
		{"comments and trailing commas", "{\n  // c\n  \"projects\": {\n    \"/p\": { /* in */ \"k\": true, },\n  },\n}", "projects", []op{{[]string{"projects", "/p", "mcpServers"}, `{}`}}},
		{"new project", `{"projects":{"/a":{}}}`, "projects", []op{{[]string{"projects", "/b", "mcpServers", "s"}, `1`}}},
		{"empty object", `{"projects":{}}`, "projects", []op{{[]string{"projects", "/b"}, `{}`}}},
		{"escaped name is not noted", `{"pro\u006aects":{"/p":{}}}`, "projects", []op{{[]string{"projects", "/p", "k"}, `2`}}},
		{"array value", `{"projects":[{"a":1}]}`, "projects", []op{{[]string{"projects", "x"}, `1`}}},
		{"other member named", `{"projects":{"/p":{}},"other":{"q":1}}`, "other", []op{{[]string{"projects", "/p", "k"}, `4`}}},
		{"a second project", pretty, "projects", []op{{[]string{"projects", "/p2", "k"}, `1`}, {[]string{"projects", "/p1", "k"}, `2`}}},
		{"the last one removed beside it", pretty, "projects", []op{{[]string{"projects", "/p2", "k"}, `1`}, {[]string{"projects", "/p3"}, ""}}},
		{"the first one removed beside it", projects, "projects", []op{{[]string{"projects", "/p2", "k"}, `1`}, {[]string{"projects", "/p1"}, ""}}},
		{"its own removal", pretty, "projects", []op{{[]string{"projects", "/p2", "k"}, `1`}, {[]string{"projects", "/p2"}, ""}}},
		{"an insertion after it", pretty, "projects", []op{{[]string{"projects", "/p3", "k"}, `1`}, {[]string{"projects", "/p4"}, `{"n":1}`}}},
		{"replaced whole", projects, "projects", []op{{[]string{"projects", "/p2", "k"}, `1`}, {[]string{"projects", "/p2"}, `[]`}}},
		{"one line", `{"projects": {"/p1": {}, "/p2": {"x": 1}}}`, "projects", []op{{[]string{"projects", "/p1", "k"}, `{"a":1}`}, {[]string{"projects", "/p9"}, `2`}}},
		{"duplicate names: the last one", `{"projects":{"/p":{"a":1},"/q":{},"/p":{"b":2}}}`, "projects", []op{{[]string{"projects", "/p", "k"}, `1`}, {[]string{"projects", "/q", "k"}, `2`}}},
		{"replaced before it is opened", `{"projects":{"/p":{"k":1}}}`, "projects", []op{{[]string{"projects"}, `{"/p":{"k":0,"j":9}}`}, {[]string{"projects", "/p", "k"}, `3`}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edit := func(d *Doc) (out [][]byte) {
				for _, o := range tc.ops {
					if o.value == "" {
						if _, err := d.Delete(o.path); err != nil {
							t.Fatal(err)
						}
					} else if err := d.Set(o.path, []byte(o.value)); err != nil && tc.name != "array value" {
						t.Fatal(err)
					}
					out = append(out, d.Bytes())
				}
				v, _ := d.Lookup(tc.open)
				return append(out, []byte(strings.Join(v.Keys(), ",")), d.Root().JSON())
			}
			a, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			b, err := ParseOpen([]byte(tc.in), tc.open)
			if err != nil {
				t.Fatal(err)
			}
			wa, wb := edit(a), edit(b)
			for i := range wa {
				if !bytes.Equal(wa[i], wb[i]) {
					t.Errorf("step %d: ParseOpen gives\n%s\nParse gives\n%s", i, wb[i], wa[i])
				}
			}
		})
	}
}

// spec: Q4
// TestParseOpenReadsOnce checks that opening the noted member does not scan its text
// again. A Doc refers to the bytes it parsed, so the test spoils them inside the
// member after parsing: a second scan would find the spoiled text (and stop, as
// parsed text must stay valid), while the noted members are used as they are.
func TestParseOpenReadsOnce(t *testing.T) {
	in := []byte(`{"a":0,"projects":{"/p1":{"h":["x","y"]},"/p2":{"mcpServers":{}}}}`)
	spoil := func(data []byte) { data[bytes.Index(data, []byte(`"x"`))] = '#' }
	open := func(parse func([]byte) (*Doc, error)) (keys []string, scanned bool) {
		data := bytes.Clone(in)
		d, err := parse(data)
		if err != nil {
			t.Fatal(err)
		}
		spoil(data)
		defer func() { scanned = recover() != nil }()
		d.Open("projects")
		v, _ := d.Lookup("projects")
		return v.Keys(), false
	}
	if keys, scanned := open(func(b []byte) (*Doc, error) { return ParseOpen(b, "projects") }); scanned || len(keys) != 2 {
		t.Errorf("ParseOpen then Open: keys %q, scanned again %v; want /p1 /p2 without a second scan", keys, scanned)
	}
	if _, scanned := open(Parse); !scanned {
		t.Errorf("Parse then Open did not scan the member again: the test proves nothing")
	}
}
