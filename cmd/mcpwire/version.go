package main

import (
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
			printf(env.Stdout, "mcpwire %s\n", version())
			return nil
		},
	}
}
