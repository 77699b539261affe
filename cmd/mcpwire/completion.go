package main

import (
	"context"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionFlag is urfave/cli's completion request (App.EnableBashCompletion); the
// shell scripts put it last.
const completionFlag = "--generate-bash-completion"

// complete answers a completion request. The shell scripts call mcpwire with the
// words before the cursor, then the word being completed (possibly empty), then
// --generate-bash-completion; words holds all but that flag. The word being
// completed is always last, so "inject --provider <TAB>" (complete a value) and
// "inject --provider<TAB>" (complete a flag) are told apart.
//
// No Action runs: urfave/cli parses the words before the cursor in its completion
// mode, with no reordering and no "--" passthrough, and the guard on every Action is
// a second line of defence. Nothing is written, and nothing is printed on stderr: a
// registry that cannot be read gives no names.
func complete(app *cli.App, st *runState, words []string) int {
	st.completing = true
	if n := len(words); n > 0 {
		// "--" here is the word being completed ("inject --<TAB>"), not a separator
		st.prefix, words = words[n-1], words[:n-1]
	}
	st.words = words
	if slices.Contains(words, "--") {
		// the client's arguments (session -- ARGS): nothing to offer
		return exitOK
	}
	// urfave/cli turns completion off when a "--" is present: there is none left
	_ = app.RunContext(context.Background(), append(append([]string{"mcpwire"}, words...), completionFlag))
	return exitOK
}

// completions prints what may come next on a command line, one candidate a line (the
// shell keeps those that start with the word being completed): the flags of the
// command and the global ones for a word starting with "-"; the names a flag takes
// after it (providers, profiles, servers, …, U6); the names a command takes as its
// argument; or its subcommands. Unlike urfave/cli's default it reads the words it
// was given, not os.Args.
func (st *runState) completions(c *cli.Context) {
	w := c.App.Writer
	cmd := c.Command
	if cmd == nil {
		return
	}
	flags := append(slices.Clone(cmd.Flags), c.App.Flags...) // global flags work anywhere (reorder)
	path := strings.TrimPrefix(commandPath(c), "mcpwire ")
	if name, value, ok := strings.Cut(st.prefix, "="); ok && strings.HasPrefix(name, "-") {
		// --servers=a,<TAB> (zsh and fish keep the word whole)
		if takesValue(flags, name) {
			st.printValues(c, path, lookupFlag(flags, name), name+"=", value)
		}
		return
	}
	if strings.HasPrefix(st.prefix, "-") {
		st.printFlags(c, flags)
		return
	}
	if f := st.pendingFlag(flags); f != nil {
		st.printValues(c, path, f, "", st.prefix)
		return
	}
	if src := argNames(path); src != nil {
		if c.NArg() == 0 {
			st.printNames(c, src(st), "", nil)
		}
		return
	}
	var subs []string
	for _, s := range cmd.Subcommands {
		if !s.Hidden {
			subs = append(subs, s.Names()...)
		}
	}
	// a command whose only subcommand is urfave's help takes arguments, not
	// subcommands: print nothing, so that the shell completes file names
	if slices.ContainsFunc(subs, func(n string) bool { return n != "help" && n != "h" }) {
		for _, n := range subs {
			printf(w, "%s\n", n)
		}
	}
}

// printFlags prints the flags starting with the typed prefix. A single-value flag
// already on the command line is not offered again; list flags repeat (U2).
func (st *runState) printFlags(c *cli.Context, flags []cli.Flag) {
	printed := map[string]bool{}
	for _, f := range flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		repeatable := !singleValue(f)
		for _, n := range f.Names() {
			tok := "--" + n
			if len(n) == 1 {
				tok = "-" + n
			}
			if printed[tok] || !strings.HasPrefix(tok, st.prefix) {
				continue
			}
			if !repeatable && st.typed(n) != "" {
				continue
			}
			printed[tok] = true
			printf(c.App.Writer, "%s\n", tok)
		}
	}
}

// pendingFlag returns the flag whose value the cursor is at: the last word before it
// is a flag that takes a value and has none yet ("--servers <TAB>", or bash's split
// of "--servers=<TAB>" into "--servers" "="). A flag that is itself the value of
// the word before it ("--arg --servers") is not one.
func (st *runState) pendingFlag(flags []cli.Flag) cli.Flag {
	w := st.words
	if n := len(w); n > 0 && w[n-1] == "=" {
		w = w[:n-1]
	}
	n := len(w)
	isValueFlag := func(tok string) bool {
		return strings.HasPrefix(tok, "-") && tok != "-" && tok != "--" && !strings.Contains(tok, "=") && takesValue(flags, tok)
	}
	if n == 0 || !isValueFlag(w[n-1]) || (n > 1 && isValueFlag(w[n-2])) {
		return nil
	}
	return lookupFlag(flags, w[n-1])
}

// typed returns the flag token the user wrote for the flag name (without a value),
// or "" when the command line does not hold it.
func (st *runState) typed(name string) string {
	words := st.args
	if st.completing {
		words = st.words
	}
	for _, a := range words {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && flagName(a) == name {
			return flagToken(a)
		}
	}
	return ""
}

// flagValue returns the value of the last occurrence of a value-taking flag among
// the words before the cursor ("--config-dir D" or "--config-dir=D"), or "".
func (st *runState) flagValue(name string) string {
	v := ""
	for i, a := range st.words {
		if !strings.HasPrefix(a, "-") || flagName(a) != name {
			continue
		}
		if _, val, ok := strings.Cut(a, "="); ok {
			v = val
		} else if i+1 < len(st.words) {
			v = st.words[i+1]
		}
	}
	return v
}
