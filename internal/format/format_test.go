package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// open opens src in format f (a file that exists unless src is empty) and its
// entries at c.
func open(t *testing.T, f Format, src []byte, c Container) (Document, Entries) {
	t.Helper()
	doc, err := Parse(f, "/f", src, len(src) > 0)
	if err != nil {
		t.Fatal(err)
	}
	es, err := doc.Entries(c)
	if err != nil {
		t.Fatal(err)
	}
	return doc, es
}

// edit opens src in format f, applies fn to the entries of c, and returns the file.
func edit(t *testing.T, f Format, src string, c Container, fn func(es Entries)) string {
	t.Helper()
	doc, es := open(t, f, []byte(src), c)
	fn(es)
	out, err := doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

var entry = Object{{Key: "command", Value: "x"}, {Key: "args", Value: []string{"a"}}, {Key: "env", Value: Object{{Key: "K", Value: "V"}}}}

func set(t *testing.T, name string) func(es Entries) {
	return func(es Entries) {
		if _, err := es.Set(name, entry); err != nil {
			t.Fatal(err)
		}
	}
}

// spec: V9 W1 (the containers a client may keep its servers in)
func TestContainers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		src    string
		c      Container
		want   string
	}{
		{"JSON map by name", JSON, "{\n  \"mcpServers\": {}\n}\n", Container{Path: []string{"mcpServers"}},
			"{\n  \"mcpServers\": {\n    \"s\": {\n      \"command\": \"x\",\n      \"args\": [\n        \"a\"\n      ],\n      \"env\": {\n        \"K\": \"V\"\n      }\n    }\n  }\n}\n"},
		{"JSON flat dotted key", JSON, "{\n  \"amp.mcpServers\": {}\n}\n", Container{Path: []string{"amp.mcpServers"}},
			"{\n  \"amp.mcpServers\": {\n    \"s\": {\n      \"command\": \"x\",\n      \"args\": [\n        \"a\"\n      ],\n      \"env\": {\n        \"K\": \"V\"\n      }\n    }\n  }\n}\n"},
		{"JSON nested key", JSON, "{\"projects\": {}}\n", Container{Path: []string{"projects", "/abs", "mcpServers"}},
			"{\"projects\": {\"/abs\": {\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"a\"], \"env\": {\"K\": \"V\"}}}}}}\n"},
		{"TOML map by name", TOML, "model = \"o3\"\n", Container{Path: []string{"mcp_servers"}},
			"model = \"o3\"\n\n[mcp_servers.s]\ncommand = \"x\"\nargs = [\"a\"]\nenv = { K = \"V\" }\n"},
		{"TOML list by name", TOML, "model = \"o3\"\n", Container{Path: []string{"mcp_servers"}, NameKey: "name"},
			"model = \"o3\"\n\n[[mcp_servers]]\nname = \"s\"\ncommand = \"x\"\nargs = [\"a\"]\nenv = { K = \"V\" }\n"},
		{"YAML map by name", YAML, "# mine\nmodel: o3\n", Container{Path: []string{"extensions"}},
			"# mine\nmodel: o3\nextensions:\n  s:\n    command: x\n    args:\n      - a\n    env:\n      K: V\n"},
		{"YAML list by name", YAML, "mcpServers: []  # none\n", Container{Path: []string{"mcpServers"}, NameKey: "name"},
			"mcpServers:  # none\n  - name: s\n    command: x\n    args:\n      - a\n    env:\n      K: V\n"},
		{"TOML framed", TOML, "", Container{Path: []string{"mcp_servers"}, Frame: &Frame{Start: "# >> ", End: "# << "}},
			"# >> s\n[mcp_servers.s]\ncommand = \"x\"\nargs = [\"a\"]\nenv = { K = \"V\" }\n# << s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := edit(t, tc.format, tc.src, tc.c, set(t, "s")); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestTOMLEntriesPending: TOML and YAML edits wait for Bytes, and the entries read as
// edited meanwhile.
func TestTOMLEntriesPending(t *testing.T) {
	for _, tc := range []struct {
		f   Format
		c   Container
		src string
	}{
		{TOML, Container{Path: []string{"mcp_servers"}}, "[mcp_servers.a]\ncommand = \"a\"\n\n[mcp_servers.b]\ncommand = \"b\"\n"},
		{TOML, Container{Path: []string{"mcp_servers"}, NameKey: "name"}, "[[mcp_servers]]\nname = \"a\"\ncommand = \"a\"\n\n[[mcp_servers]]\nname = \"b\"\ncommand = \"b\"\n"},
		{YAML, Container{Path: []string{"mcp_servers"}}, "mcp_servers:\n  a:\n    command: a\n  b:\n    command: b\n"},
		{YAML, Container{Path: []string{"mcp_servers"}, NameKey: "name"}, "mcp_servers:\n- name: a\n  command: a\n- name: b\n  command: b\n"},
	} {
		c := tc.c
		doc, es := open(t, tc.f, []byte(tc.src), c)
		a, _ := es.Get("a")
		d, err := es.Digest("c", entry)
		if err != nil {
			t.Fatal(err)
		}
		written, _ := es.Set("c", entry)
		if written != d || a.Digest() == d {
			t.Errorf("%v: digests: written %s, predicted %s, a %s", c, written, d, a.Digest())
		}
		if err := es.Delete("a"); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(es.Names(), ","); got != "b,c" {
			t.Errorf("%v: names %s, want b,c", c, got)
		}
		if _, ok := es.Get("a"); ok {
			t.Errorf("%v: a removed entry is still there", c)
		}
		if got, ok := es.Get("c"); !ok || got.Digest() != d {
			t.Errorf("%v: the new entry reads %v, %v", c, got, ok)
		}
		out, err := doc.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "command = \"a\"") || strings.Contains(string(out), "command: a") ||
			!strings.Contains(string(out), "command = \"x\"") && !strings.Contains(string(out), "command: x") {
			t.Errorf("%v: result %q", c, out)
		}
	}
}

func TestEntriesRefused(t *testing.T) {
	for _, tc := range []struct {
		format Format
		src    string
		c      Container
		want   string
	}{
		{JSON, "{\"mcpServers\": []}", Container{Path: []string{"mcpServers"}}, `/f: "mcpServers" must be an object, not an array`},
		{JSON, "{}", Container{Path: []string{"s"}, NameKey: "name"}, "cannot edit this kind of server list"},
		{TOML, "mcp_servers = 3\n", Container{Path: []string{"mcp_servers"}}, "/f: line 1: mcp_servers must be a table"},
		{TOML, "[mcp_servers.a]\n", Container{Path: []string{"mcp_servers"}, NameKey: "name"}, "must be an array of tables"},
		{YAML, "extensions: 3\n", Container{Path: []string{"extensions"}}, "/f: line 1: extensions must be a mapping, not a number"},
		{YAML, "mcpServers:\n  a: 1\n", Container{Path: []string{"mcpServers"}, NameKey: "name"}, "mcpServers must be a list, not a mapping"},
	} {
		doc, err := Parse(tc.format, "/f", []byte(tc.src), true)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := doc.Entries(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %q", tc.format, tc.src, err, tc.want)
		}
	}
}

// TestCarry: JSON carries any member as written; TOML only arrays of strings.
func TestCarry(t *testing.T) {
	j, _ := Parse(JSON, "/f", []byte(`{"s": {"t": ["a", 1]}}`), true)
	v, _ := j.Lookup("s", "t")
	if c, ok := v.Carry(); !ok || fmt.Sprint(c) != fmt.Sprint(json.RawMessage(`["a",1]`)) {
		t.Errorf("JSON carry = %v, %v", c, ok)
	}
	tm, _ := Parse(TOML, "/f", []byte("[s.x]\nt = [\"a\", \"b\"]\nu = [1]\n"), true)
	v, _ = tm.Lookup("s", "x", "t")
	if c, ok := v.Carry(); !ok || !slices.Equal(c.([]string), []string{"a", "b"}) {
		t.Errorf("TOML carry of strings = %v, %v", c, ok)
	}
	v, _ = tm.Lookup("s", "x", "u")
	if c, ok := v.Carry(); ok {
		t.Errorf("TOML carry of numbers = %v", c)
	}
}

// TestJSONGetScansTheContainerOnce: looking up an entry of a JSON servers object does
// not scan the object's text again: the same allocations for an entry of 10 servers
// or of 1,000, at the top level (mcpServers) or nested (Claude Code's local scope).
// Every lookup listed the container's members anew, so reading every entry of it was
// quadratic (issue 13).
func TestJSONGetScansTheContainerOnce(t *testing.T) {
	for _, path := range [][]string{{"mcpServers"}, {"projects", "/p", "mcpServers"}} {
		allocs := func(n int) float64 {
			var b strings.Builder
			for i := range n {
				if i > 0 {
					b.WriteString(",\n")
				}
				fmt.Fprintf(&b, "    \"s%d\": {\"command\": \"srv\", \"args\": [\"--n\", \"%d\"]}", i, i)
			}
			src := "{\"mcpServers\": {\n" + b.String() + "\n}}\n"
			if len(path) > 1 {
				src = "{\"projects\": {\"/p\": {\"mcpServers\": {\n" + b.String() + "\n}}}}\n"
			}
			doc, err := Parse(JSON, "/f", []byte(src), true)
			if err != nil {
				t.Fatal(err)
			}
			es, err := doc.Entries(Container{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			return testing.AllocsPerRun(20, func() {
				if _, ok := es.Get("s5"); !ok {
					t.Fatal("s5 not found")
				}
			})
		}
		if small, large := allocs(10), allocs(1000); large > small {
			t.Errorf("%q: an entry of 1,000 took %.0f allocations, of 10 %.0f", path, large, small)
		}
	}
}

// TestTOMLDigestIsTheWrittenEntrys: the digest a TOML entry is predicted to have is the
// digest of that entry read back from the file written, in each layout (a table per
// name, an array of tables keyed by name, framed tables), and predicting it decodes
// the rendered block without splitting it into statements (126–140 objects for two
// predictions; a full parse of each block took 169–211).
//
// spec: C6 V9
func TestTOMLDigestIsTheWrittenEntrys(t *testing.T) {
	other := Object{{Key: "command", Value: "y"}, {Key: "env", Value: Object{{Key: "A", Value: "1"}, {Key: "B", Value: "2"}}}}
	for _, c := range []Container{
		{Path: []string{"mcp_servers"}},
		{Path: []string{"mcp_servers"}, NameKey: "name"},
		{Path: []string{"mcp_servers"}, Frame: &Frame{Start: "# >> ", End: "# << "}},
	} {
		doc, es := open(t, TOML, []byte("model = \"o3\"\n"), c)
		predicted := map[string]string{}
		for name, e := range map[string]Object{"s": entry, "t": other} {
			var err error
			if predicted[name], err = es.Digest(name, e); err != nil {
				t.Fatal(err)
			}
			if _, err := es.Set(name, e); err != nil {
				t.Fatal(err)
			}
		}
		out, err := doc.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		_, bes := open(t, TOML, out, c)
		for name, want := range predicted {
			got, ok := bes.Get(name)
			if !ok || got.Digest() != want {
				t.Errorf("%v: %s read back (%v) has digest %v, predicted %s", c, name, ok, got, want)
			}
		}
		n := testing.AllocsPerRun(50, func() {
			_, _ = es.Digest("s", entry)
			_, _ = es.Digest("t", other)
		})
		t.Logf("%v: %v objects per two predictions", c, n)
		if n > 160 {
			t.Errorf("%v: predicting two digests allocates %v objects, want at most 160", c, n)
		}
	}
}

// spec: K7
// TestJSONAllIsNamesAndGet: All, one pass over a JSON servers object, lists it as
// Names and Get do, a name written twice included (each time with its last entry, as
// Get gives it).
func TestJSONAllIsNamesAndGet(t *testing.T) {
	for _, src := range []string{
		`{"mcpServers": {}}`,
		`{"mcpServers": {"a": {"command": "x"}, "b": {"url": "u"}, "a": {"command": "y"}}}`,
		`{"projects": {"/p": {"mcpServers": {"s\u0031": {"command": "x"}, "s2": 1}}}}`,
	} {
		doc, err := Parse(JSON, "/f", []byte(src), true)
		if err != nil {
			t.Fatal(err)
		}
		path := []string{"mcpServers"}
		if strings.Contains(src, "projects") {
			path = []string{"projects", "/p", "mcpServers"}
		}
		es, err := doc.Entries(Container{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		names, entries := es.(Lister).All()
		if want := es.Names(); !slices.Equal(names, want) {
			t.Errorf("%s: names %q, want %q", src, names, want)
		}
		for i, n := range names {
			want, _ := es.Get(n)
			if got := entries[i]; string(got.JSON()) != string(want.JSON()) || !bytes.Equal(got.Text(), want.Text()) {
				t.Errorf("%s: %s: %s, want %s", src, n, got.JSON(), want.JSON())
			}
		}
	}
}

// TestRepeated: a name written twice is found among many, and hashes alone (the same
// hash for two names is possible) never make two names one.
func TestRepeated(t *testing.T) {
	var names []string
	for i := range 5000 {
		names = append(names, fmt.Sprintf("s%d", i))
	}
	if repeated(names) || repeated(nil) || repeated([]string{"a"}) {
		t.Errorf("distinct names taken as repeated")
	}
	if !repeated(append(slices.Clone(names), "s4321")) || !repeated([]string{"", ""}) {
		t.Errorf("a repeated name not found")
	}
}
