package yamledit

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkApply20 adds 20 entries to a Goose-like file that holds n of its own, in
// one batch (parse, splice, re-parse and compare).
func BenchmarkApply20(b *testing.B) {
	for _, n := range []int{10, 1000} {
		var src strings.Builder
		src.WriteString("# config\nGOOSE_MODE: auto\nextensions:\n")
		for i := range n {
			fmt.Fprintf(&src, "  own%d:\n    type: stdio\n    name: own%d\n    cmd: x\n    args: [\"-y\", \"pkg\"]\n    envs: {}\n", i, i)
		}
		var ops []Op
		for i := range 20 {
			ops = append(ops, Op{Path: []string{"extensions"}, Name: fmt.Sprintf("s%d", i), Value: entry})
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				d, err := Parse([]byte(src.String()))
				if err != nil {
					b.Fatal(err)
				}
				if err := d.Apply(ops); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
