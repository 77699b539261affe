package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
)

// replaceWith starts the program and waits for it: Windows has no execve. The child
// inherits mcpwire's standard handles (os.Stdin, os.Stdout and os.Stderr are passed
// as they are, so no byte of the MCP stream goes through mcpwire), gets the
// environment with the values, and its exit code becomes mcpwire's. Ctrl-C and
// Ctrl-Break reach both (one console); mcpwire ignores them and waits for the server
// to decide. Compiled and vetted on every run, not run here (docs/secrets.md).
func replaceWith(path string, argv, environ []string, stderr io.Writer) int {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = environ
	signal.Ignore(os.Interrupt)
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return fail(stderr, 126, fmt.Errorf("exec: %s: %w", argv[0], err))
	}
	return 0
}
