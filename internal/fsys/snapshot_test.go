package fsys

import (
	"os"
	"path/filepath"
	"testing"
)

// removeAfterRead removes a file right after reading it, as another mcpwire settling
// its staged record does between this process's read and its look at the file.
type removeAfterRead struct{ OS }

func (r removeAfterRead) ReadFile(name string) ([]byte, error) {
	data, err := r.OS.ReadFile(name)
	if err == nil {
		_ = os.Remove(name)
	}
	return data, err
}

// spec: W8
// TestReadSnapshotOfAFileRemovedMeanwhile: a file removed between its read and the look
// at its mode is absent, not an error ("lstat …: no such file or directory" failed one
// of 40 concurrent injects when another one removed its staged record).
func TestReadSnapshotOfAFileRemovedMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.json.staged")
	writeTestFile(t, path, "{}", 0o600)
	s, err := ReadSnapshot(removeAfterRead{}, path)
	if err != nil || s.Exists {
		t.Fatalf("ReadSnapshot = %+v, %v; want an absent snapshot", s, err)
	}
}
