package jsonc

import (
	"errors"
	"strings"
	"testing"
)

// lines joins its arguments with "\n" and adds a final newline, to write
// expected files readably.
func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

const server = `{"command":"npx","args":["-y","pkg"]}`

var testdataSet = []struct {
	name  string
	in    string
	path  []string
	value string
	want  string
}{{
	name:  "into empty root",
	in:    "{}",
	path:  []string{"mcpServers", "x"},
	value: server,
	want: `{
  "mcpServers": {
    "x": {
      "command": "npx",
      "args": [
        "-y",
        "pkg"
      ]
    }
  }
}`,
}, {
	name:  "into empty root with newline",
	in:    "{\n}\n",
	path:  []string{"a"},
	value: `1`,
	want:  "{\n  \"a\": 1\n}\n",
}, {
	name:  "into empty nested object",
	in:    lines(`{`, `  "theme": "dark",`, `  "mcpServers": {}`, `}`),
	path:  []string{"mcpServers", "x"},
	value: `{"url":"https://x"}`,
	want:  lines(`{`, `  "theme": "dark",`, `  "mcpServers": {`, `    "x": {`, `      "url": "https://x"`, `    }`, `  }`, `}`),
}, {
	name:  "nested missing parents",
	in:    lines(`{`, `  "a": 1`, `}`),
	path:  []string{"x", "y", "z"},
	value: `true`,
	want:  lines(`{`, `  "a": 1,`, `  "x": {`, `    "y": {`, `      "z": true`, `    }`, `  }`, `}`),
}, {
	name: "replace keeps comments around",
	in: lines(
		`{`,
		`  // servers`,
		`  "mcpServers": {`,
		`    // about x`,
		`    "x": {"command": "old"}, // x is old`,
		`    /* y */ "y": 2`,
		`  } // end`,
		`}`),
	path:  []string{"mcpServers", "x"},
	value: `{"command":"new"}`,
	want: lines(
		`{`,
		`  // servers`,
		`  "mcpServers": {`,
		`    // about x`,
		`    "x": {`,
		`      "command": "new"`,
		`    }, // x is old`,
		`    /* y */ "y": 2`,
		`  } // end`,
		`}`),
}, {
	name:  "replace same value keeps bytes",
	in:    lines(`{`, `  "x": {"command": /* c */ "npx", "args": ["-y", "pkg",],}, // same`, `}`),
	path:  []string{"x"},
	value: server,
	want:  lines(`{`, `  "x": {"command": /* c */ "npx", "args": ["-y", "pkg",],}, // same`, `}`),
}, {
	name:  "replace scalar with object",
	in:    lines(`{`, `  "a": 1,`, `  "b": 2`, `}`),
	path:  []string{"a"},
	value: `{"k":[]}`,
	want:  lines(`{`, `  "a": {`, `    "k": []`, `  },`, `  "b": 2`, `}`),
}, {
	name:  "append after trailing comment",
	in:    lines(`{`, `  "a": 1 // one`, `}`),
	path:  []string{"b"},
	value: `2`,
	want:  lines(`{`, `  "a": 1, // one`, `  "b": 2`, `}`),
}, {
	name:  "append keeps trailing comma style",
	in:    lines(`{`, `  "a": 1,`, `}`),
	path:  []string{"b"},
	value: `2`,
	want:  lines(`{`, `  "a": 1,`, `  "b": 2,`, `}`),
}, {
	name:  "append keeps comments at the end",
	in:    lines(`{`, `  "a": 1,`, `  // "old": 0,`, `}`),
	path:  []string{"b"},
	value: `2`,
	want:  lines(`{`, `  "a": 1,`, `  "b": 2,`, `  // "old": 0,`, `}`),
}, {
	name:  "empty object holding a comment",
	in:    lines(`{`, `  "s": {`, `    // none yet`, `  }`, `}`),
	path:  []string{"s", "x"},
	value: `1`,
	want:  lines(`{`, `  "s": {`, `    // none yet`, `    "x": 1`, `  }`, `}`),
}, {
	name:  "crlf",
	in:    "{\r\n  \"a\": 1\r\n}\r\n",
	path:  []string{"s", "x"},
	value: `{"k":"v"}`,
	want:  "{\r\n  \"a\": 1,\r\n  \"s\": {\r\n    \"x\": {\r\n      \"k\": \"v\"\r\n    }\r\n  }\r\n}\r\n",
}, {
	name:  "crlf empty object",
	in:    "{\r\n  \"s\": {\r\n  }\r\n}\r\n",
	path:  []string{"s", "x"},
	value: `1`,
	want:  "{\r\n  \"s\": {\r\n    \"x\": 1\r\n  }\r\n}\r\n",
}, {
	name:  "tabs",
	in:    "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}",
	path:  []string{"a", "c"},
	value: `[1,2]`,
	want:  "{\n\t\"a\": {\n\t\t\"b\": 1,\n\t\t\"c\": [\n\t\t\t1,\n\t\t\t2\n\t\t]\n\t}\n}",
}, {
	name:  "four spaces",
	in:    lines(`{`, `    "a": {}`, `}`),
	path:  []string{"a", "x"},
	value: `{"k":1}`,
	want:  lines(`{`, `    "a": {`, `        "x": {`, `            "k": 1`, `        }`, `    }`, `}`),
}, {
	name:  "compact one line",
	in:    `{"a":1}`,
	path:  []string{"b", "c"},
	value: `{"d": [1, 2]}`,
	want:  `{"a":1,"b":{"c":{"d":[1,2]}}}`,
}, {
	name:  "one line with spaces",
	in:    `{ "a": 1 }`,
	path:  []string{"b"},
	value: `2`,
	want:  `{ "a": 1, "b": 2 }`,
}, {
	name:  "one line empty nested",
	in:    `{"a":1,"s":{}}`,
	path:  []string{"s", "x"},
	value: `2`,
	want:  `{"a":1,"s":{"x": 2}}`,
}, {
	name:  "value keeps key order and html",
	in:    "{}",
	path:  []string{"x"},
	value: `{"z":"<a&b>","a":"\u00e9"}`,
	want:  "{\n  \"x\": {\n    \"z\": \"<a&b>\",\n    \"a\": \"\\u00e9\"\n  }\n}",
}, {
	name:  "duplicate names use the last",
	in:    lines(`{`, `  "a": {"x": 1},`, `  "a": {"y": 2}`, `}`),
	path:  []string{"a", "z"},
	value: `3`,
	want:  lines(`{`, `  "a": {"x": 1},`, `  "a": {"y": 2, "z": 3}`, `}`),
}, {
	name:  "key needing escapes",
	in:    "{}",
	path:  []string{"a\"b\\c\n</>"},
	value: `1`,
	want:  "{\n  \"a\\\"b\\\\c\\n</>\": 1\n}",
}, {
	name:  "escaped key matches",
	in:    `{"\u0061": 1}`,
	path:  []string{"a"},
	value: `2`,
	want:  `{"\u0061": 2}`,
}, {
	name:  "comments around the root",
	in:    "// settings\n{\n  \"a\": 1\n} // end\n",
	path:  []string{"b"},
	value: `"x"`,
	want:  "// settings\n{\n  \"a\": 1,\n  \"b\": \"x\"\n} // end\n",
}, {
	name:  "indented root",
	in:    "  {\n    \"a\": {}\n  }",
	path:  []string{"a", "b"},
	value: `1`,
	want:  "  {\n    \"a\": {\n      \"b\": 1\n    }\n  }",
}, {
	name:  "colon style of siblings",
	in:    lines(`{`, `  "a" : 1`, `}`),
	path:  []string{"b"},
	value: `2`,
	want:  lines(`{`, `  "a" : 1,`, `  "b" : 2`, `}`),
}, {
	name:  "one line object ending in a line comment",
	in:    "{\"a\": 1 // c\n}",
	path:  []string{"b"},
	value: `2`,
	want:  "{\"a\": 1, // c\n\"b\": 2\n}",
}}

func TestSet(t *testing.T) {
	for _, tt := range testdataSet {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if err := d.Set(tt.path, []byte(tt.value)); err != nil {
				t.Fatalf("Set: %v", err)
			}
			got := string(d.Bytes())
			if got != tt.want {
				t.Errorf("Set(%q, %s):\ngot:\n%s\nwant:\n%s", tt.path, tt.value, got, tt.want)
			}
			checkReparse(t, got)
		})
	}
}

var testdataDelete = []struct {
	name string
	in   string
	path []string
	want string
	ok   bool
}{{
	name: "first with comments",
	in:   lines(`{`, `  // about a`, `  "a": 1, // one`, `  "b": 2`, `}`),
	path: []string{"a"},
	want: lines(`{`, `  "b": 2`, `}`),
	ok:   true,
}, {
	name: "middle with comments",
	in:   lines(`{`, `  "a": 1,`, `  // about b`, `  // more about b`, `  "b": 2, // two`, `  "c": 3`, `}`),
	path: []string{"b"},
	want: lines(`{`, `  "a": 1,`, `  "c": 3`, `}`),
	ok:   true,
}, {
	name: "last with comments",
	in:   lines(`{`, `  "a": 1, // one`, `  /* about b */`, `  "b": 2 // two`, `}`),
	path: []string{"b"},
	want: lines(`{`, `  "a": 1 // one`, `}`),
	ok:   true,
}, {
	name: "last with trailing comma style",
	in:   lines(`{`, `  "a": 1,`, `  "b": 2,`, `}`),
	path: []string{"b"},
	want: lines(`{`, `  "a": 1,`, `}`),
	ok:   true,
}, {
	name: "only member",
	in:   lines(`{`, `  "s": {`, `    // about x`, `    "x": {"command": "a"} // x`, `  }`, `}`),
	path: []string{"s", "x"},
	want: lines(`{`, `  "s": {}`, `}`),
	ok:   true,
}, {
	name: "only member of root",
	in:   "{\n  \"a\": 1\n}\n",
	path: []string{"a"},
	want: "{}\n",
	ok:   true,
}, {
	name: "comment separated by a blank line stays",
	in:   lines(`{`, `  "a": 1,`, `  // section`, ``, `  "b": 2,`, `  "c": 3`, `}`),
	path: []string{"b"},
	want: lines(`{`, `  "a": 1,`, `  // section`, ``, `  "c": 3`, `}`),
	ok:   true,
}, {
	name: "blank line before a deleted first member's successor",
	in:   lines(`{`, `  "a": 1,`, ``, `  "b": 2`, `}`),
	path: []string{"a"},
	want: lines(`{`, `  "b": 2`, `}`),
	ok:   true,
}, {
	name: "blank line kept between remaining members",
	in:   lines(`{`, `  "a": 1,`, ``, `  "b": 2,`, `  "c": 3`, `}`),
	path: []string{"b"},
	want: lines(`{`, `  "a": 1,`, ``, `  "c": 3`, `}`),
	ok:   true,
}, {
	name: "comment left in an emptied object",
	in:   lines(`{`, `  "a": 1,`, `  // keep me`, `}`),
	path: []string{"a"},
	want: lines(`{`, `  // keep me`, `}`),
	ok:   true,
}, {
	name: "compact first",
	in:   `{"a":1,"b":2}`,
	path: []string{"a"},
	want: `{"b":2}`,
	ok:   true,
}, {
	name: "compact last",
	in:   `{ "a": 1, "b": 2 }`,
	path: []string{"b"},
	want: `{ "a": 1 }`,
	ok:   true,
}, {
	name: "compact only",
	in:   `{"s":{"x":1}}`,
	path: []string{"s", "x"},
	want: `{"s":{}}`,
	ok:   true,
}, {
	name: "crlf",
	in:   "{\r\n  // a\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}\r\n",
	path: []string{"b"},
	want: "{\r\n  // a\r\n  \"a\": 1\r\n}\r\n",
	ok:   true,
}, {
	name: "duplicates are all removed",
	in:   lines(`{`, `  "a": 1,`, `  "b": 2,`, `  "a": 3`, `}`),
	path: []string{"a"},
	want: lines(`{`, `  "b": 2`, `}`),
	ok:   true,
}, {
	name: "absent",
	in:   `{"a":1}`,
	path: []string{"b"},
	want: `{"a":1}`,
}, {
	name: "absent parent",
	in:   `{"a":1}`,
	path: []string{"b", "c"},
	want: `{"a":1}`,
}, {
	name: "brace line comment stays",
	in:   lines(`{ // settings`, `  "a": 1,`, `  "b": 2`, `}`),
	path: []string{"a"},
	want: lines(`{ // settings`, `  "b": 2`, `}`),
	ok:   true,
}, {
	name: "line comment on the brace line stays on its line",
	in:   "{ // c\n \"a\": 1, \"b\": 2}",
	path: []string{"a"},
	want: "{ // c\n \"b\": 2}",
	ok:   true,
}, {
	name: "line comment after the new last member",
	in:   "{\"a\": 1, // c\n \"b\": 2}",
	path: []string{"b"},
	want: "{\"a\": 1 // c\n}",
	ok:   true,
}, {
	name: "line comment in an emptied object",
	in:   "{\"s\":{//\n\"x\":{}}}",
	path: []string{"s", "x"},
	want: "{\"s\":{//\n}}",
	ok:   true,
}}

func TestDelete(t *testing.T) {
	for _, tt := range testdataDelete {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			ok, err := d.Delete(tt.path)
			if err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if ok != tt.ok {
				t.Errorf("Delete(%q) = %v, want %v", tt.path, ok, tt.ok)
			}
			got := string(d.Bytes())
			if got != tt.want {
				t.Errorf("Delete(%q):\ngot:\n%s\nwant:\n%s", tt.path, got, tt.want)
			}
			checkReparse(t, got)
		})
	}
}

func TestEditErrors(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		path    []string
		value   string // "" means Delete
		want    string
		notObj  bool
		deleted bool
	}{
		{name: "set under scalar", in: `{"mcpServers": 3}`, path: []string{"mcpServers", "x"}, value: `1`, want: `"mcpServers" must be an object, not a number`, notObj: true},
		{name: "set under array", in: `{"a": {"b": []}}`, path: []string{"a", "b", "c"}, value: `1`, want: `"a"."b" must be an object, not an array`, notObj: true},
		{name: "set quotes names", in: `{"a/b~": 1}`, path: []string{"a/b~", "c"}, value: `1`, want: `"a/b~" must be an object, not a number`, notObj: true},
		{name: "set on array root", in: `[1]`, path: []string{"a"}, value: `1`, want: "the top level must be an object, not an array", notObj: true},
		{name: "set on string root", in: `"s"`, path: []string{"a"}, value: `1`, want: "the top level must be an object, not a string", notObj: true},
		{name: "delete under scalar", in: `{"a": "s"}`, path: []string{"a", "b"}, want: `"a" must be an object, not a string`, notObj: true},
		{name: "delete on array root", in: `[]`, path: []string{"a"}, want: "the top level must be an object, not an array", notObj: true},
		{name: "invalid value", in: `{}`, path: []string{"a"}, value: `{a:1}`, want: "invalid JSON value"},
		{name: "value with comment", in: `{}`, path: []string{"a"}, value: `1 // c`, want: "invalid JSON value"},
		{name: "empty set path", in: `{}`, path: nil, value: `1`, want: "empty path"},
		{name: "empty delete path", in: `{}`, path: nil, want: "empty path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.in))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if tt.value != "" {
				err = d.Set(tt.path, []byte(tt.value))
			} else {
				_, err = d.Delete(tt.path)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
			if got := errors.Is(err, ErrNotObject); got != tt.notObj {
				t.Errorf("errors.Is(err, ErrNotObject) = %v, want %v", got, tt.notObj)
			}
			if got := string(d.Bytes()); got != tt.in {
				t.Errorf("document changed after error: %s", got)
			}
		})
	}
}

// TestSeveralEdits checks edits that build on each other.
func TestSeveralEdits(t *testing.T) {
	in := lines(
		`{`,
		`  // my settings`,
		`  "theme": "dark", // keep`,
		`  "mcpServers": {`,
		`    "old": {"command": "x"},`,
		`  },`,
		`}`)
	d, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		del   bool
		path  []string
		value string
	}{
		{path: []string{"mcpServers", "a"}, value: `{"command":"a"}`},
		{path: []string{"mcpServers", "b"}, value: `{"url":"u"}`},
		{path: []string{"mcpServers", "a", "args"}, value: `["1"]`},
		{del: true, path: []string{"mcpServers", "old"}},
		{path: []string{"new", "x"}, value: `1`},
		{path: []string{"new", "y"}, value: `2`},
		{del: true, path: []string{"new", "x"}},
		{path: []string{"theme"}, value: `"light"`},
	}
	for _, s := range steps {
		if s.del {
			if _, err := d.Delete(s.path); err != nil {
				t.Fatal(err)
			}
		} else if err := d.Set(s.path, []byte(s.value)); err != nil {
			t.Fatal(err)
		}
	}
	want := lines(
		`{`,
		`  // my settings`,
		`  "theme": "light", // keep`,
		`  "mcpServers": {`,
		`    "a": {`,
		`      "command": "a",`,
		`      "args": [`,
		`        "1"`,
		`      ]`,
		`    },`,
		`    "b": {`,
		`      "url": "u"`,
		`    },`,
		`  },`,
		`  "new": {`,
		`    "y": 2`,
		`  },`,
		`}`)
	got := string(d.Bytes())
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if v, ok := d.Lookup("mcpServers", "a", "args"); !ok || string(v.JSON()) != `["1"]` {
		t.Errorf("Lookup after edits = %s, %v", v.JSON(), ok)
	}
	checkReparse(t, got)
}

// checkReparse fails if an edited document does not parse.
func checkReparse(t *testing.T, doc string) {
	t.Helper()
	if _, err := Parse([]byte(doc)); err != nil {
		t.Errorf("edited document does not parse: %v\n%s", err, doc)
	}
}
