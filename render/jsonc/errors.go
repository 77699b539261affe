package jsonc

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// ErrEmpty is matched (with errors.Is) by the error Parse returns for input
// that holds no value at all: empty, or only whitespace and comments.
var ErrEmpty = errors.New("empty document")

// ErrNotObject is matched (with errors.Is) by the errors Set and Delete
// return when the root or an element of the path is not an object.
var ErrNotObject = errors.New("not an object")

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

// Unwrap returns ErrEmpty for an empty document and nil otherwise.
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
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return &SyntaxError{Line: line, Column: col, Offset: off, Problem: e.msg, err: e.err}
}

// notObjectError reports that the value at a path is not an object.
type notObjectError struct {
	path []string
}

func (e *notObjectError) Error() string {
	if len(e.path) == 0 {
		return "the root value is not an object"
	}
	return fmt.Sprintf("%q is not an object", pointer(e.path))
}

func (e *notObjectError) Is(target error) bool { return target == ErrNotObject }

// pointer renders a path as a JSON pointer (RFC 6901) for messages.
func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		p = strings.ReplaceAll(p, "~", "~0")
		b.WriteString(strings.ReplaceAll(p, "/", "~1"))
	}
	return b.String()
}
