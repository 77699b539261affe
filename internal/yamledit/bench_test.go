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

// gooseFile is a Goose config.yaml of about size bytes: extensions keyed by name.
func gooseFile(size int) []byte {
	var src strings.Builder
	src.WriteString("# config\nGOOSE_MODE: auto\nextensions:\n")
	for i := 0; src.Len() < size; i++ {
		fmt.Fprintf(&src, "  own%d:\n    type: stdio\n    name: own%d\n    enabled: true\n    timeout: 300\n    cmd: x\n    args: [\"-y\", \"pkg\"]\n    envs: {}\n", i, i)
	}
	return []byte(src.String())
}

// BenchmarkParseGoose parses a 1.5 MB Goose file (SPEC K7: a read of it under
// 200 ms; goccy/go-yaml took 5 s and 730 MB).
func BenchmarkParseGoose(b *testing.B) {
	src := gooseFile(1500 << 10)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseGooseYAMLv3 is yaml.v3's own parse of the file BenchmarkParseGoose
// reads, whole on one core: the floor of reading it (K7).
func BenchmarkParseGooseYAMLv3(b *testing.B) {
	src := gooseFile(1500 << 10)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := parseWhole(src); err != nil {
			b.Fatal(err)
		}
	}
}
