//go:build !windows

package main

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// secretFile writes an owner-only secret file and returns its reference.
func secretFile(t *testing.T, value string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(p, []byte(value+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return "file:" + p
}

// spec: S2 — mcpwire exec becomes the server (execve): the same process, the MCP
// stream byte for byte (a MiB of every byte value, both ways through the server, none
// through mcpwire), the server's exit status and the signal that ended it.
func TestExecReplacesItself(t *testing.T) {
	ref := secretFile(t, "SENTINEL-exec")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	in := make([]byte, 1<<20)
	rand.Read(in)
	cmd := exec.Command("mcpwire", "exec", "--env-secret", "K="+ref, "--", "sh", "-c", `echo $$ > "$0"; test "$K" = SENTINEL-exec && exec cat`, pidFile)
	cmd.Stdin = bytes.NewReader(in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if !bytes.Equal(out.Bytes(), in) {
		t.Errorf("the stream changed: %d bytes in, %d out", len(in), out.Len())
	}
	b, _ := os.ReadFile(pidFile)
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid != cmd.Process.Pid {
		t.Errorf("the server runs as process %d, mcpwire was %d: not replaced", pid, cmd.Process.Pid)
	}

	err := exec.Command("mcpwire", "exec", "--env-secret", "K="+ref, "--", "sh", "-c", "exit 42").Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 42 {
		t.Errorf("exit status: %v", err)
	}
	err = exec.Command("mcpwire", "exec", "--env-secret", "K="+ref, "--", "sh", "-c", "kill -TERM $$").Run()
	if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("signal: %v", err)
	}
}
