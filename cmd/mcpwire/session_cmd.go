package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/policy/redact"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

// sessionClients are the names and the commands of the clients session starts.
func sessionClients() (names, binaries []string) {
	for _, p := range write.SessionProviders() {
		names, binaries = append(names, p.Name), append(binaries, p.Binary)
	}
	return names, binaries
}

func sessionCommand(env *Env) *cli.Command {
	names, binaries := sessionClients()
	return &cli.Command{
		Name:      "session",
		Usage:     "launch " + strings.Join(binaries, " or ") + " with exactly a profile's servers, without touching your global config",
		ArgsUsage: "[-- CLIENT ARGS]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "provider", Usage: strings.Join(names, " or ")},
			&cli.StringFlag{Name: "profile", Usage: "profile to launch with"},
			&cli.BoolFlag{Name: "persist", Usage: "inject into the client's own file instead, then launch"},
			&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
			&cli.BoolFlag{Name: "strict-credentials", Usage: "credential policy references for this run"},
			&cli.BoolFlag{Name: "no-credentials", Usage: "credential policy none for this run"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be written and the launch command; write and launch nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return runSession(env, c) },
	}
}

func runSession(env *Env, c *cli.Context) error {
	if c.NArg() > 0 && !env.dashdash {
		return usagef("client arguments go after --: mcpwire session --provider P --profile X -- ARGS")
	}
	names, _ := sessionClients()
	if !c.IsSet("provider") || c.String("profile") == "" {
		return usagef("session needs --provider %s and --profile NAME", strings.Join(names, "|"))
	}
	p, err := provider(c.String("provider"))
	if err != nil {
		return err
	}
	if !slices.Contains(names, p.Name) {
		return usagef("session launches %s, not %s", strings.Join(names, " or "), p.Name)
	}
	level, err := flagPolicy(c)
	if err != nil {
		return err
	}
	dry := c.Bool("dry-run")
	if c.Bool("json") && !dry {
		return usagef("session --json needs --dry-run: a session hands the terminal to the client")
	}
	out := startJSON(env, c, "session", dry)
	var dr *fsys.DryRun
	if dry {
		env.FS, dr = env.writeFS(true) // the registry and every file are read and written through it
	}
	// The name becomes a directory (codex) or a file name (claude): check it before
	// any filesystem access, the registry's included (X1).
	profile := c.String("profile")
	if !write.ValidRuntimeName(profile) {
		return runtimeNameError(p.Name, profile)
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
	if c.Bool("persist") {
		// a persistent inject writes the client's own file: not into $HOME or / as a
		// project unless named (U4)
		if err := env.checkProject(project, c.IsSet("project"), projectScopes("", p)); err != nil {
			return err
		}
	}
	req := write.Request{
		Registry: reg, Provider: p, Project: project, Servers: res.Servers, Filters: res.Filters, Profile: profile,
		Policy: level, PolicyEnv: env.Getenv(policy.EnvVar), Env: env.pathEnv(project), Warn: env.warn, DryRun: dry,
		Inject: write.InjectOptions{Sync: true}, // --persist injects as inject --profile does (B7)
	}
	sl, err := sessionLaunch(env, c, p, req, profile)
	if err != nil {
		return err
	}
	if sl.cleanup != nil {
		defer sl.cleanup()
	}
	launch := sl.launch
	launch.Args = append(launch.Args, env.passthrough...)
	if dry {
		// the references, never their values: nothing is resolved in a dry run
		return sessionDryRun(env, out, dr, reg, writeDest{Provider: p.Name, Scope: sl.scope, Written: req.Servers}, write.SecretLaunch(p, launch, sl.secrets))
	}
	secrets, err := resolveVars(env, sl.secrets)
	if err != nil {
		return fmt.Errorf("launch refused: %w", err)
	}
	launch = write.SecretArgs(p, launch, sl.secrets)
	return run(env, launch.Binary, launch.Args, append(slices.Clip(launch.Env), secrets...))
}

// runtimeNameError refuses a profile name that a session or a Codex runtime home
// cannot take (X1): the name becomes a directory or a file name there, so it must be
// [a-z0-9-]+. A layer may hold other names (L14, "team/dev"): only this use of such a
// profile is refused, and the hint says how to get one of a usable name.
func runtimeNameError(provider, name string) error {
	extend := providers.Launch{Binary: "mcpwire", Args: []string{"profile", "add", "NAME", "--extends", name}}
	own := providers.Launch{Binary: "mcpwire", Args: []string{"inject", "--provider", provider, "--profile", name}}
	return withHint(fmt.Errorf("invalid profile name %q for a session or a runtime home", name),
		"a session and a runtime home are named after the profile, which holds lowercase letters, digits and '-' only: add a profile of such a name that extends it ("+extend.String()+"), or write the client's own file ("+own.String()+")")
}

// sessionDryRun says what session would write and launch (U5): the files, the diff
// and the launch line, credentials hidden; with --json, the document.
func sessionDryRun(env *Env, out *jsonOut, dr *fsys.DryRun, reg *registry.Registry, d writeDest, l providers.Launch) error {
	layer := reg.Set().Write().Dir
	var files []string
	for _, in := range dr.Intents() {
		if in.Op == "write" {
			files = append(files, in.Path)
		}
	}
	shownBin, shown := redact.Launch(l.Binary, l.Args)
	l.Binary, l.Args = shownBin, shown
	if out == nil {
		printf(env.Stdout, "%s: would launch: %s\n", d.Provider, l.String())
		printDiff(env, dr, reg)
		return nil
	}
	for _, path := range clientFiles(files, layer) {
		d.Path, d.Changed = path, true
		out.rep.Destinations = append(out.rep.Destinations, d)
	}
	out.rep.Changed = files
	out.launch(l)
	return out.finish()
}

// sessionLaunched is what session starts: the launch, the scope of the file it
// wrote ("ephemeral" but with --persist), and what removes a temporary directory
// afterwards (nil when there is none).
type sessionLaunched struct {
	launch  providers.Launch
	scope   string
	cleanup func()
	// secrets are the variables standing for remote servers' secrets, "VAR=REF" (S2):
	// resolved into the client's environment at launch.
	secrets []string
}

// sessionLaunch prepares what session starts: the client on its own file (--persist),
// in a runtime home, or on an ephemeral file it loads alone.
func sessionLaunch(env *Env, c *cli.Context, p *providers.Provider, req write.Request, profile string) (sessionLaunched, error) {
	switch {
	case c.Bool("persist"):
		res, err := write.Inject(env.FS, req)
		if err != nil {
			return sessionLaunched{}, fmt.Errorf("launch refused: %w", err)
		}
		return sessionLaunched{launch: providers.Launch{Binary: p.Binary}, scope: string(res.Scope), secrets: res.Secrets.Vars}, nil
	case write.HasRuntimeHome(p):
		rt, err := write.RuntimeHome(env.FS, req, profile)
		if err != nil {
			return sessionLaunched{}, fmt.Errorf("launch refused: %w", err)
		}
		if rt.LoginLinked != "" { // X3: said once, when linked
			printf(env.Stderr, "%s: linked %s to your login, so you stay logged in; for a role with an account of its own, put its own %s there instead\n",
				p.Name, rt.LoginLinked, filepath.Base(rt.LoginLinked))
		}
		return sessionLaunched{launch: rt.Launch, scope: ephemeralScope, secrets: rt.Secrets.Vars}, nil
	}
	eph, err := write.Ephemeral(env.FS, req, "")
	if err != nil {
		return sessionLaunched{}, fmt.Errorf("launch refused: %w", err)
	}
	var cleanup func()
	if eph.Dir != "" {
		dir := eph.Dir
		cleanup = func() { fsys.RemoveAll(env.FS, dir) }
	}
	if eph.Settings != "" {
		if fi, err := env.FS.Stat(eph.Settings); err != nil || !fi.Mode().IsRegular() {
			if cleanup != nil {
				cleanup()
			}
			return sessionLaunched{}, fmt.Errorf("launch refused: the tool-permission sidecar %s is missing", eph.Settings)
		}
	}
	// exactly the arguments inject --ephemeral prints (--strict-mcp-config included)
	return sessionLaunched{launch: *eph.Launch, scope: ephemeralScope, cleanup: cleanup, secrets: eph.Secrets.Vars}, nil
}

// run runs the client from PATH with the given arguments and environment changes
// (name, value pairs); its exit code becomes mcpwire's.
func run(env *Env, binary string, args []string, extra []string) error {
	path, err := exec.LookPath(binary)
	if err != nil {
		return withHint(fmt.Errorf("launch refused: %s not found on PATH", binary), "install the client, or put it on PATH")
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = env.Stdin, unguarded(env.Stdout), unguarded(env.Stderr)
	cmd.Env = mergeEnv(os.Environ(), extra)
	defer outliveInterrupt()()
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

// outliveInterrupt keeps a Ctrl-C from ending mcpwire while the client runs (the
// terminal sends it to both; the client decides what it means, and mcpwire waits to
// pass on its exit code and remove the temporary files) and returns the function that
// ends this. The signal is caught, not ignored: a caught signal is reset to its
// default action in a program mcpwire starts, an ignored one stays ignored, and a
// client without a handler of its own never saw Ctrl-C (H12). When mcpwire was
// started with SIGINT ignored (a background job), it stays so, for the client too.
func outliveInterrupt() (stop func()) {
	if signal.Ignored(os.Interrupt) {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// mergeEnv is base with the extra variables (name, value pairs) set.
func mergeEnv(base []string, extra []string) []string {
	out := make([]string, 0, len(base)+len(extra)/2)
	set := names(extra)
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(set, k) {
			out = append(out, kv)
		}
	}
	for i := 0; i+1 < len(extra); i += 2 {
		out = append(out, extra[i]+"="+extra[i+1])
	}
	return out
}

// names are the names of name, value pairs.
func names(pairs []string) []string {
	var out []string
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, pairs[i])
	}
	return out
}
