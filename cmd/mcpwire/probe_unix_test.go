//go:build unix

package main

import (
	"errors"
	"syscall"
)

// processExists reports whether a process id is in use (signal 0 finds it).
func processExists(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// killPID kills a process the test left behind.
func killPID(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
