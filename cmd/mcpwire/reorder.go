package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// reorder moves a command's flags in front of its positional arguments, so that
// "mcpwire server add NAME --command x" works (urfave/cli v2 stops parsing flags at the
// first positional argument). A global flag (--config-dir) given after a subcommand
// that does not define it moves in front of the first command name, so global flags
// work anywhere before "--". Arguments after "--" are returned separately, untouched.
// A flag that needs a value but ends the arguments is a usage error (it would
// otherwise take the "--" put before the positional arguments as its value); a
// value-taking flag right before "--" takes it as its value (--arg --).
func reorder(app *cli.App, args []string) (out []string, passthrough []string, dashdash bool, err error) {
	flags := app.Flags
	cmds := app.Commands
	var global, path, flagArgs, positional []string
	leading := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			passthrough = append([]string{}, args[i+1:]...)
			dashdash = true
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			set, own := flags, &flagArgs
			if !defines(flags, a) && defines(app.Flags, a) {
				set, own = app.Flags, &global
			}
			*own = append(*own, a)
			if !strings.Contains(a, "=") && takesValue(set, a) {
				if i+1 >= len(args) {
					return nil, nil, false, usagef("flag needs an argument: %s", flagToken(a))
				}
				i++
				*own = append(*own, args[i])
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
	out = append(global, path...)
	out = append(out, flagArgs...)
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out, passthrough, dashdash, nil
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

// flagName is the name a flag token sets: "--env=A=1" → "env".
func flagName(token string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(token, "-"), "=")
	return name
}

// flagToken is a flag token without its value, as typed: "--env=A=1" → "--env".
func flagToken(token string) string {
	t, _, _ := strings.Cut(token, "=")
	return t
}

// lookupFlag finds the flag a token names among flags.
func lookupFlag(flags []cli.Flag, token string) cli.Flag {
	name := flagName(token)
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// defines reports whether one of flags is the one the token names.
func defines(flags []cli.Flag, token string) bool { return lookupFlag(flags, token) != nil }

// takesValue reports whether the flag token names a flag that takes a separate value.
func takesValue(flags []cli.Flag, token string) bool {
	switch lookupFlag(flags, token).(type) {
	case nil, *cli.BoolFlag:
		return false
	}
	return true
}
