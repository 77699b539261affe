package main

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

func installCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "install",
		Usage:     "install the built-in aiwg server (or --profile/--servers) into a client, as you would by hand",
		ArgsUsage: "[TARGET] [PROJECT-DIR]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scope", Usage: "project, local or user (default: the target's usual scope)"},
			&cli.StringFlag{Name: "project", Usage: "project directory (default: the positional DIR, else the current directory)"},
			listFlag("servers", "install these registry servers instead of the built-in entry"),
			&cli.StringFlag{Name: "profile", Usage: "install a profile's servers instead of the built-in entry"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the destination, the migration and the diff; write nothing"},
			&cli.BoolFlag{Name: "force", Usage: "replace a same-named entry mcpwire did not write"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return runInstall(env, c) },
	}
}

// installTarget picks the target: the positional one, or for a bare install the
// deprecated default (I3).
func installTarget(env *Env, c *cli.Context) (target, dir string, err error) {
	args := c.Args().Slice()
	if len(args) > 2 {
		return "", "", usagef("install takes at most a TARGET and a PROJECT-DIR")
	}
	if len(args) > 0 {
		if _, ok := providers.Get(args[0]); ok {
			target, args = args[0], args[1:]
		} else if len(args) == 2 {
			return "", "", withHint(usagef("unknown install target %q", args[0]), providerHint(args[0]))
		}
	}
	if len(args) == 1 {
		dir = args[0]
		if target == "" {
			if fi, err := env.FS.Stat(absDir(env, dir)); err != nil || !fi.IsDir() {
				// a mistyped target must not install into the deprecated default
				return "", "", withHint(usagef("unknown install target %q, and no such project directory", dir), providerHint(dir))
			}
		}
	}
	if target != "" {
		return target, dir, nil
	}
	target, why := providers.BareTarget(c.String("scope") == string(providers.User), env.Getenv)
	env.warn(fmt.Sprintf("install without a target is deprecated; installing into %s (%s); name the target: mcpwire install %s", target, why, target))
	return target, dir, nil
}

// builtin is the built-in aiwg entry (I2): no env block, except AIWG_ROOT in user
// scope when it is set.
func builtin(env *Env, scope providers.Scope) *registry.Server {
	s := &registry.Server{Name: write.BuiltinName, Type: registry.Stdio, Command: "aiwg", Args: []string{"mcp", "serve"}}
	if root := env.Getenv("AIWG_ROOT"); root != "" && scope == providers.User {
		s.Env = map[string]string{"AIWG_ROOT": root}
	}
	return s
}

// installProject is install's project directory: the positional PROJECT-DIR or
// --project (not both), else the one U4 finds; explicit when one was given.
func installProject(env *Env, c *cli.Context, dir string) (project string, explicit bool, err error) {
	if dir != "" && c.IsSet("project") {
		return "", false, usagef("give the project directory once: as PROJECT-DIR or with --project")
	}
	project, explicit = projectDir(env, c), dir != "" || c.IsSet("project")
	if dir != "" {
		project = absDir(env, dir)
	}
	if explicit {
		err = checkProjectDir(env, project)
	}
	return project, explicit, err
}

// runInstall installs the built-in entry, or a profile's or --servers' servers, into
// a target (I1-I5, U9).
func runInstall(env *Env, c *cli.Context) error {
	out := startJSON(env, c, "install", c.Bool("dry-run"))
	name, dir, err := installTarget(env, c)
	if err != nil {
		return err
	}
	p, err := provider(name)
	if err != nil {
		return err
	}
	scope, err := scopeFlag(c)
	if err != nil {
		return err
	}
	if p.Install != nil && p.Install.OneFile {
		scope = "" // one file, whatever the scope (I1)
	}
	project, explicit, err := installProject(env, c, dir)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	names, filters, profile, err := selection(c, reg, false)
	if err != nil {
		return err
	}
	effScope := scope
	if effScope == "" {
		effScope = p.DefaultScope
	}
	if err := env.checkProject(project, explicit, effScope); err != nil { // U4
		return err
	}
	req := write.Request{
		Registry: reg, Provider: p, Scope: scope, Project: project, Servers: names, Filters: filters, Profile: profile,
		PolicyEnv: env.Getenv(policy.EnvVar), Env: env.pathEnv(project), Warn: env.warn, DryRun: c.Bool("dry-run"),
		Inject: write.InjectOptions{
			Force: c.Bool("force"), Ignored: gitIgnored(project),
			// as with inject, tool filters change only with --profile: installing the
			// built-in entry (or --servers) keeps the deny rules a profile wrote
			KeepFilters: profile == "",
		},
	}
	if len(names) == 0 {
		installBuiltin(env, &req, effScope)
	}
	if profile != "" {
		// a server the target cannot take (a remote one for a stdio-only client) is
		// skipped with a WARNING naming it, not a refusal of the whole install (U9)
		req.Inject.SkipUnsupported = true
	}
	if p.Manual() {
		return installManual(env, out, p, req)
	}
	if p.Install != nil && p.Install.Legacy != nil && slices.Contains(req.Servers, write.BuiltinName) {
		// the legacy entry moves only when an aiwg entry is installed in its place (I4)
		if paths, err := p.Install.Legacy.Candidates(env.pathEnv(project)); err == nil {
			req.Install.Legacy = paths[0]
		}
	}
	f, dr := env.writeFS(req.DryRun)
	res, err := writeInstall(env, f, req)
	if err != nil {
		return err
	}
	out.inject([]write.Request{req}, []*write.Result{res})
	if dr != nil && out == nil {
		printDiff(env, dr, reg)
	}
	return out.finish()
}

// installManual prints the steps for a client configured by hand; with --json, a
// note says to run without it for them.
func installManual(env *Env, out *jsonOut, p *providers.Provider, req write.Request) error {
	if err := printManual(env, p, req); err != nil {
		return err
	}
	if out != nil {
		out.rep.Notes = append(out.rep.Notes, p.Name+": "+p.Display+" has no config file mcpwire can write; run without --json for the steps to add the servers by hand")
	}
	return out.finish()
}

// writeInstall injects the request and says what happened: the legacy entry moved
// (I4), and how to restart a client that reads its file only when it starts.
func writeInstall(env *Env, f fsys.FS, req write.Request) (*write.Result, error) {
	p := req.Provider
	migrate := req.Install.Legacy != "" && write.LegacyEntry(env.FS, req.Install.Legacy)
	res, err := write.Inject(f, req)
	if err != nil {
		return nil, err
	}
	reportInject(env, res, req.DryRun)
	if migrate {
		verb := "moved"
		if req.DryRun {
			verb = "would move"
		}
		printf(env.Stdout, "%s: %s the legacy %q entry out of %s\n", p.Name, verb, write.BuiltinName, req.Install.Legacy)
	}
	if p.Install != nil && p.Install.Restart != "" && !req.DryRun && slices.Contains(res.Changed, res.Destination) {
		printf(env.Stdout, "restart %s to load the change (%s)\n", p.Display, p.Install.Restart)
	}
	return res, nil
}

// installBuiltin makes the request install the built-in entry (I2), unless the
// registry defines a server of its name, which replaces it.
func installBuiltin(env *Env, req *write.Request, scope providers.Scope) {
	p := req.Provider
	b := builtin(env, scope)
	if p.Manual() && b.Env != nil {
		// a connector takes a command and arguments only; AIWG_ROOT is a convenience
		// aiwg can do without, so it is left out rather than refusing the install
		env.warn(fmt.Sprintf("%s: %s connectors take only a command and arguments; AIWG_ROOT is not passed to the %s connector", p.Name, p.Display, b.Name))
		b.Env = nil
	}
	req.Servers = []string{b.Name}
	if _, defined := req.Registry.Server(b.Name); !defined { // a registry "aiwg" replaces the built-in entry (I2)
		req.Install = write.InstallOptions{Extra: []*registry.Server{b},
			Exempt: map[string]map[string]bool{b.Name: {"AIWG_ROOT": true}}} // P8: this key, this entry only
		if _, err := exec.LookPath(b.Command); err != nil { // U9
			env.warn(fmt.Sprintf("%s: %s is not on PATH: %s cannot start the %s server until it is (install aiwg, or put it on PATH)", p.Name, b.Command, p.Display, b.Name))
		}
	}
}

// absDir makes a positional directory absolute against the working directory.
func absDir(env *Env, dir string) string {
	if filepath.IsAbs(dir) {
		return filepath.Clean(dir)
	}
	return filepath.Join(env.Cwd, dir)
}

// gitIgnored returns the check of whether git ignores (and does not track) a file of
// project: render decides what the answer means for the client.
func gitIgnored(project string) render.IgnoreCheck {
	return func(path string) (render.IgnoreState, error) {
		rel, err := filepath.Rel(project, path)
		if err != nil {
			return render.GitFailed, err
		}
		rel = filepath.ToSlash(rel)
		// one git process answers the usual case: with the index, check-ignore reports a
		// path ignored only when it is not tracked either; the others find out why not
		if exec.Command("git", "-C", project, "check-ignore", "-q", rel).Run() == nil {
			return render.GitIgnores, nil
		}
		err = exec.Command("git", "-C", project, "check-ignore", "-q", "--no-index", rel).Run()
		if err == nil {
			if exec.Command("git", "-C", project, "ls-files", "--error-unmatch", rel).Run() == nil {
				return render.GitTracks, nil
			}
			return render.GitIgnores, nil
		}
		if errors.Is(err, exec.ErrNotFound) {
			return render.NoGit, nil
		}
		if exec.Command("git", "-C", project, "rev-parse", "--is-inside-work-tree").Run() != nil {
			return render.NotCheckout, nil
		}
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			return render.GitWouldCommit, nil
		}
		return render.GitFailed, err
	}
}
