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
		got, ok := d.View(v.path, v.item, v.name)
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
