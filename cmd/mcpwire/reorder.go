package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// reorder moves a command's flags in front of its positional arguments, so that
// "mcpwire server add NAME --command x" works (urfave/cli v2 stops parsing flags at the
// first positional argument). A global flag (--config-dir) given after a subcommand
// that does not define it moves in front of the first command name, so global flags
// work anywhere before "--". Arguments after "--" are returned separately, untouched.
// A single-value flag given twice with different values is a usage error (U2).
// A flag that needs a value but ends the arguments is a usage error (it would
// otherwise take the "--" put before the positional arguments as its value); a
// value-taking flag right before "--" takes it as its value (--arg --).
func reorder(app *cli.App, args []string) (out []string, passthrough []string, dashdash bool, err error) {
	flags := app.Flags
	cmds := app.Commands
	var global, path, flagArgs, positional []string
	seen := flagValues{}
	leading := true
	group := ""   // the command whose subcommand is expected next
	unknown := "" // the argument before, when it is an unknown flag without "=value"
	help := false // --help or -h: the command's help, whatever its arguments
	for i := 0; i < len(args); i++ {
		a := args[i]
		prev := unknown
		unknown = ""
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
			if !defines(set, a) && !strings.Contains(a, "=") && !isHelpFlag(a) {
				unknown = a
			}
			help = help || isHelpFlag(a)
			*own = append(*own, a)
			value := "true"
			if _, v, ok := strings.Cut(a, "="); ok {
				value = v
			} else if takesValue(set, a) {
				if i+1 >= len(args) {
					return nil, nil, false, usagef("flag needs an argument: %s", flagToken(a))
				}
				i++
				*own = append(*own, args[i])
				value = args[i]
			}
			if err := seen.add(lookupFlag(set, a), value); err != nil {
				return nil, nil, false, err
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
				group = cmd.Name
				continue
			}
			if len(cmds) > 0 {
				if prev != "" {
					// "--confg-dir x layers": x is the mistyped flag's value, not a command
					known := append(slices.Clone(flags), app.Flags...)
					return nil, nil, false, withHint(usagef("unknown flag %s", prev), flagHint(flagName(prev), known))
				}
				// where a command is expected: say so before any flag problem
				return nil, nil, false, unknownCommand(a, group, cmds)
			}
		}
		leading = false
		positional = append(positional, a)
	}
	out = append(global, path...)
	out = append(out, flagArgs...)
	if help {
		// "profile edit p --help": the help of profile edit, not a help topic "p"
		positional = nil
	}
	if len(positional) > 0 {
		out = append(out, "--")
		out = append(out, positional...)
	}
	return out, passthrough, dashdash, nil
}

// isHelpFlag reports whether the token is urfave/cli's own help flag, which no flag
// list here holds.
func isHelpFlag(token string) bool {
	n := flagName(token)
	return n == "help" || n == "h"
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		for _, n := range c.Names() {
			if n == name {
				return c
			}
		}
	}
	if len(cmds) > 0 && (name == "help" || name == "h") {
		// urfave/cli's help command of a group; a command without subcommands takes
		// "h" as an argument (a server or profile may be named h)
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

// flagValues remembers the value each single-value flag was given, so that a second,
// different value is a usage error rather than a silent choice (U2). List flags
// (--servers, --env, --arg, …) take repeats.
type flagValues map[cli.Flag]string

func (fv flagValues) add(f cli.Flag, value string) error {
	if f == nil || !singleValue(f) {
		return nil
	}
	if old, ok := fv[f]; ok && old != value {
		name := f.Names()[0]
		return usagef("--%s is given twice with different values; give it once", name)
	}
	fv[f] = value
	return nil
}

// singleValue reports whether a flag holds one value (a repeat replaces it) rather
// than a list.
func singleValue(f cli.Flag) bool {
	switch f := f.(type) {
	case *cli.GenericFlag:
		switch f.Value.(type) {
		case *listValue, *pairValue, *argValue:
			return false
		}
	case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag, *cli.UintSliceFlag, *cli.Uint64SliceFlag:
		return false
	}
	return true
}
