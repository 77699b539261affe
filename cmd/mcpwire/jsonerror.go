package main

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/urfave/cli/v2"
)

// errorReport is the document a command run with --json prints on stdout when it
// fails before it printed its own (H9): a program reading stdout gets one JSON
// document whatever happened. stderr has the same error as text. The error is its
// text as after "mcpwire: error: "; hints are the lines after "mcpwire: hint: " that
// belong to it; warnings are those said before the failure (writing commands).
type errorReport struct {
	Command  string   `json:"command"`
	Error    string   `json:"error"`
	Hints    []string `json:"hints"`
	Warnings []string `json:"warnings"`
	ExitCode int      `json:"exitCode"`
}

// watchedWriter is stdout while a --json command runs: it notes whether anything was
// written, so that a failure after the command's own document adds no second one.
type watchedWriter struct {
	w     io.Writer
	wrote bool
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.wrote = w.wrote || len(p) > 0
	return w.w.Write(p)
}

// jsonRun is what a run with --json needs to report a failure as a document.
type jsonRun struct {
	command  string
	stdout   *watchedWriter
	warnings []string
}

// noteJSON starts watching stdout when the command about to run was given --json.
func (st *runState) noteJSON(c *cli.Context) {
	if st.json != nil || !definesJSON(c) || !c.Bool("json") {
		return
	}
	w := &watchedWriter{w: st.env.Stdout}
	st.env.Stdout = w
	st.json = &jsonRun{command: strings.TrimPrefix(commandPath(c), "mcpwire "), stdout: w}
	st.env.warnings = &st.json.warnings
}

// noteJSONUsage is noteJSON for a command whose flags did not parse: --json counts
// when it is among the arguments before "--".
func (st *runState) noteJSONUsage(c *cli.Context) {
	if st.json != nil || c == nil || !definesJSON(c) {
		return
	}
	args := st.args
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	if slices.ContainsFunc(args, func(a string) bool {
		return a == "--json" || a == "-json" || a == "--json=true" || a == "-json=true"
	}) {
		st.json = &jsonRun{command: strings.TrimPrefix(commandPath(c), "mcpwire "), stdout: &watchedWriter{w: st.env.Stdout}}
	}
}

func definesJSON(c *cli.Context) bool {
	return c.Command != nil && slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), "json") })
}

// reportJSON prints the failure of a --json run as an errorReport on stdout, unless
// the command printed its document already or the code is a client's own (session).
func (st *runState) reportJSON(err error, code int) {
	var ec *exitCodeError
	if st.json == nil || st.json.stdout.wrote || errors.As(err, &ec) {
		return
	}
	warnings := st.json.warnings
	if st.env.warnings != nil {
		warnings = *st.env.warnings // a writing command's own list (startJSON)
	}
	doc := errorReport{Command: st.json.command, Error: strings.TrimRight(err.Error(), "\n"), Hints: []string{}, Warnings: nonNil(warnings), ExitCode: code}
	var h hint.Hinter
	if errors.As(err, &h) {
		doc.Hints = append(doc.Hints, h.Hints()...)
	}
	_ = writeJSON(st.json.stdout, doc)
}
