package jsonc

import (
	"bytes"
	"testing"
)

// spec: W1 Q4
// TestParseOpen checks that a document read by ParseOpen edits exactly as one read by
// Parse, whether or not the named member could be noted, and after it was replaced.
func TestParseOpen(t *testing.T) {
	cases := []struct {
		name, in, open string
		path           []string
		value          string
		replaceFirst   bool
	}{
		{"project in the middle", `{"a":1,"projects":{"/p1":{"x":1},"/p2":{"mcpServers":{}},"/p3":{}},"z":[]}`, "projects", []string{"projects", "/p2", "mcpServers", "gh"}, `{"command":"gh"}`, false},
		{"comments and trailing commas", "{\n  // c\n  \"projects\": {\n    \"/p\": { /* in */ \"k\": true, },\n  },\n}", "projects", []string{"projects", "/p", "mcpServers"}, `{}`, false},
		{"new project", `{"projects":{"/a":{}}}`, "projects", []string{"projects", "/b", "mcpServers", "s"}, `1`, false},
		{"empty object", `{"projects":{}}`, "projects", []string{"projects", "/b"}, `{}`, false},
		{"escaped name is not noted", `{"pro\u006aects":{"/p":{}}}`, "projects", []string{"projects", "/p", "k"}, `2`, false},
		{"array value", `{"projects":[{"a":1}]}`, "projects", []string{"projects", "x"}, `1`, false},
		{"replaced before it is opened", `{"projects":{"/p":{"k":1}}}`, "projects", []string{"projects", "/p", "k"}, `3`, true},
		{"other member named", `{"projects":{"/p":{}},"other":{"q":1}}`, "other", []string{"projects", "/p", "k"}, `4`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edit := func(d *Doc) []byte {
				if tc.replaceFirst {
					if err := d.Set([]string{tc.path[0]}, []byte(`{"/p":{"k":0,"j":9}}`)); err != nil {
						t.Fatal(err)
					}
				}
				d.Open(tc.path[:len(tc.path)-1]...)
				if err := d.Set(tc.path, []byte(tc.value)); err != nil && tc.name != "array value" {
					t.Fatal(err)
				}
				return d.Bytes()
			}
			a, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			b, err := ParseOpen([]byte(tc.in), tc.open)
			if err != nil {
				t.Fatal(err)
			}
			if wa, wb := edit(a), edit(b); !bytes.Equal(wa, wb) {
				t.Errorf("ParseOpen edit:\n%s\nParse edit:\n%s", wb, wa)
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
