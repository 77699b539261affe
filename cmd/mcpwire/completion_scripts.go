package main

import (
	"io"

	"github.com/urfave/cli/v2"
)

// The shell scripts call mcpwire with the words before the cursor, then the word
// being completed (possibly empty), then --generate-bash-completion (urfave/cli's
// flag), and offer the lines printed that start with the word being completed. When
// nothing is printed they complete file names. After a "--" word the arguments
// belong to the client: the scripts complete file names without asking mcpwire.
// Every script discards mcpwire's stderr.

// bashCompletion also undoes bash's split of "--flag=value" at "=" (COMP_WORDBREAKS):
// the "=" stays a word before the cursor and the value is the word being completed.
const bashCompletion = `# mcpwire bash completion: source <(mcpwire completion bash)
_mcpwire_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local w opts
  COMPREPLY=()
  for w in "${words[@]:1}"; do
    [[ "$w" == "--" ]] && return 0
  done
  if [[ "$cur" == "=" ]]; then
    words+=("=")
    cur=""
  fi
  opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
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
  opts=("${(@f)$("${(@)before}" "$cur" --generate-bash-completion 2>/dev/null)}")
  if [[ -n "${opts[1]}" ]]; then
    compadd -a opts
  else
    _files
  fi
}
compdef _mcpwire mcpwire
`

const fishCompletion = `# mcpwire fish completion: mcpwire completion fish | source
function __mcpwire_complete
  set -l words (commandline -opc)
  set -l cur (commandline -ct)
  if contains -- -- $words
    __fish_complete_path $cur
    return
  end
  set -l opts (command $words $cur --generate-bash-completion 2>/dev/null)
  if test (count $opts) -eq 0
    __fish_complete_path $cur
    return
  end
  printf '%s\n' $opts
end
complete -c mcpwire -f -a '(__mcpwire_complete)'
`

func completionCommand(env *Env) *cli.Command {
	script := func(s string) func(*cli.Context) error {
		return func(c *cli.Context) error {
			if err := exactArgs(c, 0, ""); err != nil {
				return err
			}
			io.WriteString(env.Stdout, s)
			return nil
		}
	}
	return &cli.Command{
		Name:  "completion",
		Usage: "print a shell completion script (bash, zsh or fish)",
		Subcommands: []*cli.Command{
			{Name: "bash", Usage: "bash completion script", Action: script(bashCompletion)},
			{Name: "zsh", Usage: "zsh completion script", Action: script(zshCompletion)},
			{Name: "fish", Usage: "fish completion script", Action: script(fishCompletion)},
		},
	}
}
