package jsonc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/limits"
)

// ErrEmpty is matched (with errors.Is) by the error Parse returns for input
// that holds no value at all: empty, or only whitespace and comments.
var ErrEmpty = errors.New("empty document")

// ErrNotObject is matched (with errors.Is) by a *NotObjectError, which Set
// and Delete return when the root or an element of the path is not an
// object.
var ErrNotObject = errors.New("not an object")

// BOM is the UTF-8 byte order mark some editors put at the start of a file.
// JSON forbids it and Parse and Decode refuse it: a caller that accepts it
// takes it off before reading and puts it back when writing.
const BOM = "\ufeff"

// SyntaxError describes malformed input. Its message has the form
// "line L, column C: problem"; lines and columns count from 1 and columns
// count bytes.
type SyntaxError struct {
	// Line is the 1-based line of the problem.
	Line int
	// Column is the 1-based byte column of the problem.
	Column int
	// Offset is the 0-based byte offset of the problem.
	Offset int
	// Problem describes what is wrong, in lowercase without a final period.
	Problem string

	err error // optional sentinel for errors.Is
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Problem)
}

// Unwrap returns ErrEmpty for an empty document, a *limits.Error for nesting
// deeper than limits.Depth, and nil otherwise.
func (e *SyntaxError) Unwrap() error { return e.err }

// scanError is the position-only error the scanner produces; Parse turns it
// into a SyntaxError once it knows the whole input.
type scanError struct {
	off int
	msg string
	err error
}

func (e *scanError) Error() string { return e.msg }

func errAt(off int, format string, args ...any) *scanError {
	return &scanError{off: off, msg: fmt.Sprintf(format, args...)}
}

// syntaxError converts a scanError at an offset of data to a SyntaxError.
func syntaxError(data []byte, e *scanError) *SyntaxError {
	off := min(max(e.off, 0), len(data))
	line := 1 + bigbuf.Count(data[:off], '\n')
	col := off - bigbuf.LastIndexByte(data[:off], '\n')
	if le, ok := e.err.(*limits.Error); ok {
		le.Line = line
	}
	return &SyntaxError{Line: line, Column: col, Offset: off, Problem: e.msg, err: e.err}
}

// NotObjectError reports a value that must be an object and is not, worded
// "the top level must be an object, not an array" or `"mcpServers" must be
// an object, not a string`. It matches ErrNotObject.
type NotObjectError struct {
	// Path holds the member names from the root to the value; it is empty
	// for the top level.
	Path []string
	// Got is the kind of the value found.
	Got Kind
}

// NotObject returns the error for the value at path (none: the top level),
// found to be of kind got where an object is required.
func NotObject(got Kind, path ...string) error {
	return &NotObjectError{Path: path, Got: got}
}

// Error implements error.
func (e *NotObjectError) Error() string {
	if len(e.Path) == 0 {
		return "the top level must be an object, not " + e.Got.Noun()
	}
	var b strings.Builder
	for k, name := range e.Path {
		if k > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.Quote(name))
	}
	return b.String() + " must be an object, not " + e.Got.Noun()
}

// Is reports whether target is ErrNotObject.
func (e *NotObjectError) Is(target error) bool { return target == ErrNotObject }
