package redact

import (
	"runtime/debug"
	"testing"
)

// spec: R8
// TestCollectSooner: learning from a large file (a dry run of a 50 MB
// ~/.claude.json) lowers the collector's growth target to 25% for the time it takes,
// and puts back what it was; a small file changes nothing, and neither does a large
// one while the heap holds more than twice as much besides (K7: an import's dry run).
func TestCollectSooner(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	for _, c := range []struct {
		size, want int
		live       uint64
	}{{bigInput - 1, 100, 0}, {bigInput, 25, 0}, {50 << 20, 25, 0}, {50 << 20, 25, 100 << 20},
		{31 << 20, 25, 62 << 20}, {31 << 20, 100, 62<<20 + 1}, {31 << 20, 100, 200 << 20}} {
		restore := collectSoonerAt(c.size, c.live)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("size %d: GC percent %d while learning, want %d", c.size, got, c.want)
		}
		debug.SetGCPercent(c.want)
		restore()
		if got := debug.SetGCPercent(100); got != 100 {
			t.Errorf("size %d: GC percent %d after, want 100 back", c.size, got)
		}
	}
}
