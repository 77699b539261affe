package jsonc

import (
	"fmt"
	"runtime"
	"testing"
)

// spec: K7
// TestSetMembersAllocations bounds what SetMembers allocates for each member it adds,
// in an object written a member a line and in one written on one line (an import
// adds 200,000 to the registry file): each value is checked and laid out in one pass
// into one new slice (json.Valid, then json.Indent or json.Compact into a buffer,
// copied out: 7 allocations and 1,250 bytes a member on its own line, 4 and 681 on
// one line), the members are grown once, and the text between members is shared.
func TestSetMembersAllocations(t *testing.T) {
	const n = 8000
	for _, c := range []struct {
		layout       string
		allocs, size float64
	}{{"lines", 4.5, 500}, {"one line", 3.5, 320}} {
		layout := c.layout
		src := `{"servers": {"s": {"command": "x"}}}`
		if layout == "lines" {
			src = "{\n  \"servers\": {\n    \"s\": {\"command\": \"x\"}\n  }\n}\n"
		}
		d, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		var values [][]byte
		for i := range n {
			names = append(names, fmt.Sprint("t", i))
			values = append(values, []byte(`{"name":"t","command":"y","args":["-y","p"],"env":{"A":"1"}}`))
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := d.SetMembers([]string{"servers"}, names, values, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		per := float64(after.Mallocs-before.Mallocs) / n
		bytes := float64(after.TotalAlloc-before.TotalAlloc) / n
		t.Logf("%s: %.2f allocations, %.0f bytes per member", layout, per, bytes)
		if per > c.allocs || bytes > c.size {
			t.Errorf("%s: %.2f allocations and %.0f bytes per member, at most %v and %v", layout, per, bytes, c.allocs, c.size)
		}
	}
}
