package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
)

// maxrssMain runs its arguments as a command and writes the command's peak resident
// memory in bytes (getrusage of the child) to the file named by MCPWIRE_MAXRSS_OUT,
// then exits with the command's status. It exists for its freshness: on Linux a
// child started by a process (vfork) inherits that process's own peak memory in its
// maxrss at exec, and a test binary that has run other tests peaks high; this
// process starts small, and so does the command it starts.
func maxrssMain() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	if werr := os.WriteFile(os.Getenv("MCPWIRE_MAXRSS_OUT"), []byte(strconv.FormatInt(maxrssOf(cmd.ProcessState), 10)), 0o600); werr != nil {
		fmt.Fprintln(os.Stderr, "maxrss:", werr)
		os.Exit(2)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
