package sysmsg

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestText: a system message loses its final period wherever it is in the message,
// and nothing else changes. On Windows (and wine) the messages end with one; on Unix
// they do not, and Text is err.Error().
//
// spec: §0
func TestText(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
	if err == nil {
		t.Fatal("opened a missing file")
	}
	bare := strings.TrimSuffix(err.Error(), ".")
	if runtime.GOOS == "windows" && bare == err.Error() {
		t.Fatalf("%q: Windows' message without its period, nothing to test", err)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{err, bare},
		{fmt.Errorf("layer x: %w", err), "layer x: " + bare},
		{fmt.Errorf("read: %w; then: %w", err, err), "read: " + bare + "; then: " + bare},
		{errors.Join(errors.New("first."), fmt.Errorf("second: %w", err)), "first.\nsecond: " + bare},
		{errors.New("not a system message."), "not a system message."},
	} {
		if got := Text(c.err); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
