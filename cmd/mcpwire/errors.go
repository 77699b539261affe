package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/internal/sysmsg"
	"github.com/mcpwire/mcpwire/internal/termtext"

	"github.com/urfave/cli/v2"
)

// Exit codes (SPEC §0).
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// usageError is a command-line misuse: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// withHint adds hint lines to an error (internal/hint: the packages below the CLI
// give their errors advice the same way).
func withHint(err error, hints ...string) error { return hint.Wrap(err, hints...) }

// exitCodeError carries a client's exit code through (session).
type exitCodeError struct{ code int }

func (e *exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// report prints an error in the mcpwire format on the stream s (stderr) and returns
// the exit code. On a coloured terminal the prefixes are coloured.
func report(s *stream, err error) int {
	w := s.w
	var ec *exitCodeError
	if errors.As(err, &ec) {
		return ec.code
	}
	// each line of the message escaped (K4): an error that lists problems keeps its
	// lines, and a value from a file quoted in one cannot drive the terminal. The
	// system's own messages lose Windows' final period (§0: "File not found.").
	lines := strings.Split(strings.TrimRight(sysmsg.Text(err), "\n"), "\n")
	for i, line := range lines {
		lines[i] = termtext.Line(line)
	}
	fmt.Fprintf(w, "%s %s\n", s.paint(sgrError, "mcpwire: error:"), strings.Join(lines, "\n"))
	var h hint.Hinter
	if errors.As(err, &h) {
		for _, line := range h.Hints() {
			fmt.Fprintf(w, "%s %s\n", s.paint(sgrHint, "mcpwire: hint:"), termtext.Line(line))
		}
	}
	var u *usageError
	if errors.As(err, &u) {
		fmt.Fprintf(w, "%s run 'mcpwire help' or add --help to a command for usage\n", s.paint(sgrHint, "mcpwire: hint:"))
		return exitUsage
	}
	return exitFailed
}

// secretFlags may hold credentials: an error never quotes their values (R8).
var secretFlags = map[string]bool{"env": true, "env-plain": true, "env-from": true, "header": true, "header-env": true, "bearer-env": true, "arg": true, "value": true, "value-from": true}

// usageError turns a flag-parsing error of the standard flag package into mcpwire's
// wording (exit 2): flags are named as typed ("-v", not "--v"), and a bad value is
// quoted only for flags that cannot hold a secret.
func (st *runState) usageError(c *cli.Context, err error, _ bool) error {
	st.noteJSONUsage(c)
	msg := err.Error()
	var flags []cli.Flag
	if c != nil && c.Command != nil {
		flags = c.Command.Flags
	}
	if c != nil && c.App != nil {
		flags = append(slices.Clone(flags), c.App.Flags...)
	}
	show := func(name string) string {
		if t := st.typed(name); t != "" {
			return t
		}
		if len(name) == 1 {
			return "-" + name
		}
		return "--" + name
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		hints := []string{flagHint(name, flags)}
		if c != nil && takesCommandLine[strings.TrimPrefix(commandPath(c), "mcpwire ")] && commandPath(c) != "mcpwire session" {
			// server add NAME npx -y PACKAGE: -y is the server's, not mcpwire's
			hints = append(hints, "if it is an argument of the server's command, put the command after --: "+commandPath(c)+" NAME -- COMMAND ARG…")
		}
		return withHint(usagef("unknown flag %s", show(name)), hints...)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return usagef("flag needs an argument: %s", show(strings.TrimLeft(name, "-")))
	}
	if rest, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return usagef("bad flag syntax: %s", flagToken(rest))
	}
	for _, lead := range []string{"invalid value ", "invalid boolean value "} {
		rest, ok := strings.CutPrefix(msg, lead)
		if !ok {
			continue
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest[len(quoted):], " for flag "), " for ")
		name, reason, _ := strings.Cut(rest, ": ")
		name = strings.TrimLeft(name, "-")
		if secretFlags[name] {
			return usagef("invalid value for %s", show(name))
		}
		return usagef("invalid value %s for %s: %s", quoted, show(name), valueWant(lookupFlag(flags, name), reason))
	}
	return &usageError{msg: msg}
}

// valueWant says what a flag of this type takes, in place of the flag package's
// terse "parse error".
func valueWant(f cli.Flag, reason string) string {
	switch f.(type) {
	case *cli.DurationFlag:
		return "want a duration such as 30s or 2m"
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return "want a whole number"
	case *cli.Float64Flag:
		return "want a number"
	case *cli.BoolFlag:
		return "want true or false"
	}
	return reason
}

// fromCLI rewrites urfave/cli's own errors in mcpwire's format: "No help topic for
// 'x'" (exit 3 in urfave/cli) is a usage error.
func fromCLI(err error) error {
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if topic, ok := strings.CutPrefix(err.Error(), "No help topic for '"); ok {
			return usagef("no help topic for %q", strings.TrimSuffix(topic, "'"))
		}
	}
	return err
}
