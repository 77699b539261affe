// Package limits holds the bounds on what mcpwire reads of a file (SPEC K1, K3):
// each far above what a real configuration reaches and always reached by hostile
// input (an alias bomb, a file of nested brackets, a link to /dev/zero), so that a
// refusal costs milliseconds and a few MB whatever the input. docs/hostile-input.md
// says why each is what it is.
package limits

import (
	"errors"
	"fmt"
)

const (
	// FileBytes is the largest file mcpwire reads: Claude Code's ~/.claude.json,
	// which keeps every project's history, reaches 50 MB and more; nothing else
	// comes near.
	FileBytes = 256 << 20
	// TextBytes is the largest YAML or TOML file mcpwire reads: these are written
	// by hand (Goose, Continue, Codex and the like), a few KB each; their parsers
	// take tens of bytes of memory per byte of input.
	TextBytes = 16 << 20
	// Depth is the deepest nesting of containers mcpwire reads, in every format:
	// JSON objects and arrays, YAML mappings and sequences, TOML tables (one level
	// per key of a dotted name), arrays and inline tables. Real files nest fewer
	// than 20 levels.
	Depth = 1000
	// AliasNodes is how many nodes the aliases of a YAML document may add when
	// they are expanded (each alias counts the whole node it names): a file that
	// shares a few env blocks adds hundreds; "billion laughs" adds billions.
	AliasNodes = 100_000
)

// ErrRefused is matched (errors.Is) by every refusal of a file as hostile input: an
// *Error (over a limit, K1) and a file that is not a regular file (K2, fsys).
// Read-side commands report such a file and go on with the others.
var ErrRefused = errors.New("refused")

// Error is input refused for going past one of the limits. Path is filled in by the
// caller that knows the file.
type Error struct {
	// Path is the file, when known.
	Path string
	// What went past the limit: "size", "nesting depth", "YAML alias expansion".
	What string
	// Limit is the limit with its unit: "256 MiB", "1000 levels".
	Limit string
	// Line is where in the file, when known (0 otherwise).
	Line int
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("refused: %s over mcpwire's limit of %s", e.What, e.Limit)
	if e.Line > 0 {
		msg += fmt.Sprintf(" (line %d)", e.Line)
	}
	if e.Path != "" {
		msg = e.Path + ": " + msg
	}
	return msg
}

// Is reports whether target is ErrRefused.
func (e *Error) Is(target error) bool { return target == ErrRefused }

// Size is the error of a file larger than limit bytes.
func Size(path string, limit int64) *Error {
	return &Error{Path: path, What: "size", Limit: fmt.Sprintf("%d MiB", limit>>20)}
}

// Nesting is the error of nesting deeper than Depth at line (0 when not known).
func Nesting(line int) *Error {
	return &Error{What: "nesting depth", Limit: fmt.Sprintf("%d levels", Depth), Line: line}
}

// Aliases is the error of YAML aliases that expand to more than AliasNodes nodes.
func Aliases(line int) *Error {
	return &Error{What: "YAML alias expansion", Limit: fmt.Sprintf("%d nodes", AliasNodes), Line: line}
}

// InFile returns err with the file named: a copy of the *Error it is, or wraps, with
// Path set; err itself otherwise.
func InFile(path string, err error) error {
	var le *Error
	if !errors.As(err, &le) {
		return err
	}
	c := *le
	c.Path = path
	return &c
}
