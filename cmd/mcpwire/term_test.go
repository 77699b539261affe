package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// ptyCapture opens a pseudo-terminal for a test and returns its terminal end and a
// function that closes it and returns everything written to it. The test is skipped
// where the test cannot open one: openPTY is written for Linux only (pty_linux_test.go;
// elsewhere pty_other_test.go), and a Linux without /dev/ptmx has none.
func ptyCapture(t *testing.T) (tty *os.File, output func() string) {
	t.Helper()
	master, tty, ok := openPTY(t)
	if !ok {
		t.Skip("no pseudo-terminal: the tests open one on Linux with /dev/ptmx only")
	}
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&buf, master) // ends with EIO once the terminal end is closed
		close(done)
	}()
	return tty, func() string {
		tty.Close()
		<-done
		return buf.String()
	}
}

// pipeCapture returns the writing end of a pipe, and a function that closes it and
// returns what was written: stderr that is not a terminal.
func pipeCapture(t *testing.T) (w *os.File, output func() string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		io.Copy(&buf, r)
		r.Close()
		close(done)
	}()
	return w, func() string {
		w.Close()
		<-done
		return buf.String()
	}
}

// spec: U7 — colour only on a terminal, never with NO_COLOR set (nor TERM=dumb): an
// error's "mcpwire: error:" and "mcpwire: hint:" prefixes and a warning's "WARNING"
// are coloured on a terminal's stderr; a pipe, a file and a buffer get plain text.
func TestColourOnlyOnATerminal(t *testing.T) {
	const esc = "\x1b["
	run := func(t *testing.T, stderr io.Writer, vars map[string]string) {
		t.Helper()
		env, _, _ := testEnv(t, vars)
		env.Stderr = stderr
		if code := Main([]string{"server", "show", "nosuch"}, env); code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
		env.warn("something to say")
	}
	t.Run("terminal", func(t *testing.T) {
		tty, output := ptyCapture(t)
		run(t, tty, map[string]string{"TERM": "xterm-256color"})
		out := output()
		for _, want := range []string{esc + "1;31mmcpwire: error:" + esc + "0m server", esc + "33mWARNING" + esc + "0m something to say"} {
			if !strings.Contains(out, want) {
				t.Errorf("terminal output lacks %q:\n%q", want, out)
			}
		}
	})
	for name, vars := range map[string]map[string]string{
		"terminal with NO_COLOR":  {"NO_COLOR": "1", "TERM": "xterm-256color"},
		"terminal with TERM=dumb": {"TERM": "dumb"},
	} {
		t.Run(name, func(t *testing.T) {
			tty, output := ptyCapture(t)
			run(t, tty, vars)
			out := output()
			if strings.Contains(out, esc) || !strings.Contains(out, "mcpwire: error: server") {
				t.Errorf("output = %q, want the error without escape codes", out)
			}
		})
	}
	t.Run("pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		run(t, w, map[string]string{"TERM": "xterm-256color"})
		w.Close()
		out, _ := io.ReadAll(r)
		if bytes.Contains(out, []byte(esc)) || !bytes.Contains(out, []byte("mcpwire: error: server")) {
			t.Errorf("output = %q, want the error without escape codes", out)
		}
	})
	t.Run("buffer", func(t *testing.T) {
		var buf bytes.Buffer
		run(t, &buf, map[string]string{"TERM": "xterm-256color"})
		if strings.Contains(buf.String(), esc) {
			t.Errorf("output = %q", buf.String())
		}
	})
}

// The stream is decided once: report on a plain stream prints the mcpwire format.
func TestReportPlain(t *testing.T) {
	var buf bytes.Buffer
	if code := report(&stream{w: &buf}, withHint(errors.New("bad thing"), "do this")); code != 1 {
		t.Errorf("exit %d", code)
	}
	if want := "mcpwire: error: bad thing\nmcpwire: hint: do this\n"; buf.String() != want {
		t.Errorf("report = %q, want %q", buf.String(), want)
	}
}
