package jsonc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// tree decodes v by walking it with Members and Elements, into the values
// encoding/json gives (duplicates: the last wins, as there).
func tree(t *testing.T, v Value) any {
	t.Helper()
	switch v.Kind() {
	case Object:
		m := map[string]any{}
		for name, c := range v.Members() {
			m[name] = tree(t, c)
		}
		return m
	case Array:
		out := []any{}
		for c := range v.Elements() {
			out = append(out, tree(t, c))
		}
		return out
	}
	var x any
	if err := json.Unmarshal(v.JSON(), &x); err != nil {
		t.Fatalf("%s: %v", v.JSON(), err)
	}
	return x
}

func TestMembersAndElements(t *testing.T) {
	docs := []string{
		claudeMCP,
		`{}`, `[]`, `[ /* c */ ]`, `{ // c
}`, `"s"`, `1`,
		`[1, [2, []], {"a": [3,]}, "x" /* c */ , null,]`,
		`{"a": 1, "a": 2, "b": {"c": {}}, "d" /* c */ : /* c */ [ {"e": "f"} ] , }`,
	}
	for _, doc := range docs {
		d, err := Parse([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		var want any
		if err := json.Unmarshal(d.Root().JSON(), &want); err != nil {
			t.Fatal(err)
		}
		if got := tree(t, d.Root()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %#v\nwant %#v", doc, got, want)
		}
	}
}

// Members keeps duplicates, in order, on raw and materialised objects alike;
// breaking off a range stops the walk.
func TestMembersOrderAndBreak(t *testing.T) {
	d, err := Parse([]byte(`{"x": {"a": 1, "b": 2, "a": 3}, "y": [1, 2, 3]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Value{d.Root()} {
		var names []string
		for name := range v.Members() {
			names = append(names, name)
		}
		if strings.Join(names, ",") != "x,y" {
			t.Errorf("root names %q", names)
		}
	}
	x, _ := d.Lookup("x")
	var got []string
	for name, c := range x.Members() {
		got = append(got, name+"="+string(c.JSON()))
		if len(got) == 2 {
			break
		}
	}
	if strings.Join(got, ",") != "a=1,b=2" {
		t.Errorf("x = %q", got)
	}
	y, _ := d.Lookup("y")
	n := 0
	for range y.Elements() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break: %d", n)
	}
	for range y.Members() {
		t.Error("an array has members")
	}
	for range x.Elements() {
		t.Error("an object has elements")
	}
	if err := d.Set([]string{"x", "c"}, []byte(`4`)); err != nil {
		t.Fatal(err)
	}
	x, _ = d.Lookup("x")
	got = nil
	for name, c := range x.Members() {
		got = append(got, name+"="+string(c.JSON()))
	}
	if strings.Join(got, ",") != "a=1,b=2,a=3,c=4" {
		t.Errorf("edited x = %q", got)
	}
}

// Walking a document allocates only the member names.
func TestMembersAllocations(t *testing.T) {
	d, err := Parse([]byte(`{"a": {"bee": [1, {"cee": "d"}, [2, 3]], "eee": "f"}}`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := d.Lookup("a")
	var walk func(v Value) int
	walk = func(v Value) int {
		n := 1
		for _, c := range v.Members() {
			n += walk(c)
		}
		for c := range v.Elements() {
			n += walk(c)
		}
		return n
	}
	if allocs := testing.AllocsPerRun(100, func() { walk(a) }); allocs > 3 {
		t.Errorf("%v allocations, want at most 3 (the names bee, cee, eee)", allocs)
	}
}

// Equal compares the text of two values, raw or edited, without copying them.
func TestEqual(t *testing.T) {
	parse := func(s string) *Doc {
		d, err := Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := parse(`{"x": {"a": 1}, "y": [1, 2] /* c */}`)
	b := parse(`{"x": {"a": 1}, "y": [1,2] /* c */}`)
	ax, _ := a.Lookup("x")
	bx, _ := b.Lookup("x")
	ay, _ := a.Lookup("y")
	by, _ := b.Lookup("y")
	if !ax.Equal(bx) || ay.Equal(by) || ax.Equal(ay) || a.Root().Equal(b.Root()) || !a.Root().Equal(parse(`{"x": {"a": 1}, "y": [1, 2] /* c */}`).Root()) {
		t.Error("raw and root values")
	}
	if (Value{}).Equal(ax) || !(Value{}).Equal(Value{}) {
		t.Error("zero values")
	}
	if err := b.Set([]string{"y"}, []byte(`[1, 2, 3]`)); err != nil {
		t.Fatal(err)
	}
	if !b.Root().Equal(parse(string(b.Bytes())).Root()) || a.Root().Equal(b.Root()) {
		t.Errorf("after the edit: %s", b.Bytes())
	}
	if err := b.Set([]string{"x", "b"}, []byte(`2`)); err != nil {
		t.Fatal(err)
	}
	bx, _ = b.Lookup("x")
	if ax.Equal(bx) || bx.Equal(ax) || a.Root().Equal(b.Root()) {
		t.Error("an edited object equals the old one")
	}
}
