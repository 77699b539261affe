package main

import (
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

func serverPolicyCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "policy",
		Usage: "the organisation's server policy (mcp-policy.json)",
		Subcommands: []*cli.Command{{
			Name:  "compile",
			Usage: "render the server policy into each client's own admin files, laid out under DIR as the system paths per OS",
			Description: "Writes DIR/<os>/<system path> for Claude Code (managed-settings.json), GitHub Copilot\n" +
				"(managed-settings.json), Gemini CLI (system settings.json) and Codex (requirements.toml), and\n" +
				"warns where a client's matching differs from the policy's (docs/policy.md).",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Usage: "directory to write the files under", Required: true},
				jsonFlag,
			},
			Action: func(c *cli.Context) error { return runPolicyCompile(env, c) },
		}},
	}
}

func runPolicyCompile(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	files, warns, err := write.CompilePolicy(reg)
	if err != nil {
		return err
	}
	for _, w := range warns {
		env.warn(w)
	}
	if err := write.WritePolicyFiles(env.FS, absDir(env, c.String("out")), files); err != nil {
		return err
	}
	if c.Bool("json") {
		return writeJSON(env.Stdout, struct {
			Files []write.CompiledFile `json:"files"`
		}{nonNil(files)})
	}
	for _, f := range files {
		printf(env.Stdout, "%s (%s): %s (install as %s)\n", f.Provider, f.GOOS, termtext.Quote(f.Rel), termtext.Quote(f.System))
	}
	return nil
}
