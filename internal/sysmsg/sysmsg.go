// Package sysmsg words an error for mcpwire's messages when it carries the system's
// own text. Windows' messages are sentences that end with a period ("open x: The
// system cannot find the file specified."), and mcpwire's error lines end without one
// (SPEC §0). Unix messages have no period: Text changes nothing there.
package sysmsg

import (
	"strings"
	"syscall"
)

// Text is err.Error() with the final period of every system message in err's tree (a
// syscall.Errno, however it is wrapped or joined) removed.
func Text(err error) string {
	msg := err.Error()
	walk(err, func(e syscall.Errno) {
		if t := e.Error(); strings.HasSuffix(t, ".") {
			msg = strings.ReplaceAll(msg, t, strings.TrimSuffix(t, "."))
		}
	})
	return msg
}

// walk calls f for every syscall.Errno in err's tree.
func walk(err error, f func(syscall.Errno)) {
	switch e := err.(type) {
	case nil:
	case syscall.Errno:
		f(e)
	case interface{ Unwrap() error }:
		walk(e.Unwrap(), f)
	case interface{ Unwrap() []error }:
		for _, w := range e.Unwrap() {
			walk(w, f)
		}
	}
}
