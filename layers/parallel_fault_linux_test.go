package layers

import (
	"errors"
	"os"
	"testing"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/bigbuf/bigbuftest"
)

// TestParallelFaultOfMappedFile: a large layer file is mapped (internal/bigbuf);
// when another program cuts it short while the layers are loaded on every
// processor, the fault in a worker reaches the goroutine that waited for them as a
// *bigbuf.FaultError, not a crash of the process.
func TestParallelFaultOfMappedFile(t *testing.T) {
	const size = 4 << 20
	path, b := bigbuftest.MapFile(t, "mcp-servers.json", make([]byte, size))
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	var sink [16]byte
	err := bigbuf.Guard(func() {
		Parallel(16, func(i int) { sink[i] = b[i*(size/16)] })
	})
	var fe *bigbuf.FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("Parallel over a mapped file cut short: %v (%v), want a *bigbuf.FaultError", err, sink)
	}
}
