package hint

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
)

// A wrapped error keeps its text and its identity, and offers its hints to
// errors.As, also from inside another wrap.
func TestWrap(t *testing.T) {
	err := fmt.Errorf("reading config: %w", Wrap(fs.ErrNotExist, "create it", "or set HOME"))
	if err.Error() != "reading config: file does not exist" {
		t.Errorf("text %q", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is does not see through the wrap")
	}
	var h Hinter
	if !errors.As(err, &h) || !slices.Equal(h.Hints(), []string{"create it", "or set HOME"}) {
		t.Errorf("hints not found: %v", h)
	}
}
