package render

import (
	"errors"
	"os"
	"testing"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/bigbuf/bigbuftest"
)

// TestInParallelFaultOfMappedFile: entries read back on every processor may be
// slices of a mapped file (a large client file, internal/bigbuf); when another
// program cuts the file short meanwhile, the fault in a worker reaches the goroutine
// that waited for them as a *bigbuf.FaultError (cmd/mcpwire: "a file changed while
// mcpwire was reading it"), not a crash of the process.
func TestInParallelFaultOfMappedFile(t *testing.T) {
	const size = 4 << 20
	path, b := bigbuftest.MapFile(t, "big.json", make([]byte, size))
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	n := 4 * parallelFrom
	var sink [8]byte
	err := bigbuf.Guard(func() {
		inParallel(n, func(from, to int) {
			for i := from; i < to; i++ {
				sink[i%8] = b[i*(size/n)]
			}
		})
	})
	var fe *bigbuf.FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("inParallel over a mapped file cut short: %v (%v), want a *bigbuf.FaultError", err, sink)
	}
}
