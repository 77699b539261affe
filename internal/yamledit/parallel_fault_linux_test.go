package yamledit

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
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
	path, b := mapYAML(t, gooseFile(300<<10))
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
	path, b := mapYAML(t, gooseFile(64<<10))
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

// mapYAML writes src to a file and maps it.
func mapYAML(t *testing.T, src []byte) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, b, err := bigbuf.Map(int(f.Fd()), len(src))
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}
