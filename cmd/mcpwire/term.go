package main

import (
	"io"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"golang.org/x/term"
)

// stream is one output stream and what was decided about it once, when the run
// started: whether it is a terminal (progress may be drawn on it) and whether it may
// be coloured (U7). Anything that is not a terminal — a pipe, a file, /dev/null, a
// test's buffer — gets neither.
type stream struct {
	w     io.Writer
	tty   bool
	color bool
}

// newStream decides for w: a terminal is coloured unless NO_COLOR is set (to any
// non-empty value, as no-color.org says) or TERM is "dumb", or the console cannot
// show escape sequences (older Windows consoles).
func newStream(w io.Writer, getenv func(string) string) *stream {
	s := &stream{w: w}
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return s
	}
	s.tty = true
	s.color = getenv("NO_COLOR") == "" && getenv("TERM") != "dumb" && enableEscapes(f.Fd())
	return s
}

// SGR codes mcpwire colours with: only the prefixes of diagnostic lines on stderr
// are coloured, never a message, a value or anything on stdout.
const (
	sgrError   = "1;31" // bold red: "mcpwire: error:"
	sgrWarning = "33"   // yellow: "WARNING"
	sgrHint    = "36"   // cyan: "mcpwire: hint:"
)

// paint returns text in the colour sgr on a coloured stream, else text unchanged.
func (s *stream) paint(sgr, text string) string {
	if s == nil || !s.color {
		return text
	}
	return "\x1b[" + sgr + "m" + text + "\x1b[0m"
}

// diag is the stream of stderr, decided once by Main; an Env that did not come
// through Main gets a plain one.
func (e *Env) diag() *stream {
	if e.errs != nil {
		return e.errs
	}
	return &stream{w: e.Stderr}
}

// guardStreams puts a termtext.Writer in front of stdout and stderr for one run (K4):
// whatever a command prints, a control character from a file never reaches the
// terminal as one. The stream decided for stderr (errs) keeps the real one beneath,
// for mcpwire's own colours and progress line. The function returned flushes both
// and puts the streams back.
func guardStreams(env *Env) func() {
	out, errw := env.Stdout, env.Stderr
	gout, gerr := termtext.NewWriter(out), termtext.NewWriter(errw)
	env.Stdout, env.Stderr = gout, gerr
	return func() {
		gout.Flush()
		gerr.Flush()
		env.Stdout, env.Stderr = out, errw
	}
}

// unguarded returns the stream beneath a guard of guardStreams: a client that a
// session starts gets the terminal itself.
func unguarded(w io.Writer) io.Writer {
	if g, ok := w.(*termtext.Writer); ok {
		return g.Underlying()
	}
	return w
}
