//go:build !windows

package main

import (
	"fmt"
	"io"
	"syscall"
)

// replaceWith replaces mcpwire with the program (execve): the MCP stream, the
// process id, the exit status and the signals are the server's own. It returns only
// when the program cannot be started.
func replaceWith(path string, argv, environ []string, stderr io.Writer) int {
	err := syscall.Exec(path, argv, environ)
	return fail(stderr, 126, fmt.Errorf("exec: %s: %w", argv[0], err))
}
