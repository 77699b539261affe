package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/render"
	"github.com/urfave/cli/v2"
)

func sessionCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "session",
		Usage:     "launch codex or claude with exactly a profile's servers, without touching your global config",
		ArgsUsage: "[-- CLIENT ARGS]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: "codex or claude-code"},
			&cli.StringFlag{Name: "profile", Usage: "profile to launch with"},
			&cli.BoolFlag{Name: "persist", Usage: "inject into the client's own file instead, then launch"},
			&cli.StringFlag{Name: "project", Usage: "project directory (default: the current directory)"},
			&cli.BoolFlag{Name: "strict-credentials", Usage: "credential policy references for this run"},
			&cli.BoolFlag{Name: "no-credentials", Usage: "credential policy none for this run"},
		},
		Action: func(c *cli.Context) error { return runSession(env, c) },
	}
}

func runSession(env *Env, c *cli.Context) error {
	if c.NArg() > 0 && !env.dashdash {
		return usagef("client arguments go after --: mcpwire session --provider P --profile X -- ARGS")
	}
	if !c.IsSet("provider") || c.String("profile") == "" {
		return usagef("session needs --provider codex|claude-code and --profile NAME")
	}
	p, err := provider(c.String("provider"))
	if err != nil {
		return err
	}
	if p.Name != "codex" && p.Name != "claude-code" {
		return usagef("session launches codex or claude-code, not %s", p.Name)
	}
	level, err := flagPolicy(c)
	if err != nil {
		return err
	}
	// The name becomes a directory (codex) or a file name (claude): check it before
	// any filesystem access, the registry's included (X1).
	profile := c.String("profile")
	if !render.ValidRuntimeName(profile) {
		return fmt.Errorf("invalid profile name %q: use lowercase letters, digits and '-'", profile)
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	res, err := reg.Resolve(profile)
	if err != nil {
		return err
	}
	project, err := project(env, c)
	if err != nil {
		return err
	}
	req := render.Request{
		Registry: reg, Provider: p, Project: project, Servers: res.Servers, Filters: res.Filters, Profile: profile,
		Policy: level, PolicyEnv: env.Getenv(policy.EnvVar), Env: env.pathEnv(project), Warn: env.warn,
	}
	args := env.passthrough
	extraEnv := map[string]string{}
	binary := "codex"
	var cleanup func()
	switch {
	case c.Bool("persist"):
		if _, err := render.Inject(env.FS, req); err != nil {
			return fmt.Errorf("launch refused: %w", err)
		}
		if p.Name == "claude-code" {
			binary = "claude"
		}
	case p.Name == "codex":
		rt, err := render.RuntimeHome(env.FS, req, profile)
		if err != nil {
			return fmt.Errorf("launch refused: %w", err)
		}
		extraEnv["HOME"], extraEnv["CODEX_HOME"] = rt.Home, rt.Home
	default:
		binary = "claude"
		eph, err := render.Ephemeral(env.FS, req, "")
		if err != nil {
			return fmt.Errorf("launch refused: %w", err)
		}
		if eph.Dir != "" {
			dir := eph.Dir
			cleanup = func() { os.RemoveAll(dir) }
		}
		if eph.Settings != "" {
			if fi, err := env.FS.Stat(eph.Settings); err != nil || !fi.Mode().IsRegular() {
				if cleanup != nil {
					cleanup()
				}
				return fmt.Errorf("launch refused: the tool-permission sidecar %s is missing", eph.Settings)
			}
		}
		// exactly the arguments inject --ephemeral prints (--strict-mcp-config included)
		args = append(eph.LaunchArgs(), args...)
	}
	if cleanup != nil {
		defer cleanup()
	}
	return launch(env, binary, args, extraEnv)
}

// launch runs the client from PATH with the given arguments and environment changes;
// its exit code becomes mcpwire's.
func launch(env *Env, binary string, args []string, extra map[string]string) error {
	path, err := exec.LookPath(binary)
	if err != nil {
		return withHint(fmt.Errorf("launch refused: %s not found on PATH", binary), "install the client, or put it on PATH")
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, env.Stdout, env.Stderr
	cmd.Env = mergeEnv(os.Environ(), extra)
	signal.Ignore(os.Interrupt)
	defer signal.Reset(os.Interrupt)
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code := ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal()) // as a shell reports a client killed by a signal
		}
		if code < 0 {
			code = 1
		}
		return &exitCodeError{code: code}
	}
	return err
}

func mergeEnv(base []string, extra map[string]string) []string {
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[k]; ok {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range extra {
		out = append(out, k+"="+v)
	}
	return out
}
