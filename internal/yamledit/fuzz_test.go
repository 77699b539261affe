package yamledit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/limits"
	yaml "go.yaml.in/yaml/v3"
)

// seeds are real-looking files (the client fixtures) and small layouts.
func seeds(tb testing.TB) [][]byte {
	tb.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "files", "*", "*.yaml"))
	if len(paths) == 0 {
		tb.Fatal("no seed files")
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	for _, s := range []string{"", "# c\n", "ext:\n", "ext: {}\n", "a: 1", "ext:\n  a: 1\n  b:\n    c: [1,\n      2]\n# t\n",
		"ext:\r\n  a: 1\r\n", "ext:\n- name: x\n  v: 1\n", "\xef\xbb\xbfext:\n  a: |\n    x\n    # y\nz: 1\n",
		"a: &x 1\next:\n  b: *x\n", "ext:\n    deep:\n        k: v\n", "mcpServers:\n  - name: s\n  - uses: h\n"} {
		out = append(out, []byte(s))
	}
	return out
}

// decode is the oracle: the YAML library's own decoding, normalized.
func decode(t *testing.T, b []byte) any {
	var v any
	if err := yaml.Unmarshal(bytes.TrimPrefix(b, utf8BOM), &v); err != nil {
		t.Fatalf("the result does not parse: %v\n%s", err, b)
	}
	if v == nil {
		return map[string]any{}
	}
	return normalize(v)
}

// FuzzApply: for any document the editor accepts and any entry, an edit that succeeds
// gives valid YAML whose data is the original's with exactly that entry changed, and
// removing the entry from the original and from the result gives the same bytes (every
// byte outside the entry is kept). Both a mapping and a list container are tried.
//
// spec: W1 W2 V9
func FuzzApply(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s, "ext", "s", "value", false)
		f.Add(s, "mcpServers", "SQLite MCP", "on", true)
		f.Add(s, "extensions", "developer", "a: b", false)
	}
	f.Fuzz(func(t *testing.T, src []byte, key, name, val string, list bool) {
		d, err := Parse(src)
		if err != nil {
			return
		}
		item := ""
		if list {
			item = "name"
		}
		path := []string{key}
		before := d.Bytes()
		op := Op{Path: path, Item: item, Name: name, Value: Map{{"command", val}, {"args", []string{val, name}}, {"env", Map{{val, name}}}}}
		if err := d.Apply([]Op{op}); err != nil {
			if !bytes.Equal(d.Bytes(), before) {
				t.Fatalf("a refused edit changed the document")
			}
			return
		}
		got := d.Bytes()
		want := clone(decode(t, before)).(map[string]any)
		v, err := fromValue(op.Value)
		if list {
			v, err = fromValue(withName(op))
		}
		if err != nil {
			t.Fatal(err)
		}
		change(want, op, v)
		if g := decode(t, got); !equal(g, want) {
			t.Fatalf("data differs:\n got  %v\n want %v\n%s", g, want, got)
		}
		// every byte outside the entry is kept
		orig, _ := Parse(before)
		others := len(orig.Names(path, item))
		if _, had := orig.Get(path, item, name); had {
			others--
		}
		if others == 0 {
			return // a created or emptied container: its key line changes too
		}
		rm := Op{Path: path, Item: item, Name: name, Delete: true}
		if err := orig.Apply([]Op{rm}); err != nil {
			t.Fatalf("removing from the original: %v", err)
		}
		res, _ := Parse(got)
		if err := res.Apply([]Op{rm}); err != nil {
			t.Fatalf("removing from the result: %v", err)
		}
		if !bytes.Equal(orig.Bytes(), res.Bytes()) {
			t.Fatalf("bytes outside the entry changed:\n--- original:\n%s\n--- result:\n%s", orig.Bytes(), res.Bytes())
		}
	})
}

// FuzzScalar: any string is written so that it reads back as itself, or refused.
//
// spec: W1 V9
func FuzzScalar(f *testing.F) {
	for _, s := range []string{"on", "1.0", "null", "yes", "a: b", "a #b", "", " x", "\t", "${{ secrets.A }}", "\u2028", "- x", "? y", "%x", "@a", "!t", "&a", "*b", "|", ">"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, _ := Parse([]byte("a: 1\n"))
		if err := d.Apply([]Op{{Name: s, Value: Map{{s, []string{s}}}}}); err != nil {
			return
		}
		m := decode(t, d.Bytes()).(map[string]any)
		inner, ok := m[s].(map[string]any)
		if !ok {
			t.Fatalf("%q: %v", s, m)
		}
		if l, ok := inner[s].([]any); !ok || len(l) != 1 || l[0] != s {
			t.Fatalf("%q read back as %v", s, inner)
		}
	})
}

// FuzzParse: whatever the input, Parse allocates at most a bounded multiple of its
// size (a few MB for what a refusal costs, K3); what it accepts has the data the YAML
// library itself decodes; what goes past a limit is a *limits.Error.
//
// spec: K1 K3
func FuzzParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	for _, s := range []string{bomb(4), "a: " + strings.Repeat("[", 50) + strings.Repeat("]", 50), "a: &x [1]\nb: [*x, *x]\nc:\n  <<: {d: 1}\n",
		"a: &x {b: 1}\nc:\n  <<: [*x, {b: 2, e: 3}]\n  f: 4\n", "? [a]\n: 1\n", "a: !!binary aGVsbG8=\nt: 2001-12-14\n", "1: a\n\"1\": b\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var d *Doc
		var err error
		n := allocated(func() { d, err = Parse(src) })
		if limit := 1<<20 + 400*uint64(len(src)); n > limit {
			t.Fatalf("Parse of %d bytes allocated %d bytes", len(src), n)
		}
		checkDataAsBuilt(t, src, err)
		var le *limits.Error
		if err != nil {
			if errors.As(err, &le) && !errors.Is(err, limits.ErrRefused) {
				t.Fatal("a limit error that is not ErrRefused")
			}
			return
		}
		var v any
		if yaml.Unmarshal(bytes.TrimPrefix(src, utf8BOM), &v) != nil {
			return // the library refuses what mcpwire reads (its own alias ratio): mcpwire's data is checked elsewhere
		}
		want := map[string]any{}
		if v != nil {
			m, ok := normalize(v).(map[string]any)
			if !ok {
				t.Fatalf("accepted a top level that is not a mapping: %q", src)
			}
			want = m
		}
		if got := d.data.get(); !equal(got, want) {
			t.Fatalf("data of %q:\n got  %v\n want %v", src, got, want)
		}
		if d.root != nil {
			checkJSON(t, src, d.root)
		}
	})
}

// checkDataAsBuilt: Parse, which checks a tree's data without building it
// (checkData), refuses exactly what building it refuses, with the same error (err is
// Parse's); a document it accepts builds without an error.
func checkDataAsBuilt(t *testing.T, src []byte, err error) {
	t.Helper()
	root, perr := parseTree(bytes.TrimPrefix(src, utf8BOM))
	if perr != nil || root == nil || checkTree(root, limits.AliasNodes, limits.Depth) != nil {
		return
	}
	_, berr := mapping(root)
	switch {
	case berr == nil && err != nil:
		t.Fatalf("%q: refused (%v), but its data builds", src, err)
	case berr != nil && (err == nil || err.Error() != berr.Error()):
		t.Fatalf("%q: Parse says %v, building its data %v", src, err, berr)
	}
}

// checkJSON: every node whose JSON is written from the tree (appendJSON) writes what
// json.Marshal writes of its data.
func checkJSON(t *testing.T, src []byte, n *yaml.Node) {
	t.Helper()
	if b, ok := appendJSON(nil, n); ok {
		v, err := toValue(n)
		if err != nil {
			t.Fatalf("%q: line %d: %v", src, n.Line, err)
		}
		if want, _ := json.Marshal(v); !bytes.Equal(b, want) {
			t.Fatalf("%q: line %d: JSON %s, want %s", src, n.Line, b, want)
		}
	}
	if n.Kind != yaml.AliasNode {
		for _, c := range n.Content {
			checkJSON(t, src, c)
		}
	}
}
