package yamledit

import (
	"strings"
	"testing"
)

var entry = Map{{"cmd", "x"}, {"args", []string{"a", "--b"}}, {"envs", Map{}}}

const entryText = "    cmd: x\n    args:\n      - a\n      - --b\n    envs: {}\n"

func apply(t *testing.T, src string, ops ...Op) (string, error) {
	t.Helper()
	d, err := Parse([]byte(src))
	if err != nil {
		return "", err
	}
	err = d.Apply(ops)
	return string(d.Bytes()), err
}

// editCase is a source, its edits and the result.
type editCase struct {
	name, src string
	ops       []Op
	want      string
}

func runEdits(t *testing.T, cases []editCase) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := apply(t, tc.src, tc.ops...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

func set(name string) Op { return Op{Path: []string{"ext"}, Name: name, Value: entry} }
func del(name string) Op { return Op{Path: []string{"ext"}, Name: name, Delete: true} }

// spec: V9 W1 — entries of a mapping by name are added, replaced and removed, and
// every other byte stays.
func TestMapEdits(t *testing.T) {
	runEdits(t, []editCase{
		{"new file", "", []Op{set("s")}, "ext:\n  s:\n" + entryText},
		{"comments only", "# c\n", []Op{set("s")}, "# c\next:\n  s:\n" + entryText},
		{"no final newline, and none after", "a: 1", []Op{set("s")}, "a: 1\next:\n  s:\n" + strings.TrimSuffix(entryText, "\n")},
		{"empty key", "ext:\nb: 2\n", []Op{set("s")}, "ext:\n  s:\n" + entryText + "b: 2\n"},
		{"null", "ext: null # none\n", []Op{set("s")}, "ext: # none\n  s:\n" + entryText},
		{"empty flow", "ext: {}  # none yet\nb: 2\n", []Op{set("s")}, "ext:  # none yet\n  s:\n" + entryText + "b: 2\n"},
		{"empty root", "{}\n", []Op{set("s")}, "ext:\n  s:\n" + entryText},
		{"appended after the last, before the comments after it",
			"ext:\n  a:\n    k: 1 # mine\n\n# tail\nb: 1\n", []Op{set("s")},
			"ext:\n  a:\n    k: 1 # mine\n  s:\n" + entryText + "\n# tail\nb: 1\n"},
		{"replaced in place, comments of the next kept",
			"ext:\n  s:\n    old: 1\n    # inside\n    more: [1,\n      2]\n  # about t\n  t: 1\n", []Op{set("s")},
			"ext:\n  s:\n" + entryText + "  # about t\n  t: 1\n"},
		{"the last replaced at the end of a file without a final newline", "ext:\n  s: 1", []Op{set("s")},
			"ext:\n  s:\n" + strings.TrimSuffix(entryText, "\n")},
		{"removed", "ext:\n  a: 1\n  s:\n    x: 1\n  b: 2\n", []Op{del("s")}, "ext:\n  a: 1\n  b: 2\n"},
		{"the last removed leaves an empty mapping", "ext: # c\n  s:\n    x: 1\nz: 1\n", []Op{del("s")}, "ext: {} # c\nz: 1\n"},
		{"removing what is not there", "ext:\n  a: 1\n", []Op{del("s")}, "ext:\n  a: 1\n"},
		{"set then removed", "ext:\n  a: 1\n", []Op{set("s"), del("s")}, "ext:\n  a: 1\n"},
		{"four-space indentation", "ext:\n    a:\n        k: 1\n", []Op{set("s")},
			"ext:\n    a:\n        k: 1\n    s:\n        cmd: x\n        args:\n            - a\n            - --b\n        envs: {}\n"},
		{"CRLF", "a: 1\r\next:\r\n  b: 2\r\n", []Op{set("s")}, "a: 1\r\next:\r\n  b: 2\r\n  s:\r\n" + strings.ReplaceAll(entryText, "\n", "\r\n")},
		{"nested path created", "a: 1\n", []Op{{Path: []string{"p", "/abs"}, Name: "s", Value: 1}}, "a: 1\np:\n  /abs:\n    s: 1\n"},
		{"document member", "# h\next:\n  a: 1\n", []Op{{Name: "name", Value: "mcpwire"}, set("s")},
			"# h\next:\n  a: 1\n  s:\n" + entryText + "name: mcpwire\n"},
	})
}

func item(name string, v Map) Op {
	return Op{Path: []string{"mcpServers"}, Item: "name", Name: name, Value: v}
}

// spec: V9 W1 — entries of a list named by a member: Continue's mcpServers, with a hub
// block (no name) kept.
func TestListEdits(t *testing.T) {
	e := Map{{"command", "x"}, {"name", "ignored: the op names it"}}
	runEdits(t, []editCase{
		{"new", "", []Op{item("s", e)}, "mcpServers:\n  - name: s\n    command: x\n"},
		{"empty flow", "mcpServers: []\n", []Op{item("s", e)}, "mcpServers:\n  - name: s\n    command: x\n"},
		{"appended after a hub block", "mcpServers:\n  - name: a\n    command: y\n  - uses: hub/x\n# c\nz: 1\n", []Op{item("s", e)},
			"mcpServers:\n  - name: a\n    command: y\n  - uses: hub/x\n  - name: s\n    command: x\n# c\nz: 1\n"},
		{"replaced, compact style", "mcpServers:\n- name: s\n  command: old\n- name: b\n  command: y\nz: 1\n", []Op{item("s", e)},
			"mcpServers:\n- name: s\n  command: x\n- name: b\n  command: y\nz: 1\n"},
		{"removed", "mcpServers:\n  - name: s\n    command: x\n  - uses: hub/x\n", []Op{{Path: []string{"mcpServers"}, Item: "name", Name: "s", Delete: true}},
			"mcpServers:\n  - uses: hub/x\n"},
		{"the last removed", "mcpServers:\n  - name: s\n    command: x\n", []Op{{Path: []string{"mcpServers"}, Item: "name", Name: "s", Delete: true}},
			"mcpServers: []\n"},
	})
}

// spec: W2 V9 — files and layouts mcpwire will not edit are refused with the line,
// and the document is left as it was.
func TestRefused(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a: 1\n---\nb: 2\n", "several YAML documents"},
		{"- a\n", "top level must be a mapping, not a list"},
		{"just text\n", "top level must be a mapping"},
		{"a:\n\tb: 1\n", "line 2: found character that cannot start any token"},
		{"a: 1\na: 2\n", "already defined"},
		{"ext: {a: 1}\n", "line 1: ext is written in flow style"},
		{"ext: 3\n", "line 1: ext must be a mapping, not a number"},
		{"ext:\n  - a\n", "ext must be a mapping, not a list"},
		{"ext:\n  a: &x {b: 1}\nc: *x\n", "line 2: ext uses a YAML anchor"},
		{"base: &b {x: 1}\next:\n  <<: *b\n", "ext uses a YAML anchor, alias or merge key"},
		{"ext: *x\n", ""},
	} {
		d, err := Parse([]byte(tc.src))
		if err == nil {
			err = d.Apply([]Op{set("s")})
			if err == nil {
				t.Errorf("%q: edited:\n%s", tc.src, d.Bytes())
				continue
			}
			if string(d.Bytes()) != tc.src {
				t.Errorf("%q: changed after a refusal", tc.src)
			}
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"mcpServers:\n  - name: a\n  - name: a\n", "line 3: mcpServers has two entries named \"a\""},
		{"mcpServers:\n  - x\n", "entry 1 of mcpServers must be a mapping, not a string"},
		{"mcpServers: {}\n", "mcpServers must be a list, not a mapping"},
	} {
		d, err := Parse([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Check([]string{"mcpServers"}, "name"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// spec: W1 — a byte order mark is kept, and a plain-looking string that another YAML
// version reads as something else is quoted.
func TestScalars(t *testing.T) {
	got, err := apply(t, "\xef\xbb\xbfa: 1\n", Op{Name: "b", Value: 2})
	if err != nil || got != "\xef\xbb\xbfa: 1\nb: 2\n" {
		t.Errorf("BOM: %q, %v", got, err)
	}
	for s, want := range map[string]string{
		"on": `"on"`, "yes": `"yes"`, "N": `"N"`, "null": `"null"`, "~": `"~"`, "1.0": `"1.0"`, "1e3": `"1e3"`,
		"0x10": `"0x10"`, "-1": `"-1"`, ".5": `".5"`, "a: b": `"a: b"`, "a #b": `"a #b"`, "-": `"-"`, "": `""`,
		" lead": `" lead"`, "x\ny": `"x\ny"`, "${{ secrets.K }}": `"${{ secrets.K }}"`, "日本": `"日本"`,
		"npx": "npx", "--stdio": "--stdio", "@scope/pkg@1": `"@scope/pkg@1"`, "https://h/x?a=b": "https://h/x?a=b",
		"--- x": `"--- x"`, "a,b": `"a,b"`, "key:": `"key:"`, "'q'": `"'q'"`,
	} {
		got, err := apply(t, "", Op{Name: "k", Value: s})
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if got != "k: "+want+"\n" {
			t.Errorf("%q written %q, want %q", s, got, "k: "+want+"\n")
		}
	}
}

// spec: W1 — in a file that does not end with a line break, an entry added at the end
// and removed again gives back the file byte for byte.
func TestUnterminatedRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		src  string
		path []string
		item string
	}{
		{"ext:\n  b: 2", []string{"ext"}, ""},
		{"8:\n 0:", []string{"8"}, ""},
		{"a: 1\r\next:\r\n  b: 2", []string{"ext"}, ""},
		{"mcpServers:\n  - name: a\n    command: x", []string{"mcpServers"}, "name"},
	} {
		added, err := apply(t, tc.src, Op{Path: tc.path, Item: tc.item, Name: "s", Value: entry})
		if err != nil || strings.HasSuffix(added, "\n") {
			t.Errorf("%q: %q, %v", tc.src, added, err)
			continue
		}
		back, err := apply(t, added, Op{Path: tc.path, Item: tc.item, Name: "s", Delete: true})
		if err != nil || back != tc.src {
			t.Errorf("%q: back %q, %v", tc.src, back, err)
		}
	}
}
