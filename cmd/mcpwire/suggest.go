package main

import (
	"slices"

	"github.com/mcpwire/mcpwire/internal/suggest"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/urfave/cli/v2"
)

// Suggestions for mistyped names (U1): a close name as "did you mean …?", otherwise
// the valid names (at most 20), on a hint line of a usage error.

// unknownProvider is the usage error of an unknown provider name (V2, U1). extra
// names values other than providers that are valid too ("*").
func unknownProvider(name string, extra ...string) error {
	return withHint(usagef("unknown provider %q", name), providerHint(name, extra...))
}

// providerHint suggests a provider (or alias, or one of extra) for a mistyped name:
// "did you mean …?", else the names, at most 20 (U1).
func providerHint(name string, extra ...string) string {
	names := append(slices.Clone(extra), providers.Names()...)
	all := slices.Clone(names)
	for _, n := range providers.Names() {
		all = append(all, providers.Aliases(n)...)
	}
	if near := suggest.Closest(name, all); len(near) > 0 {
		return suggest.Hint(name, all, "%q")
	}
	return suggest.Hint(name, names, "%q")
}

// unknownCommand is the usage error of an unknown command name among cmds; group
// names the parent command ("" at the top).
func unknownCommand(name, group string, cmds []*cli.Command) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			names = append(names, c.Name)
		}
	}
	if group == "" {
		return withHint(usagef("unknown command %q", name), suggest.Hint(name, names, "%q"))
	}
	return withHint(usagef("unknown command %q for %q", name, group), suggest.Hint(name, names, "%q"))
}

// flagHint suggests a flag for an unknown flag name (without dashes).
func flagHint(name string, flags []cli.Flag) string {
	var names []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 && !slices.Contains(names, "--"+n) {
				names = append(names, "--"+n)
			}
		}
	}
	return suggest.Hint("--"+name, names, "%s")
}
