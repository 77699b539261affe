//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts a stdio server in its own process group, so that a timeout
// kills the server and everything it started (npx, uvx and shell wrappers).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killProcessGroup(cmd) }
}

// killProcessGroup kills what is left of the server's process group.
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
