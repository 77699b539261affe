// Command cputime runs a command and prints, on standard error, its wall time, its
// CPU time (user + system, in seconds, to the microsecond that getrusage gives, not
// the hundredth /usr/bin/time prints) and its peak RSS in KB: bench/hostile.sh
// compares runs of 0.1 s (SPEC K7).
//
//	cputime COMMAND [ARG...]
package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cputime COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout = os.Stdin, os.Stdout // the command's standard error is not passed on
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(1)
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Fprintf(os.Stderr, "%.4f %.4f %d\n", wall.Seconds(), cpu.Seconds(), maxRSS(cmd.ProcessState))
}
