//go:build unix

package main

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this id still exists (signal 0
// finds it), and the error signal 0 gave.
func processAlive(pid int) (bool, error) {
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH), err
}

// killProcess stops a process a test left behind.
func killProcess(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
