package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// spec: H9 — no rule IDs in --help: what a flag or command does is said in words,
// for every command, subcommand and flag (a person reading --help has no SPEC).
func TestHelpHasNoRuleIDs(t *testing.T) {
	// a SPEC rule ID as help text must not show it: "(P11)", "(U8, L4)", "§0"
	ruleID := regexp.MustCompile(`\((?:[A-Z]{1,2}[0-9]{1,2}(?:[,;] ?)?)+\)|§[0-9]+|\b[A-Z][0-9]{1,2}\b`)
	env, _, _ := testEnv(t, nil)
	app := newApp(env, &runState{})
	check := func(where, text string) {
		if m := ruleID.FindString(text); m != "" {
			t.Errorf("%s: %q shows the rule ID %s", where, text, m)
		}
	}
	var walk func(path string, cmds []*cli.Command, flags []cli.Flag)
	walk = func(path string, cmds []*cli.Command, flags []cli.Flag) {
		for _, f := range flags {
			if u, ok := f.(interface{ GetUsage() string }); ok {
				check(path+" "+strings.Join(f.Names(), "/"), u.GetUsage())
			}
		}
		for _, c := range cmds {
			p := path + " " + c.Name
			check(p, c.Usage)
			check(p, c.Description)
			check(p, c.ArgsUsage)
			walk(p, c.Subcommands, c.Flags)
		}
	}
	check("mcpwire", app.Usage)
	walk("mcpwire", app.Commands, app.Flags)
}
