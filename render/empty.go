package render

import (
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// emptyWaits are the pauses between the re-reads of a client file that has no byte at
// all, spaced like the retries of a write that met another writer (W8): about 60 ms
// in all.
var emptyWaits = []time.Duration{2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond, 16 * time.Millisecond, 32 * time.Millisecond}

// emptyValid are the formats in which an existing file with no byte at all is a valid
// empty document, edited as one (K9): a TOML file is empty until its first table, and
// Codex, Mistral Vibe and Grok Build start with none. A JSON or YAML client file is
// never empty once its program wrote it, so an empty one is refused (checkNotEmpty).
var emptyValid = map[format.Format]bool{format.TOML: true}

// refusesEmpty reports whether an existing file of format with no byte in it is
// refused (checkNotEmpty), not edited as an empty document.
func refusesEmpty(format format.Format, exists bool, data []byte) bool {
	return exists && len(data) == 0 && !emptyValid[format]
}

// CheckNotEmpty refuses to edit a client file that exists and holds no byte at all
// (decision, issue 11; docs/writes.md), unless its format has an empty document
// (emptyValid). That is the state a program writing its file in place is in between
// truncating it and writing it again: treating it as an empty configuration would
// replace the person's whole file with mcpwire's servers alone. So the file is read
// again a few times; when it fills up (or goes away) the edit starts over on what is
// there now (fsys.ErrChanged), and when it stays empty the edit is refused, naming it.
// A missing file is still created.
func CheckNotEmpty(f fsys.FS, format format.Format, path string, cur fsys.Snapshot) error {
	if !refusesEmpty(format, cur.Exists, cur.Data) {
		return nil
	}
	for _, d := range emptyWaits {
		time.Sleep(d)
		data, exists, err := ReadOptional(f, path)
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

// NotEmpty is what mcpwire writes instead of emptying a file (K9): a file with no
// byte in it reads, to a program that writes its file in place, as one half-written,
// and mcpwire refuses it (JSON, YAML); one line ending is an empty document in every
// format. A file that was empty already and stays so is left as it is.
func NotEmpty(out []byte, cur fsys.Snapshot) []byte {
	if len(out) == 0 && !(cur.Exists && len(cur.Data) == 0) {
		return []byte("\n")
	}
	return out
}
