// Package bigbuftest helps tests of code that reads mapped files (internal/bigbuf).
package bigbuftest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// MapFile writes data to a new file named name in a temporary directory and maps
// it (Linux: elsewhere bigbuf.Map refuses and the test fails). It returns the file's
// path, for the test to cut the file short under the mapping, and the mapped bytes.
func MapFile(t testing.TB, name string, data []byte) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, b, err := bigbuf.Map(int(f.Fd()), len(data))
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}
