package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptRetries is how many more times a script runs under wine when its failure is
// only wine's failure to start a process (wineStartFailure).
const scriptRetries = 2

// runScripts runs the scripts of p.Dir as testscript.Run does, one subtest
// t/<name> each. On Linux, macOS and Windows it is testscript.Run. Under wine each
// script runs as its own subtest with a recording T, and a script whose failure log
// shows wine's failure to start a process (winetest.StartFailed: "fork/exec …:
// Internal error.") runs again, up to scriptRetries more times; any other failure
// fails at once (docs/portability.md).
func runScripts(t *testing.T, p testscript.Params) {
	if !winetest.Running() {
		testscript.Run(t, p)
		return
	}
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := t.Deadline(); ok && p.Deadline.IsZero() {
		p.Deadline = d
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txtar")
		if !ok {
			name, ok = strings.CutSuffix(e.Name(), ".txt")
		}
		if !ok {
			continue
		}
		one := p
		one.Dir, one.Files = "", []string{filepath.Join(p.Dir, e.Name())}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runScriptRetrying(t, one)
		})
	}
}

// runScriptRetrying runs p's one script with a recordingT, again while its failure
// is wine's start failure, and reports the last run to t.
func runScriptRetrying(t *testing.T, p testscript.Params) {
	for try := 0; ; try++ {
		r := &recordingT{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			testscript.RunT(r, p)
		}()
		<-done
		logText := strings.Join(r.logs, "\n")
		if try < scriptRetries && wineStartFailure(r.failed, logText) {
			t.Logf("wine failed to start a process (CreateProcess: ERROR_INTERNAL_ERROR); running the script again (%d of %d); the failed run:\n%s",
				try+1, scriptRetries, logText)
			continue
		}
		for _, l := range r.logs {
			t.Log(l)
		}
		switch {
		case r.failed:
			t.FailNow()
		case r.skipped:
			t.SkipNow()
		}
		return
	}
}

// wineStartFailure reports whether a script run that failed (failed) with the log
// logText failed because wine could not start a process: only then is it run again.
// The log shows winetest.StartFailed's error as the exec command's line
// "[fork/exec C:\…\mcpwire.exe: Internal error.]". (No regexp: a package-level one
// would be work in the test binary's init, which TestNoWorkInInit bounds.)
func wineStartFailure(failed bool, logText string) bool {
	if !failed {
		return false
	}
	for line := range strings.Lines(logText) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "[fork/exec ") && strings.HasSuffix(line, ": Internal error.]") {
			return true
		}
	}
	return false
}

// recordingT is a testscript.T that keeps a script's log, failure and skip for
// runScriptRetrying, which runs testscript.RunT in a goroutine of its own: FailNow
// and Skip end that goroutine, as testing.T's end the test's.
type recordingT struct {
	mu      sync.Mutex
	logs    []string
	failed  bool
	skipped bool
}

var _ testscript.T = (*recordingT)(nil)

func (r *recordingT) Log(args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}

func (r *recordingT) Fatal(args ...any) {
	r.Log(args...)
	r.FailNow()
}

func (r *recordingT) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

func (r *recordingT) Skip(args ...any) {
	r.Log(args...)
	r.mu.Lock()
	r.skipped = true
	r.mu.Unlock()
	runtime.Goexit()
}

// Parallel does nothing: the subtest runScripts makes is the parallel one.
func (r *recordingT) Parallel() {}

// Run runs the script's one subtest in the same goroutine, on the same record.
func (r *recordingT) Run(_ string, f func(testscript.T)) { f(r) }

func (r *recordingT) Verbose() bool { return testing.Verbose() }
