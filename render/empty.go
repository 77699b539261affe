package render

import (
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/render/fsys"
)

// emptyWaits are the pauses between the re-reads of a client file that has no byte at
// all, spaced like the retries of a write that met another writer (W8): about 60 ms
// in all.
var emptyWaits = []time.Duration{2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond, 16 * time.Millisecond, 32 * time.Millisecond}

// checkNotEmpty refuses to edit a client file that exists and holds no byte at all
// (decision, issue 11; docs/writes.md). That is the state a program writing its file
// in place is in between truncating it and writing it again: treating it as an empty
// configuration would replace the person's whole file with mcpwire's servers alone. So
// the file is read again a few times; when it fills up (or goes away) the edit starts
// over on what is there now (fsys.ErrChanged), and when it stays empty the edit is
// refused, naming it. A missing file is still created.
func checkNotEmpty(f fsys.FS, path string, cur fsys.Snapshot) error {
	if !cur.Exists || len(cur.Data) > 0 {
		return nil
	}
	for _, d := range emptyWaits {
		time.Sleep(d)
		data, exists, err := readOptional(f, path)
		if err != nil {
			return err
		}
		if !exists || len(data) > 0 {
			return fmt.Errorf("%s: %w", path, fsys.ErrChanged)
		}
	}
	return &EmptyFileError{Path: path}
}

// EmptyFileError is a client file with no byte in it, left so across a few re-reads.
type EmptyFileError struct{ Path string }

func (e *EmptyFileError) Error() string {
	return fmt.Sprintf("%s is empty (0 bytes): a program may be rewriting it right now, so mcpwire leaves it alone", e.Path)
}

// Hints says what to do.
func (e *EmptyFileError) Hints() []string {
	return []string{"try again in a moment; if the file should be empty, delete it and mcpwire creates it anew"}
}
