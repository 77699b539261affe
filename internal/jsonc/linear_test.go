package jsonc

import (
	"fmt"
	"strings"
	"testing"
)

// spec: K7
// TestLookupsAndInsertionsAreLinear: looking up each of n members of an object, and
// inserting n members into an object written on one line, look at O(n) members in
// all — an opened object indexes its members by name and remembers its layout — not n²
// (40,000 entries took status 12 s, import 60 s).
func TestLookupsAndInsertionsAreLinear(t *testing.T) {
	for _, n := range []int{1000, 8000} {
		var b strings.Builder
		b.WriteString(`{"mcpServers": {`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"s%d": {"command": "x"}`, i)
		}
		b.WriteString("}}")
		d, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		d.Open("mcpServers") // as format's adapter does before reading entries
		count := 0
		steps = &count
		for i := range n {
			if _, ok := d.Lookup("mcpServers", fmt.Sprint("s", i)); !ok {
				t.Fatalf("s%d not found", i)
			}
		}
		for i := range n {
			if err := d.Set([]string{"mcpServers", fmt.Sprint("t", i)}, []byte(`{"command":"y"}`)); err != nil {
				t.Fatal(err)
			}
		}
		steps = nil
		if count > 8*n {
			t.Errorf("%d look-ups and %d insertions into an object of %d members looked at %d members", n, n, n, count)
		}
		if _, ok := d.Lookup("mcpServers", "t7"); !ok || !strings.Contains(string(d.Bytes()), `, "t7": {"command": "y"}`) {
			t.Errorf("insertions: %.200s", d.Bytes())
		}
	}
}
