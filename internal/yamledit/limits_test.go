package yamledit

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/limits"
)

// allocated is how many bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// bomb is a "billion laughs" document of n levels, each a list of nine aliases of the
// level before: 9^n nodes once expanded, in n lines.
func bomb(n int) string {
	var b strings.Builder
	b.WriteString("extensions:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < n; i++ {
		a := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, "  a%d: &a%d [%s]\n", i, i, strings.Repeat(a+",", 8)+a)
	}
	return b.String()
}

// spec: K1 K3
// TestLimits: an alias bomb in a committed Continue or Goose file, and nesting deeper
// than mcpwire reads in every way YAML has, are refused with a *limits.Error giving
// the line, at a cost of a few MB; what stays within the limits is read.
func TestLimits(t *testing.T) {
	deep := 100_000
	for _, tc := range []struct {
		name, src, want string
	}{
		{"alias bomb", bomb(10), "refused: YAML alias expansion over mcpwire's limit of 100000 nodes (line 3)"},
		{"alias bomb, merge keys", "a: &a {k0: 1, k1: 1}\n" + mergeBomb(40), "refused: YAML alias expansion over mcpwire's limit of 100000 nodes"},
		{"flow sequences", "a: " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n", "nesting depth"},
		{"flow mappings", "a: " + strings.Repeat("{b: ", 9000) + "1" + strings.Repeat("}", 9000) + "\n", "refused: nesting depth over mcpwire's limit of 1000 levels (line 1)"},
		{"block sequences on one line", "a: \n  " + strings.Repeat("- ", deep) + "x\n", "nesting depth"},
		{"block mappings", blockNest(1200), "refused: nesting depth over mcpwire's limit of 1000 levels"},
		{"aliases deepen", "a: &a " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\nb: &b [" + strings.Repeat("*a, ", 3) + "*a]\nc: " + strings.Repeat("[", 500) + "*b" + strings.Repeat("]", 500) + "\n", "refused: nesting depth over mcpwire's limit of 1000 levels"},
	} {
		src := []byte(tc.src)
		var err error
		n := allocated(func() { _, err = Parse(src) })
		var le *limits.Error
		if !errors.As(err, &le) || !errors.Is(err, limits.ErrRefused) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a *limits.Error %q", tc.name, err, tc.want)
		}
		t.Logf("%s: %d KB", tc.name, n>>10)
		if n > 8<<20 {
			t.Errorf("%s: refusing took %d MB", tc.name, n>>20)
		}
	}
	for _, src := range []string{bomb(4), blockNest(limits.Depth - 2), "a: &a {x: 1}\nb:\n  <<: *a\n  y: 2\n"} {
		if _, err := Parse([]byte(src)); err != nil {
			t.Errorf("%.40q: %v", src, err)
		}
	}
}

// blockNest is a block mapping n levels deep, one key per line.
func blockNest(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "v: 1\n")
	return b.String()
}

// mergeBomb is n mappings each merging the one before twice over: 2^n keys once
// expanded.
func mergeBomb(n int) string {
	var b strings.Builder
	prev := "a"
	for i := range n {
		fmt.Fprintf(&b, "m%d: &m%d\n  <<: [*%s, *%s]\n  x%d: 1\n", i, i, prev, prev, i)
		prev = fmt.Sprintf("m%d", i)
	}
	return b.String()
}

// spec: K7
// TestGetIsLinear: getting each of n entries of a list (Continue's mcpServers) looks at
// O(n) entries in all, not n².
func TestGetIsLinear(t *testing.T) {
	for _, n := range []int{1000, 8000} {
		var b strings.Builder
		b.WriteString("mcpServers:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - name: s%d\n    command: x\n", i)
		}
		d, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		steps = &count
		for i := range n {
			if _, ok := d.Get([]string{"mcpServers"}, "name", fmt.Sprint("s", i)); !ok {
				t.Fatalf("s%d not found", i)
			}
		}
		steps = nil
		if count > 2*n {
			t.Errorf("getting %d entries looked at %d", n, count)
		}
	}
}
