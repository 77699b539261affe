//go:build unix

package fsys

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadFileAsOS: readFile returns what os.ReadFile returns for a regular file or a
// missing one, errors included (what else it refuses: regular_test.go).
func TestReadFileAsOS(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"empty": "", "small": "{}\n", "big": strings.Repeat("x", 3<<20+7)} {
		writeTestFile(t, filepath.Join(dir, name), data, 0o600)
	}
	paths := []string{"empty", "small", "big", "missing"}
	if runtime.GOOS == "linux" {
		paths = append(paths, "/proc/self/status") // size 0 in its stat
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		got, err := readFile(p)
		want, werr := os.ReadFile(p)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Errorf("%s: error %v, want %v", p, err, werr)
		}
		if !strings.HasPrefix(p, "/proc") && !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, want %d", p, len(got), len(want))
		}
		if strings.HasPrefix(p, "/proc") && !bytes.HasPrefix(got, []byte("Name:")) {
			t.Errorf("%s: %q", p, got)
		}
	}
}
