package write

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/providers"
)

// StrictError is a file of a client that reads strict JSON only, holding comments or
// trailing commas: the client would reject or ignore the whole file, with the servers
// mcpwire writes into it, so nothing is written (V9).
type StrictError struct {
	Provider *providers.Provider
	Path     string
	// Line is the first line of the file holding a comment or a trailing comma, and
	// What says which (0 and "" when none was found: the message names the file only).
	Line int
	What string
}

func (e *StrictError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d %s, and %s reads strict JSON only: it would reject or ignore the whole file", e.Path, e.Line, e.What, e.Provider.Display)
	}
	return fmt.Sprintf("%s holds comments or trailing commas, and %s reads strict JSON only: it would reject or ignore the whole file", e.Path, e.Provider.Display)
}

// Hints says how to go on.
func (e *StrictError) Hints() []string {
	return []string{"remove the comments and trailing commas from " + e.Path + ", then run again"}
}

// strictError is the refusal of a file that is not strict JSON, naming the first line
// with a comment or a trailing comma in the file as it was (orig), else in the edited
// bytes (out).
func (e *fileEdit) strictError(orig, out []byte) *StrictError {
	se := &StrictError{Provider: e.p, Path: e.path}
	for _, b := range [][]byte{orig, out} {
		if line, what := looseLine(b); line > 0 {
			se.Line, se.What = line, what
			break
		}
	}
	return se
}

// utf8BOM is a byte order mark, which the file may keep: a client that rejects it did
// so before mcpwire wrote anything.
var utf8BOM = []byte("\xef\xbb\xbf")

// checkStrict refuses the edited bytes of a strict-JSON client's file when they are
// not strict JSON and the edit writes entries into it; removing entries from such a
// file (uninject) is allowed, since the client ignores the file anyway.
func (e *fileEdit) checkStrict(orig, out []byte) error {
	if !e.p.StrictJSON || len(e.set) == 0 || json.Valid(bytes.TrimPrefix(out, utf8BOM)) {
		return nil
	}
	return e.strictError(orig, out)
}
