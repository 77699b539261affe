//go:build !unix

package main

import "os/exec"

// setProcessGroup keeps the default: on timeout the server process is killed.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the server process if it is still running (an exited
// process makes Kill a no-op that returns os.ErrProcessDone).
func killProcessGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
