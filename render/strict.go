package render

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
}

func (e *StrictError) Error() string {
	return fmt.Sprintf("%s holds comments or trailing commas, and %s reads strict JSON only: it would reject or ignore the whole file", e.Path, e.Provider.Display)
}

// Hints says how to go on.
func (e *StrictError) Hints() []string {
	return []string{"remove the comments and trailing commas from " + e.Path + ", then run again"}
}

// utf8BOM is a byte order mark, which the file may keep: a client that rejects it did
// so before mcpwire wrote anything.
var utf8BOM = []byte("\xef\xbb\xbf")

// checkStrict refuses the edited bytes of a strict-JSON client's file when they are
// not strict JSON and the edit writes entries into it; removing entries from such a
// file (uninject) is allowed, since the client ignores the file anyway.
func (e *fileEdit) checkStrict(out []byte) error {
	if !e.p.StrictJSON || len(e.set) == 0 || json.Valid(bytes.TrimPrefix(out, utf8BOM)) {
		return nil
	}
	return &StrictError{Provider: e.p, Path: e.path}
}
