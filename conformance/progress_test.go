//go:build conformance && unix

package conformance

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// progress shows the long steps of an install (npm install, npm rebuild, the first run
// of each client) on a terminal only (spec: U7): on stderr when it is one, else on the
// controlling terminal. `go test` with a package list (the documented command) hands
// the test binary a pipe and shows its output only at the end, so a person watching a
// cold install would otherwise see nothing for minutes; without a terminal (CI,
// `.ci/run` under a service, output redirected from a detached process) nothing is
// shown at all.
type progress struct {
	mu sync.Mutex
	w  io.Writer // nil: no terminal
	f  *os.File  // the controlling terminal opened by newProgress, closed by close
}

// progressTick is how often a running step shows its elapsed time.
const progressTick = 5 * time.Second

func newProgress() *progress {
	f := pickTerminal(os.Stderr, func() (*os.File, error) { return os.OpenFile("/dev/tty", os.O_WRONLY, 0) })
	p := &progress{}
	if f != nil {
		p.w = f
		if f != os.Stderr {
			p.f = f
		}
	}
	return p
}

// pickTerminal returns stderr when it is a terminal (a character device), else the
// controlling terminal tty opens, else nil.
func pickTerminal(stderr *os.File, tty func() (*os.File, error)) *os.File {
	if isCharDevice(stderr) {
		return stderr
	}
	f, err := tty()
	if err != nil {
		return nil
	}
	if !isCharDevice(f) {
		f.Close()
		return nil
	}
	return f
}

func isCharDevice(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) close() {
	if p.f != nil {
		p.f.Close()
	}
}

func (p *progress) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil {
		fmt.Fprintf(p.w, format, args...)
	}
}

// step shows that what has started, its elapsed time every progressTick on the same
// line, and how long it took once the returned function is called.
func (p *progress) step(what string) (stop func()) {
	if p.w == nil {
		return func() {}
	}
	start := time.Now()
	p.printf("conformance: %s …", what)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.printf("\rconformance: %s … %s", what, time.Since(start).Round(time.Second))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		p.printf("\rconformance: %s: %s\n", what, time.Since(start).Round(100*time.Millisecond))
	}
}

// TestProgressOnATerminalOnly is a self-test of the install's progress display, which
// runs no client: stderr is used when it is a terminal, else the controlling terminal,
// else nothing is shown; a step shows its name and, when it ends, how long it took.
//
// spec: U7
func TestProgressOnATerminalOnly(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0) // a character device, like a terminal
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	noTTY := func() (*os.File, error) { return nil, errors.New("no such device or address") }

	if got := pickTerminal(w, noTTY); got != nil {
		t.Errorf("a pipe and no controlling terminal: progress goes to %s, want nowhere", got.Name())
	}
	if got := pickTerminal(devNull, noTTY); got != devNull {
		t.Errorf("stderr a character device: progress goes to %v, want stderr", got)
	}
	tty, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := pickTerminal(w, func() (*os.File, error) { return tty, nil }); got != tty {
		t.Errorf("a pipe and a controlling terminal: progress goes to %v, want the terminal", got)
	}
	tty.Close()
	other, err := os.CreateTemp(t.TempDir(), "not-a-terminal")
	if err != nil {
		t.Fatal(err)
	}
	if got := pickTerminal(w, func() (*os.File, error) { return other, nil }); got != nil {
		t.Errorf("a regular file opened as the terminal was used")
	}

	var b strings.Builder
	p := &progress{w: &b}
	p.step("npm install (11 packages)")()
	if got := b.String(); !strings.HasPrefix(got, "conformance: npm install (11 packages) …\rconformance: npm install (11 packages): ") || !strings.HasSuffix(got, "s\n") {
		t.Errorf("a step printed %q", got)
	}
	silent := &progress{}
	silent.step("npm install")()
	silent.printf("x")
}
