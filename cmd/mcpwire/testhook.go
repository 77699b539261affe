package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// Test-only environment variables, ignored unless set. They count the steps that
// change the disk (fsys.OSOptions.AfterStep: each lock and unlock, directory, stale
// temporary file removed, temporary file created, partly and fully written, rename,
// remove and chmod, rollback included), and each value a secret store was given or
// had removed again (secretstore.Env.AfterWrite: "store", "unstore"), from 1, over the
// whole run:
//
//   - MCPWIRE_TEST_CRASH_AFTER=N: right after step N, say which on stderr and kill
//     the process (SIGKILL on Unix, TerminateProcess on Windows), as a crash or
//     kill -9 would. The crash tests (cmd/mcpwire/crash_test.go) use it.
//   - MCPWIRE_TEST_PAUSE_AFTER=N, =STAGE or =STAGE:K (the first or the K-th step of
//     that stage, such as "partial" or "rename:2"): right after that step, say which
//     on stderr and wait (up to a minute) until a signal stops the writes, so that a
//     test can send SIGINT or SIGTERM at an exact point (cmd/mcpwire/signal_test.go).
const (
	crashAfterEnv = "MCPWIRE_TEST_CRASH_AFTER"
	pauseAfterEnv = "MCPWIRE_TEST_PAUSE_AFTER"
)

// testStepHook returns the step hook those variables ask for, or nil.
func testStepHook(getenv func(string) string, stderr io.Writer, intr *fsys.Interrupt) func(stage, name string) {
	crash, _ := strconv.Atoi(getenv(crashAfterEnv))
	pause, err := strconv.Atoi(getenv(pauseAfterEnv))
	pauseStage, nth := "", 0
	if err != nil {
		stage, k, _ := strings.Cut(getenv(pauseAfterEnv), ":")
		pauseStage, nth = stage, 1
		if k != "" {
			nth, _ = strconv.Atoi(k)
		}
	}
	if crash <= 0 && pause <= 0 && pauseStage == "" {
		return nil
	}
	var n atomic.Int64
	return func(stage, name string) {
		step := int(n.Add(1))
		if stage == pauseStage {
			if nth--; nth == 0 {
				pause = step
			}
		}
		switch step {
		case crash:
			fmt.Fprintf(stderr, "mcpwire: test: killed after step %d: %s %s\n", step, stage, name)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				_ = p.Kill()
			}
			time.Sleep(time.Hour) // the kill takes effect; nothing more may happen
		case pause:
			fmt.Fprintf(stderr, "mcpwire: test: paused after step %d: %s %s\n", step, stage, name)
			for deadline := time.Now().Add(time.Minute); intr.Err() == nil && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
		}
	}
}
