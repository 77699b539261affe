package main

import (
	"github.com/urfave/cli/v2"
)

const bashCompletion = `# mcpwire bash completion: source <(mcpwire completion bash)
_mcpwire_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local opts
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
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} $cur --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _mcpwire mcpwire
`

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
