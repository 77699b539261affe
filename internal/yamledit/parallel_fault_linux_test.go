package yamledit

import (
	"errors"
	"os"
	"testing"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/bigbuf/bigbuftest"
)

// TestParallelParseFaultOfMappedFile: a large YAML file is mapped
// (internal/bigbuf), and its pieces are parsed on other goroutines; when another
// program cuts the file short meanwhile, the fault in a piece's goroutine reaches
// the one that parses (a *bigbuf.FaultError, for cmd/mcpwire's Run: "a file changed
// while mcpwire was reading it"), not a crash of the process.
//
// spec: K7
func TestParallelParseFaultOfMappedFile(t *testing.T) {
	withParallel(t, 256<<10, 2)
	path, b := bigbuftest.MapFile(t, "config.yaml", gooseFile(300<<10))
	// what this goroutine reads (the head, and the pieces but the last, whose lines
	// it counts) stays; the pages of the last piece but its first go
	beforePieces = func(cuts []int) {
		if err := os.Truncate(path, int64(cuts[len(cuts)-1]+4096)&^4095); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforePieces = nil }()
	err := bigbuf.Guard(func() { parseParallel(b) })
	var fe *bigbuf.FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("parsing the pieces of a mapped file cut short: %v, want a *bigbuf.FaultError", err)
	}
}

// TestParseFaultOfMappedFile: a fault of a mapped file cut short while yaml.v3
// parses the whole document is no parser failure ("the YAML parser failed"), but the
// file changing, for the caller's guard.
//
// spec: K7
func TestParseFaultOfMappedFile(t *testing.T) {
	path, b := bigbuftest.MapFile(t, "config.yaml", gooseFile(64<<10))
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	var perr error
	err := bigbuf.Guard(func() { _, perr = parseWhole(b) })
	var fe *bigbuf.FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("parsing a mapped file cut short: %v (parseWhole: %v), want a *bigbuf.FaultError", err, perr)
	}
}
