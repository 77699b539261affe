//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pausedRun is an mcpwire process paused by MCPWIRE_TEST_PAUSE_AFTER.
type pausedRun struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	// step is the line saying where it paused ("" when it ended without pausing).
	step    string
	drained chan struct{}
}

// startPaused starts mcpwire with args in dir, pausing after the step pause names,
// and waits until it has paused.
func startPaused(t *testing.T, home, dir string, args []string, pause string, extra ...string) *pausedRun {
	t.Helper()
	cmd := exec.Command(mcpwireBin(t), args...)
	cmd.Env, cmd.Dir = append(procEnv(home), append([]string{pauseAfterEnv + "=" + pause}, extra...)...), dir
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &pausedRun{cmd: cmd, stderr: new(bytes.Buffer)}
	lines := bufio.NewReader(pipe)
	for {
		line, err := lines.ReadString('\n')
		r.stderr.WriteString(line)
		if strings.HasPrefix(line, "mcpwire: test: paused after step ") {
			r.step = strings.TrimSpace(line)
			break
		}
		if err != nil {
			break
		}
	}
	r.drained = make(chan struct{})
	go func() {
		_, _ = io.Copy(r.stderr, lines) // the rest of stderr, until the process exits
		close(r.drained)
	}()
	return r
}

// signal sends sig and waits for the process; it returns its exit error.
func (r *pausedRun) signal(t *testing.T, sig syscall.Signal) error {
	t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	<-r.drained // Wait closes the pipe: read all of it first
	return r.cmd.Wait()
}

// exitedWith checks that err is an exit with status code.
func exitedWith(err error, code int) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.ExitCode() == code
}

// signalWorld is a HOME whose ~/.claude.json holds 50 MB of Claude Code's state.
func signalWorld(t *testing.T) (home string, before map[string]string) {
	t.Helper()
	root := t.TempDir()
	home = userWorld(t, root, 50<<20)
	before, _ = worldState(t, root)
	return home, before
}

// sameWorld fails unless the tree of home's parent holds before, and no temporary or
// lock file.
func sameWorld(t *testing.T, home string, before map[string]string) {
	t.Helper()
	after, left := worldState(t, filepath.Dir(home))
	if !maps.Equal(before, after) {
		t.Errorf("files changed: %v", convergeDiff(after, before))
	}
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestSignalDuringWrite sends SIGINT and SIGTERM to mcpwire while it writes a 50 MB
// ~/.claude.json: right after its temporary file is created, after its first MiB is
// written, after all of it is written and synced, and after it replaced
// ~/.claude.json (the ownership record still to come). Every time mcpwire exits with
// 128 + the signal's number and an error naming the signal, the transaction undone:
// ~/.claude.json holds its original bytes and mode, no record or receipt is written
// and no temporary or lock file remains.
//
// spec: W3 W7
func TestSignalDuringWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB files")
	}
	home, before := signalWorld(t)
	args := []string{"inject", "--provider", "claude", "--scope", "user", "--servers", "s01"}
	claude := filepath.Join(home, ".claude.json")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, at := range []string{"temp", "partial", "synced", "rename"} {
			t.Run(fmt.Sprintf("%s after %s", signalName(sig), at), func(t *testing.T) {
				// the staged ownership record is written first (docs/writes.md): its temp,
				// synced and rename steps come before those of ~/.claude.json (it is too
				// small to have a partial one)
				pause := map[string]string{"temp": "temp:2", "partial": "partial", "synced": "synced:2", "rename": "rename:2"}[at]
				r := startPaused(t, home, home, args, pause)
				if want := filepath.Join(home, "..claude.json.mcpwire-"); at == "rename" && !strings.HasSuffix(r.step, " rename "+claude) ||
					at != "rename" && !strings.Contains(r.step, " "+at+" "+want) {
					t.Fatalf("paused at %q, want the %s step of %s", r.step, at, claude)
				}
				err := r.signal(t, sig)
				if !exitedWith(err, 128+int(sig)) || !strings.Contains(r.stderr.String(), "mcpwire: error: ") ||
					!strings.Contains(r.stderr.String(), "interrupted by "+signalName(sig)+"\n") {
					t.Errorf("exit %v, stderr:\n%s", err, r.stderr.String())
				}
				sameWorld(t, home, before)
			})
		}
	}
}

// TestSignalUnpaused sends SIGINT or SIGTERM as soon as the temporary file of a 50 MB
// ~/.claude.json appears, with no test hook: the same outcome as TestSignalDuringWrite
// (a run the signal reached only after that write keeps what it wrote, and leaves no
// temporary file either).
//
// spec: W3 W7
func TestSignalUnpaused(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB files")
	}
	home, before := signalWorld(t)
	late := 0
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(mcpwireBin(t), "inject", "--provider", "claude", "--scope", "user", "--servers", "s01")
		var stderr bytes.Buffer
		cmd.Env, cmd.Dir, cmd.Stderr = procEnv(home), home, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		var err error
	poll:
		for {
			select {
			case err = <-exited:
				t.Fatalf("run %d ended before its temporary file showed: %v\n%s", i, err, stderr.String())
			default:
			}
			if m, _ := filepath.Glob(filepath.Join(home, "..claude.json.mcpwire-*.tmp")); len(m) > 0 {
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				err = <-exited
				break poll
			}
			time.Sleep(200 * time.Microsecond)
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() ||
			strings.Contains(stderr.String(), "after its writes had finished") {
			// the signal came after the write (between two transactions its default
			// action ends mcpwire): what was written stays, with no temporary file
			late++
			if _, left := worldState(t, filepath.Dir(home)); len(left) > 0 {
				t.Errorf("run %d: left behind: %v", i, left)
			}
			os.RemoveAll(filepath.Dir(home))
			home, before = signalWorld(t)
			continue
		}
		if !exitedWith(err, 128+int(sig)) || !strings.Contains(stderr.String(), "interrupted by "+signalName(sig)) {
			t.Fatalf("run %d: exit %v, stderr:\n%s", i, err, stderr.String())
		}
		sameWorld(t, home, before)
	}
	t.Logf("%d of 4 signals came after the write of ~/.claude.json", late)
}

// TestCrashDuringRollback sends SIGINT once a project injection has replaced
// .mcp.json and .claude/settings.local.json, and kills mcpwire
// (MCPWIRE_TEST_CRASH_AFTER) after every step of the rollback that follows: each
// file parses and holds its old or its new content, and a rerun leaves no temporary
// file (as TestCrashAtEveryStep).
//
// spec: W3 W7
func TestCrashDuringRollback(t *testing.T) {
	if testing.Short() {
		t.Skip("starts about 40 processes")
	}
	w := crashWorlds[1]
	c := newCrashCheck(t, w, 0)
	for m := 0; ; m++ {
		dir := c.fresh(t)
		var extra []string
		if m > 0 {
			extra = []string{fmt.Sprintf("%s=%d", crashAfterEnv, m)}
		}
		r := startPaused(t, filepath.Join(c.root, "home"), dir, w.args, "rename:2", extra...)
		var k int
		if _, err := fmt.Sscanf(r.step, "mcpwire: test: paused after step %d:", &k); err != nil {
			t.Fatalf("did not pause: %q", r.stderr.String())
		}
		err := r.signal(t, syscall.SIGINT)
		if m == 0 {
			if !exitedWith(err, 130) {
				t.Fatalf("without a crash: exit %v\n%s", err, r.stderr.String())
			}
			m = k // the next run crashes at step k+1, the first after the pause
			continue
		}
		if !strings.Contains(r.stderr.String(), "mcpwire: test: killed after step") {
			if !exitedWith(err, 130) || m < k+5 {
				t.Fatalf("step %d: exit %v\n%s", m, err, r.stderr.String())
			}
			break // past the rollback's last step
		}
		c.afterKill(t, dir, strings.TrimSpace(r.stderr.String()))
	}
	c.log(t)
}
