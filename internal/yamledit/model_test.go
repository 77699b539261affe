package yamledit

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// spec: W1
// TestChangeAllIsChangeOneByOne: the one-pass change of a run of ops on one sequence
// (changeAll) leaves the data change leaves, op after op, for random sequences with
// duplicate names, items without a name or with a non-string one, deletes, sets of
// present and absent names, and sequences that do not exist yet.
func TestChangeAllIsChangeOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		data := map[string]any{"other": 1}
		if rng.IntN(4) > 0 {
			var list []any
			for i := range rng.IntN(8) {
				switch rng.IntN(6) {
				case 0:
					list = append(list, map[string]any{"command": i}) // no name
				case 1:
					list = append(list, map[string]any{"name": i}) // not a string
				case 2:
					list = append(list, "plain")
				default:
					list = append(list, map[string]any{"name": fmt.Sprint("s", rng.IntN(5)), "i": i})
				}
			}
			data["servers"] = list
		}
		var ops []Op
		for range 1 + rng.IntN(6) {
			ops = append(ops, Op{Path: []string{"servers"}, Item: "name", Name: fmt.Sprint("s", rng.IntN(7)), Delete: rng.IntN(3) == 0})
		}
		ops = collapse(ops) // as Apply gives them: one op per name
		vals := make([]any, len(ops))
		for i, op := range ops {
			if !op.Delete {
				vals[i] = map[string]any{"name": op.Name, "v": i}
			}
		}
		want := clone(data).(map[string]any)
		for i, op := range ops {
			change(want, op, vals[i])
		}
		got := clone(data).(map[string]any)
		changeAll(got, ops, vals)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: ops %+v on %v:\n got  %v\n want %v", round, ops, data, got, want)
		}
	}
}

// spec: W1 Q4
// TestListChangesScaleLinearly: writing 8,000 servers into a sequence of 8,000
// (Continue's mcpServers) allocates at most 12 times the bytes that 1,000 into 1,000
// do: about 9 measured. Op after op, each copied the whole sequence: 2 s and gigabytes
// at 8,000 servers, 64 times the bytes for 8 times the servers. Bytes, unlike time,
// do not depend on the machine's load.
func TestListChangesScaleLinearly(t *testing.T) {
	run := func(n int) uint64 {
		list := make([]any, n)
		ops := make([]Op, n)
		vals := make([]any, n)
		for i := range n {
			name := fmt.Sprint("s", i)
			list[i] = map[string]any{"name": name, "old": true}
			ops[i] = Op{Path: []string{"mcpServers"}, Item: "name", Name: name}
			vals[i] = map[string]any{"name": name}
		}
		data := map[string]any{"mcpServers": list}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		changeAll(data, ops, vals)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := run(1000), run(8000)
	t.Logf("1,000 servers: %d bytes, 8,000: %d, ratio %.1f", small, large, float64(large)/float64(small))
	if large > 12*small {
		t.Errorf("8,000 servers allocated %d bytes, 1,000 allocated %d: more than 12 times", large, small)
	}
}

// TestGetCopiesOnlyTheEntry: looking up one entry of a container copies that entry,
// not the container: the same allocations for an entry of a mapping (Goose's
// extensions) or a sequence (Continue's mcpServers) of 10 or of 1,000 entries. Each
// lookup copied the whole container, so reading every entry was quadratic (issue 13).
func TestGetCopiesOnlyTheEntry(t *testing.T) {
	docOf := func(n int, list bool) *Doc {
		var b strings.Builder
		if list {
			b.WriteString("mcpServers:\n")
			for i := range n {
				fmt.Fprintf(&b, "  - name: s%d\n    command: srv\n    args: [--n, \"%d\"]\n", i, i)
			}
		} else {
			b.WriteString("extensions:\n")
			for i := range n {
				fmt.Fprintf(&b, "  s%d:\n    cmd: srv\n    args: [--n, \"%d\"]\n", i, i)
			}
		}
		d, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, list := range []bool{false, true} {
		path, item := []string{"extensions"}, ""
		if list {
			path, item = []string{"mcpServers"}, "name"
		}
		allocs := func(n int) float64 {
			d := docOf(n, list)
			return testing.AllocsPerRun(20, func() {
				if _, ok := d.Get(path, item, "s5"); !ok {
					t.Fatal("s5 not found")
				}
			})
		}
		small, large := allocs(10), allocs(1000)
		if large > small {
			t.Errorf("list %v: an entry of 1,000 took %.0f allocations, of 10 %.0f: the lookup copies more than the entry", list, large, small)
		}
	}
}
