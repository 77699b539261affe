package redact

import (
	"runtime/debug"
	"testing"
)

// spec: R8
// TestCollectSooner: learning from a large file (a dry run of a 50 MB
// ~/.claude.json) lowers the collector's growth target to 25% for the time it takes,
// and puts back what it was; a small file changes nothing.
func TestCollectSooner(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	for _, c := range []struct {
		size, want int
	}{{bigInput - 1, 100}, {bigInput, 25}, {50 << 20, 25}} {
		restore := collectSooner(c.size)
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
