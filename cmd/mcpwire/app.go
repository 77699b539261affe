package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/urfave/cli/v2"
)

// Main runs mcpwire with args (without the program name) and returns the exit code.
func Main(args []string, env *Env) int {
	st := &runState{args: args}
	env.errs = newStream(env.Stderr, env.Getenv)
	defer guardStreams(env)()
	app := newApp(env, st)
	if i := slices.Index(args, completionFlag); i >= 0 {
		return complete(app, st, args[:i])
	}
	ordered, passthrough, dashdash, err := reorder(app, args)
	if err != nil {
		return report(env.errs, err)
	}
	env.passthrough, env.dashdash = passthrough, dashdash
	st.dashdash = dashdash
	err = app.RunContext(context.Background(), append([]string{"mcpwire"}, ordered...))
	code := exitOK
	if err != nil && !errors.Is(err, errVersionShown) {
		err = fromCLI(err)
		code = report(env.errs, err)
		st.reportJSON(err, code)
	}
	return interruptedCode(env, code)
}

// runState is what one run knows beyond Env: the arguments as typed (errors quote a
// flag the way the user wrote it) and whether it only completes a command line.
type runState struct {
	args []string
	// completing is set when the arguments hold --generate-bash-completion: no
	// command's Action may run.
	completing bool
	// prefix is the word being completed when it starts with "-"; words are the
	// complete words before it.
	prefix string
	words  []string
	// dashdash is set when the arguments hold "--": only the commands in
	// takesCommandLine accept what follows it.
	dashdash bool
	// env is the run's environment (completion reads the registry through it).
	env *Env
	// json is set when the command runs with --json: a failure is a document on
	// stdout too (H9).
	json *jsonRun
}

// takesCommandLine are the commands that take arguments after "--": a server's
// command line (U3), or the client's arguments (session).
var takesCommandLine = map[string]bool{"server add": true, "server update": true, "session": true, "exec": true}

func newApp(env *Env, st *runState) *cli.App {
	st.env = env
	app := &cli.App{
		Name:                 "mcpwire",
		Usage:                "write one registry of MCP servers into every AI client's own config",
		HideVersion:          true,
		Writer:               env.Stdout,
		ErrWriter:            env.Stderr,
		EnableBashCompletion: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config-dir", Usage: "use this single configuration directory (disables AIWG_CONFIG_LAYERS)"},
			versionFlag,
		},
		Before: func(c *cli.Context) error {
			env.configDir = c.String("config-dir")
			return showVersion(env, c)
		},
		Commands: []*cli.Command{
			serverCommand(env),
			profileCommand(env),
			policyCommand(env),
			serverPolicyCommand(env),
			layersCommand(env),
			injectCommand(env),
			uninjectCommand(env),
			importCommand(env),
			statusCommand(env),
			explainCommand(env),
			auditCommand(env),
			sessionCommand(env),
			installCommand(env),
			providersCommand(env),
			versionCommand(env),
			manCommand(env),
			completionCommand(env),
			probeCommand(env),
			execCommand(env),
			headersCommand(env),
		},
		ExitErrHandler: func(*cli.Context, error) {},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand(c.Args().First(), "", c.App.Commands)
			}
			return cli.ShowAppHelp(c)
		},
		OnUsageError: st.usageError,
		BashComplete: st.completions,
	}
	setUsageHandlers(app.Commands, st)
	app.Action = st.guard(app.Action)
	return app
}

// setUsageHandlers makes every flag-parsing error a usage error (exit 2), and every
// command group reject unknown subcommands. It also gives every command mcpwire's
// completion function, and makes every Action a no-op while completing.
func setUsageHandlers(cmds []*cli.Command, st *runState) {
	for _, c := range cmds {
		c.OnUsageError = st.usageError
		c.BashComplete = st.completions
		// a command without subcommands has no "help" subcommand: its NAME argument
		// may be "h" or "help" (server add --command x h); its help is --help
		c.HideHelpCommand = len(c.Subcommands) == 0
		if len(c.Subcommands) > 0 && c.Action == nil {
			group := c
			c.Action = func(ctx *cli.Context) error {
				if ctx.Args().Present() {
					return unknownCommand(ctx.Args().First(), group.Name, group.Subcommands)
				}
				return cli.ShowSubcommandHelp(ctx)
			}
		}
		c.Action = st.guard(c.Action)
		setUsageHandlers(c.Subcommands, st)
	}
}

// guard makes an Action do nothing while a command line is being completed: a
// completion request must never write, launch or print anything but completions.
func (st *runState) guard(action cli.ActionFunc) cli.ActionFunc {
	if action == nil {
		return nil
	}
	return func(c *cli.Context) error {
		if st.completing {
			return nil
		}
		st.noteJSON(c)
		if path := commandPath(c); st.dashdash && !takesCommandLine[strings.TrimPrefix(path, "mcpwire ")] {
			return usagef("%s takes nothing after --", path)
		}
		return action(c)
	}
}

// exactArgs checks the number of positional arguments.
// More than n are said as extra arguments (H9), not as a missing NAME; a command
// that takes a command line after "--" (server add, server update) says to put it
// there. The extra words are shown with credential shapes hidden.
func exactArgs(c *cli.Context, n int, names string) error {
	switch {
	case c.NArg() > n && n == 0:
		return usagef("%s takes no arguments", commandPath(c))
	case c.NArg() > n && takesCommandLine[strings.TrimPrefix(commandPath(c), "mcpwire ")]:
		return withHint(usagef("%s: extra arguments: put the command after --", commandPath(c)),
			"as in "+dashForm(c, redactWords(c.Args().Slice()[n:])))
	case c.NArg() > n:
		return usagef("%s takes %s; extra arguments: %s", commandPath(c), names, strings.Join(redactWords(c.Args().Slice()[n:]), " "))
	case c.NArg() < n:
		return usagef("%s needs %s", commandPath(c), names)
	}
	return nil
}

// redactWords is words as an error may show them: credential-bearing arguments
// (--token=…) and words shaped like a token REDACTED.
func redactWords(words []string) []string {
	out := policy.RedactArgs(words)
	for i, w := range out {
		if policy.TokenShaped(w) {
			out[i] = policy.Redacted
		}
	}
	return out
}

// maxArgs checks an upper bound of positional arguments.
func maxArgs(c *cli.Context, n int) error {
	if c.NArg() > n {
		return usagef("%s: too many arguments", commandPath(c))
	}
	return nil
}

// commandPath names the running command as typed: "server add".
func commandPath(c *cli.Context) string {
	var names []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" {
			names = append([]string{ctx.Command.Name}, names...)
		}
	}
	return strings.Join(names, " ")
}

var errNoUpdates = errors.New("no updates provided")

// printf writes to w, ignoring errors (stdout closed is not our problem to report).
// Its string and error arguments are printed as lines (K4): control characters in
// them are escaped (termtext.Line), but for one final line feed, so that a name or
// path taken from a file can neither drive the terminal nor start a line of its own.
// %q quotes as it always does. Text of many lines (a diff, a script) is written as it
// is, with io.WriteString.
func printf(w io.Writer, format string, args ...any) {
	for i, a := range args {
		switch x := a.(type) {
		case string:
			args[i] = lineArg(x)
		case error:
			args[i] = lineArg(x.Error())
		}
	}
	fmt.Fprintf(w, format, args...)
}

// lineArg is a string argument of printf.
type lineArg string

// Format prints the string escaped by termtext.Line (a final line feed kept) for %s
// and %v, with the directive's width and flags; any other verb gets the string as
// it is.
func (a lineArg) Format(f fmt.State, verb rune) {
	s := string(a)
	if verb == 's' || verb == 'v' {
		body, nl := strings.CutSuffix(s, "\n")
		s = termtext.Line(body)
		if nl {
			s += "\n"
		}
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), s)
}
