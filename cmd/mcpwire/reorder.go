package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// reorder moves a command's flags in front of its positional arguments, so that
// "mcpwire server add NAME --command x" works (urfave/cli v2 stops parsing flags at the
// first positional argument). Arguments after "--" are returned separately, untouched.
func reorder(app *cli.App, args []string) (out []string, passthrough []string, dashdash bool) {
	flags := app.Flags
	cmds := app.Commands
	var path, flagArgs, positional []string
	leading := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			passthrough = append([]string{}, args[i+1:]...)
			dashdash = true
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			flagArgs = append(flagArgs, a)
			if !strings.Contains(a, "=") && takesValue(flags, a) && i+1 < len(args) {
				i++
				flagArgs = append(flagArgs, args[i])
			}
			continue
		}
		if leading {
			if cmd := findCommand(cmds, a); cmd != nil {
				// flags seen so far belong to the parent: keep them before the name
				path = append(path, flagArgs...)
				path = append(path, a)
				flagArgs = nil
				flags = cmd.Flags
				cmds = cmd.Subcommands
				continue
			}
		}
		leading = false
		positional = append(positional, a)
	}
	out = append(path, flagArgs...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out, passthrough, dashdash
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		for _, n := range c.Names() {
			if n == name {
				return c
			}
		}
	}
	if name == "help" || name == "h" {
		return &cli.Command{Name: name}
	}
	return nil
}

// takesValue reports whether the flag token names a flag that takes a separate value.
func takesValue(flags []cli.Flag, token string) bool {
	name := strings.TrimLeft(token, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			switch f.(type) {
			case *cli.BoolFlag:
				return false
			}
			return true
		}
	}
	return false
}
