package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes (SPEC §0).
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// usageError is a command-line misuse: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// hinted is an error with hint lines.
type hinted struct {
	err   error
	hints []string
}

func (e *hinted) Error() string   { return e.err.Error() }
func (e *hinted) Unwrap() error   { return e.err }
func (e *hinted) Hints() []string { return e.hints }

// withHint adds hint lines to an error.
func withHint(err error, hints ...string) error { return &hinted{err: err, hints: hints} }

// exitCodeError carries a client's exit code through (session).
type exitCodeError struct{ code int }

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// report prints an error in the mcpwire format and returns the exit code.
func report(w io.Writer, err error) int {
	var ec *exitCodeError
	if errors.As(err, &ec) {
		return ec.code
	}
	msg := strings.TrimRight(err.Error(), "\n")
	fmt.Fprintf(w, "mcpwire: error: %s\n", msg)
	var h interface{ Hints() []string }
	if errors.As(err, &h) {
		for _, line := range h.Hints() {
			fmt.Fprintf(w, "mcpwire: hint: %s\n", line)
		}
	}
	var u *usageError
	if errors.As(err, &u) {
		fmt.Fprintln(w, "mcpwire: hint: run 'mcpwire help' or add --help to a command for usage")
		return exitUsage
	}
	return exitFailed
}
