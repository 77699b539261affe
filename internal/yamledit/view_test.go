package yamledit

import (
	"reflect"
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
