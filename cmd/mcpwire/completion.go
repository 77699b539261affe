package main

import (
	"context"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// The shell scripts call mcpwire with the words before the cursor, then the word
// being completed when it starts with "-", then --generate-bash-completion (urfave/cli's
// convention). After a "--" word the arguments belong to the client: the scripts fall
// back to file names without asking mcpwire.
const bashCompletion = `# mcpwire bash completion: source <(mcpwire completion bash)
_mcpwire_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local w opts
  COMPREPLY=()
  for w in "${words[@]:1}"; do
    [[ "$w" == "--" ]] && return 0
  done
  if [[ "$cur" == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o bashdefault -o default -F _mcpwire_complete mcpwire
`

const zshCompletion = `#compdef mcpwire
# mcpwire zsh completion: source <(mcpwire completion zsh)
_mcpwire() {
  local -a opts before
  local cur=${words[CURRENT]}
  before=("${(@)words[1,CURRENT-1]}")
  if (( ${before[(I)--]} > 1 )); then
    _files
    return
  fi
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$("${(@)before}" "$cur" --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$("${(@)before}" --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ -n "${opts[1]}" ]]; then
    compadd -a opts
  else
    _files
  fi
}
compdef _mcpwire mcpwire
`

// completionFlag is urfave/cli's completion request (App.EnableBashCompletion); the
// shell scripts put it last.
const completionFlag = "--generate-bash-completion"

// complete answers a completion request for the command line words (the arguments
// before --generate-bash-completion). No Action runs: urfave/cli parses the words in
// its completion mode, with no reordering and no "--" passthrough, and the guard on
// every Action is a second line of defence.
func complete(app *cli.App, st *runState, words []string) int {
	st.completing = true
	if n := len(words); n > 0 && strings.HasPrefix(words[n-1], "-") {
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

// completions prints what may come next on a command line: the flags of the command
// (and the global ones) starting with the typed prefix, or its subcommands. Unlike
// urfave/cli's default it reads the words it was given, not os.Args.
func (st *runState) completions(c *cli.Context) {
	w := c.App.Writer
	cmd := c.Command
	if cmd == nil {
		return
	}
	if st.prefix != "" {
		flags := slices.Clone(cmd.Flags)
		flags = append(flags, c.App.Flags...) // global flags work anywhere (reorder)
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
				// the exact word is left out: it may be a flag typed in full before
				// the cursor ("--provider <TAB>"), which must not be offered again
				if printed[tok] || tok == st.prefix || !strings.HasPrefix(tok, st.prefix) {
					continue
				}
				if !repeatable && st.typed(n) != "" {
					continue
				}
				printed[tok] = true
				printf(w, "%s\n", tok)
			}
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

func completionCommand(env *Env) *cli.Command {
	script := func(s string) func(*cli.Context) error {
		return func(c *cli.Context) error {
			if err := exactArgs(c, 0, ""); err != nil {
				return err
			}
			printf(env.Stdout, "%s", s)
			return nil
		}
	}
	return &cli.Command{
		Name:  "completion",
		Usage: "print a shell completion script (bash, zsh or fish)",
		Subcommands: []*cli.Command{
			{Name: "bash", Usage: "bash completion script", Action: script(bashCompletion)},
			{Name: "zsh", Usage: "zsh completion script", Action: script(zshCompletion)},
			{Name: "fish", Usage: "fish completion script", Action: func(c *cli.Context) error {
				if err := exactArgs(c, 0, ""); err != nil {
					return err
				}
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				printf(env.Stdout, "%s", s)
				return nil
			}},
		},
	}
}
