package jsonc

import (
	"fmt"
	"strings"
	"testing"
)

// SetMembers gives the document a Set of each member in turn gives: new members at
// the end in the object's layout, existing ones replaced in place, the object and
// the objects on the way created when missing; unchanged leaves a member as it is.
func TestSetMembersIsSetInTurn(t *testing.T) {
	docs := []string{
		"{}",
		`{"servers": {}}`,
		`{"servers": {"a": {"command": "x"}, "b": 1}}`,
		lines(`{`, `  // servers`, `  "servers": {`, `    "a": {"command": "x"}, // a`, `    "b": 1,`, `  },`, `  "x": 2`, `}`),
		lines(`{`, `  "servers": {`, `    // nothing yet`, `  }`, `}`),
		"{\r\n  \"servers\": {\r\n    \"a\": 1\r\n  }\r\n}\r\n",
	}
	names := []string{"c", "a", "d\"q", "b"}
	values := [][]byte{[]byte(`{"command": "y", "args": ["1"]}`), []byte(`{"command":"x"}`), []byte(`"<v>"`), []byte(`[1, 2]`)}
	for _, src := range docs {
		for _, path := range [][]string{{"servers"}, {"top", "servers"}, nil} {
			want, err := Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range names {
				if err := want.Set(append(append([]string(nil), path...), n), values[i]); err != nil {
					t.Fatal(err)
				}
			}
			got, _ := Parse([]byte(src))
			if err := got.SetMembers(path, names, values, nil); err != nil {
				t.Fatal(err)
			}
			if string(got.Bytes()) != string(want.Bytes()) {
				t.Errorf("%q at %q:\n%s\nSet in turn:\n%s", src, path, got.Bytes(), want.Bytes())
			}
			checkReparse(t, string(got.Bytes()))
		}
	}
	// unchanged: a member it says holds the value already is left as it is
	d, _ := Parse([]byte(`{"servers": {"a": {"command" : "x"}}}`))
	same := func(cur, value []byte) bool { return strings.Contains(string(cur), `"x"`) }
	if err := d.SetMembers([]string{"servers"}, []string{"a"}, [][]byte{[]byte(`{"command":"z","x":1}`)}, same); err != nil {
		t.Fatal(err)
	}
	if got := string(d.Bytes()); got != `{"servers": {"a": {"command" : "x"}}}` {
		t.Errorf("unchanged: %s", got)
	}
}

// SetMembers changes nothing when a value is not JSON, the names and values differ
// in number, or a value on the way is not an object.
func TestSetMembersRefuses(t *testing.T) {
	src := `{"servers": {"a": 1}, "list": []}`
	for _, c := range []struct {
		path   []string
		names  []string
		values []string
	}{
		{[]string{"servers"}, []string{"b", "c"}, []string{"1", "{"}},
		{[]string{"servers"}, []string{"b"}, []string{"1", "2"}},
		{[]string{"list"}, []string{"b"}, []string{"1"}},
		{[]string{"servers", "a"}, []string{"b"}, []string{"1"}},
	} {
		d, _ := Parse([]byte(src))
		var values [][]byte
		for _, v := range c.values {
			values = append(values, []byte(v))
		}
		if err := d.SetMembers(c.path, c.names, values, nil); err == nil {
			t.Errorf("%q %q %q: no error", c.path, c.names, c.values)
		}
		if got := string(d.Bytes()); got != src {
			t.Errorf("%q: changed to %s", c.path, got)
		}
	}
}

// spec: K7
// SetMembers of n new members into an object of n looks at O(n) members in all: the
// object is indexed once, with room for the new members.
func TestSetMembersIsLinear(t *testing.T) {
	for _, n := range []int{1000, 8000} {
		var b strings.Builder
		b.WriteString("{\n  \"servers\": {")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n    \"s%d\": {\"command\": \"x\"}", i)
		}
		b.WriteString("\n  }\n}\n")
		d, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		var values [][]byte
		for i := range n {
			names = append(names, fmt.Sprint("t", i))
			values = append(values, []byte(`{"command":"y"}`))
		}
		count := 0
		steps = &count
		err = d.SetMembers([]string{"servers"}, names, values, nil)
		steps = nil
		if err != nil {
			t.Fatal(err)
		}
		if count > 4*n {
			t.Errorf("%d members set into an object of %d looked at %d members", n, n, count)
		}
		if _, ok := d.Lookup("servers", fmt.Sprint("t", n-1)); !ok {
			t.Errorf("t%d not set", n-1)
		}
	}
}
