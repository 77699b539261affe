package main

import (
	"errors"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// buildVersion is set with -ldflags "-X main.buildVersion=v1.2.3" by release builds.
var buildVersion string

func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// versionLine is what `mcpwire version` and `mcpwire --version` print (U7).
func versionLine() string { return "mcpwire " + version() + "\n" }

// versionFlag is the global --version (U7). Like every global flag it may stand
// anywhere before "--"; it prints the version and runs nothing else.
var versionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version and exit"}

// errVersionShown ends a run whose --version was answered: exit 0.
var errVersionShown = errors.New("version shown")

// showVersion answers --version in the app's Before (which does not run while a
// command line is being completed).
func showVersion(env *Env, c *cli.Context) error {
	if !c.Bool(versionFlag.Name) {
		return nil
	}
	printf(env.Stdout, "%s", versionLine())
	return errVersionShown
}

func versionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, ""); err != nil {
				return err
			}
			if c.Bool("json") {
				return writeJSON(env.Stdout, map[string]string{"version": version()})
			}
			printf(env.Stdout, "%s", versionLine())
			return nil
		},
	}
}
