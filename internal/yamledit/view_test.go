package yamledit

import (
	"reflect"
	"strings"
	"testing"
)

// spec: K7
// TestViewIsGetUnchangedByEdits: View gives what Get gives, without the copy, and an
// edit of the document (of that entry, of another, of its list) leaves a value it
// gave as it was: status reads each entry through View, a write may follow.
func TestViewIsGetUnchangedByEdits(t *testing.T) {
	src := "ext:\n  a:\n    cmd: x\n    args: [p, q]\n    envs: {K: v}\n  b:\n    cmd: y\nlist:\n  - name: n\n    cmd: z\n    args: [r]\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		path       []string
		item, name string
	}
	views := []view{{[]string{"ext"}, "", "a"}, {[]string{"ext"}, "", "b"}, {[]string{"list"}, "name", "n"}}
	var seen, copies []any
	for _, v := range views {
		view, ok := d.View(v.path, v.item, v.name)
		got := view.Data()
		want, ok2 := d.Get(v.path, v.item, v.name)
		if !ok || !ok2 || !reflect.DeepEqual(got, want) {
			t.Fatalf("%v: View %v %v, Get %v %v", v, got, ok, want, ok2)
		}
		seen, copies = append(seen, got), append(copies, want)
	}
	if _, ok := d.View([]string{"ext"}, "", "zz"); ok {
		t.Error("View of a missing entry")
	}
	ops := []Op{
		{Path: []string{"ext"}, Name: "a", Value: Map{{"cmd", "changed"}, {"args", []string{"1"}}}},
		{Path: []string{"ext"}, Name: "b", Delete: true},
		{Path: []string{"list"}, Item: "name", Name: "n", Value: Map{{"cmd", "w"}}},
		{Path: []string{"list"}, Item: "name", Name: "m", Value: Map{{"cmd", "v"}}},
	}
	if err := d.Apply(ops); err != nil {
		t.Fatal(err)
	}
	for i := range views {
		if !reflect.DeepEqual(seen[i], copies[i]) {
			t.Errorf("%v: viewed value changed by an edit to %v", views[i], seen[i])
		}
	}
}

// A key written twice in a mapping is refused naming both lines, found without a map
// of every key's line.
func TestDuplicateKeyLines(t *testing.T) {
	for src, want := range map[string]string{
		"a: 1\nb: 2\na: 3\n":                              `line 3: mapping key "a" already defined at line 1`,
		"ext:\n  x: {}\n  y: {}\n  y: {}\n":               `line 4: mapping key "y" already defined at line 3`,
		"base: &b {k: 1}\nm:\n  <<: *b\n  k: 2\n  k: 3\n": `line 5: mapping key "k" already defined at line 4`,
	} {
		_, err := Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %s", src, err, want)
		}
	}
}

// spec: K7
// TestAllIsViewFromTheTree: All lists what Names and View give, and reading the
// entries of a plain container (a mapping, a list of mappings) with their JSON builds
// no data of the document; a container with an alias or a merge key is read from the
// data, with the same values.
func TestAllIsViewFromTheTree(t *testing.T) {
	for _, tc := range []struct {
		src       string
		path      []string
		item      string
		fromTree  bool
		wantNames []string
	}{
		{"ext:\n  a: {cmd: x, args: [p], envs: {K: v}, n: 3, on: true, z: ~}\n  b:\n    cmd: y\n", []string{"ext"}, "", true, []string{"a", "b"}},
		{"list:\n  - name: n\n    cmd: z\n  - uses: hub/x\n  - name: m\n    args: [r, \"caf\\u00e9 <&>\"]\n", []string{"list"}, "name", true, []string{"n", "m"}},
		{"base: &b {cmd: x}\next:\n  a: *b\n  c:\n    <<: *b\n    name: c\n", []string{"ext"}, "", true, []string{"a", "c"}},
		{"list:\n  - &e {name: n, cmd: z}\n  - <<: *e\n    name: m\n", []string{"list"}, "name", false, []string{"n", "m"}},
		{"b: &b {x: {cmd: q}}\next:\n  <<: *b\n  a: {cmd: y}\n", []string{"ext"}, "", true, []string{"a"}},
	} {
		d, err := Parse([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		names, vals := d.All(tc.path, tc.item)
		if !reflect.DeepEqual(names, tc.wantNames) || !reflect.DeepEqual(names, d.Names(tc.path, tc.item)) {
			t.Fatalf("%q: All names %q, Names %q", tc.src, names, d.Names(tc.path, tc.item))
		}
		for _, v := range vals {
			v.AppendJSON(nil)
		}
		if built := d.data.v != nil; built == tc.fromTree {
			t.Errorf("%q: data built %v", tc.src, built)
		}
		for i, name := range names {
			view, ok := d.View(tc.path, tc.item, name)
			want, _ := d.Lookup(tc.path...)
			if !ok || !reflect.DeepEqual(vals[i].Data(), view.Data()) || !inData(want, tc.item, name, view.Data()) {
				t.Errorf("%q: %s: All %v, View %v, data %v", tc.src, name, vals[i].Data(), view.Data(), want)
			}
		}
	}
}

// inData reports whether container (decoded data) holds v as the entry of a name.
func inData(container any, item, name string, v any) bool {
	if item == "" {
		m, _ := container.(map[string]any)
		return reflect.DeepEqual(m[name], v)
	}
	list, _ := container.([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok && m[item] == name {
			return reflect.DeepEqual(e, v)
		}
	}
	return false
}
