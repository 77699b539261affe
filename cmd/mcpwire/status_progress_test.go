package main

import (
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// slowFS answers every look at a file after a pause: status over every client then
// takes longer than the progress delay, as on a slow network home directory.
type slowFS struct {
	fsys.FS
	pause time.Duration
}

func (f slowFS) Lstat(name string) (fs.FileInfo, error) {
	time.Sleep(f.pause)
	return f.FS.Lstat(name)
}

func (f slowFS) Stat(name string) (fs.FileInfo, error) {
	time.Sleep(f.pause)
	return f.FS.Stat(name)
}

// spec: U7 — status over every client shows its progress on a terminal only: drawn
// ("status: 3/35 clients") and erased before the report, so the report starts on a
// clean line; a pipe and --json get none of it.
func TestStatusProgressOnTerminalOnly(t *testing.T) {
	run := func(t *testing.T, stderr io.Writer, args ...string) (int, string) {
		t.Helper()
		env, out, _ := testEnv(t, map[string]string{"TERM": "xterm"})
		env.Stderr = stderr
		env.FS = slowFS{env.FS, 3 * time.Millisecond}
		code := Main(append([]string{"status"}, args...), env)
		return code, out.String()
	}
	t.Run("terminal", func(t *testing.T) {
		tty, output := ptyCapture(t)
		code, out := run(t, tty)
		drawn := output()
		if code != 0 || out != "no client config files here\n" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		if !strings.Contains(drawn, "\rstatus: ") || !strings.Contains(drawn, " clients") || !strings.HasSuffix(drawn, "\r") {
			t.Errorf("terminal shows %q, want progress drawn and erased", drawn)
		}
		if last := drawn[strings.LastIndex(strings.TrimSuffix(drawn, "\r"), "\r")+1:]; strings.TrimSpace(last) != "" {
			t.Errorf("progress left on the line: %q", last)
		}
	})
	t.Run("terminal with --json", func(t *testing.T) {
		tty, output := ptyCapture(t)
		code, out := run(t, tty, "--json")
		if drawn := output(); code != 0 || drawn != "" || !strings.HasPrefix(out, "{") {
			t.Errorf("exit %d, terminal shows %q, stdout %q", code, drawn, out)
		}
	})
	t.Run("pipe", func(t *testing.T) {
		w, output := pipeCapture(t)
		code, _ := run(t, w)
		if drawn := output(); code != 0 || drawn != "" {
			t.Errorf("exit %d, stderr %q", code, drawn)
		}
	})
}
