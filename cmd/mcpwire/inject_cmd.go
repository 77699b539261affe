package main

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/urfave/cli/v2"
)

func injectCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "inject",
		Usage: "write servers into a client's own config file",
		Flags: append(selectionFlags(),
			&cli.BoolFlag{Name: "all", Usage: "re-inject every provider recorded in the registry's injectedProviders"},
			&cli.BoolFlag{Name: "ephemeral", Usage: "write a standalone per-run config instead of the client's file"},
			&cli.StringFlag{Name: "out", Usage: "path of the --ephemeral output"},
			&cli.BoolFlag{Name: "strict-credentials", Usage: "credential policy references for this run"},
			&cli.BoolFlag{Name: "no-credentials", Usage: "credential policy none for this run"},
			&cli.BoolFlag{Name: "clear-tool-filters", Usage: "write no tool filters (removes the deny rules mcpwire added)"},
			&cli.BoolFlag{Name: "force", Usage: "replace same-named entries mcpwire did not write"},
			&cli.BoolFlag{Name: "skip-unsupported", Usage: "skip, with a warning, the servers a client cannot take instead of refusing"},
			&cli.BoolFlag{Name: "check", Usage: "print the diff as --dry-run does and write nothing; exit 1 when a file would change (CI)"},
			jsonFlag,
		),
		Action: func(c *cli.Context) error { return runInject(env, c) },
	}
}

func (e *Env) pathEnv(project string) providers.PathEnv {
	return providers.PathEnv{GOOS: runtime.GOOS, Home: e.Home, Project: project, Getenv: e.Getenv, Exec: e.self()}
}

func runInject(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	flagLevel, err := flagPolicy(c)
	if err != nil {
		return err
	}
	scope, err := scopeFlag(c)
	if err != nil {
		return err
	}
	all := c.Bool("all")
	if all == c.IsSet("provider") {
		return usagef("give exactly one of --provider NAME and --all")
	}
	ps, err := providerList(list(c, "provider"), all)
	if err != nil {
		return err
	}
	if c.Bool("ephemeral") {
		if c.Bool("check") {
			return usagef("--check compares client files with what inject would write; it cannot be used with --ephemeral")
		}
		if all {
			return usagef("--ephemeral writes one provider's config; it cannot be used with --all")
		}
		if len(ps) > 1 {
			return usagef("--ephemeral writes one provider's config; give one --provider")
		}
		if c.IsSet("scope") {
			// the output is a standalone file of no scope: a scope given with it
			// would be silently ignored (H11)
			return withHint(usagef("--ephemeral writes a standalone file of no scope; it cannot be used with --scope"),
				"to write into the client's own file at that scope, leave out --ephemeral")
		}
		return runEphemeral(env, c, ps[0], flagLevel)
	}
	if c.IsSet("out") {
		return usagef("--out needs --ephemeral")
	}
	if all && (c.IsSet("scope") || c.IsSet("project")) {
		return usagef("--all re-injects the files mcpwire recorded, each in its own scope and project; --scope and --project cannot be used with it")
	}
	check := c.Bool("check")
	dry := c.Bool("dry-run") || check
	out := startJSON(env, c, "inject", dry)
	proj, err := project(env, c)
	if err != nil {
		return err
	}
	if !all {
		if err := env.checkProject(proj, c.IsSet("project"), projectScopes(scope, ps...)); err != nil {
			return err
		}
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	f, dr := env.writeFS(dry)
	base := write.Request{
		Registry: reg, Scope: scope, Project: proj, WorkDir: env.Cwd, Policy: flagLevel,
		PolicyEnv: env.Getenv(policy.EnvVar), Env: env.pathEnv(proj), Warn: env.warn, DryRun: dry,
	}
	reqs, err := injectRequests(env, c, f, base, ps, all)
	if err != nil {
		return err
	}
	var results []*write.Result
	var refused []string
	if check {
		results, refused, err = checkAll(env, f, reqs)
	} else {
		results, err = writeAll(env, f, reqs, dry)
	}
	if err != nil {
		return skipHint(err, c.Bool("skip-unsupported"))
	}
	out.inject(reqs, results)
	if dry && out == nil {
		printDiff(env, dr, reg)
	}
	if !check {
		return out.finish()
	}
	return checkVerdict(env, out, results, refused, reg.Set().Write().Dir)
}

// writeAll prepares every request, writes them as one transaction (W7), and says what
// each did; it returns the results, one per request.
func writeAll(env *Env, f fsys.FS, reqs []write.Request, dry bool) ([]*write.Result, error) {
	preps, err := write.PrepareAll(f, reqs)
	if err != nil {
		return nil, err
	}
	if err := write.Commit(f, preps, !dry); err != nil {
		return nil, err
	}
	results := make([]*write.Result, len(preps))
	for i, prep := range preps {
		reportInject(env, prep.Result, dry)
		results[i] = prep.Result
	}
	reportInputVars(env, results)
	return results, nil
}

// skipHint adds to a refusal of servers some clients cannot take the flag that skips
// them (H5), when it was not given.
func skipHint(err error, given bool) error {
	var one *write.RenderError
	var many write.RenderErrors
	var skip string
	switch {
	case given:
		return err
	case errors.As(err, &one):
		skip = "add --skip-unsupported to write the other servers and leave these out of " + one.Provider
	case errors.As(err, &many):
		skip = "add --skip-unsupported to write the other servers and leave these out of the clients that cannot take them"
	default:
		return err
	}
	var h hint.Hinter
	var hints []string
	if errors.As(err, &h) {
		hints = h.Hints()
	}
	return withHint(err, append(hints, skip)...)
}

// reportInputVars says once which variables stand for the inputs the clients written
// cannot ask for (T3): the person sets them where those clients start.
func reportInputVars(env *Env, results []*write.Result) {
	var vars, clients []string
	for _, r := range results {
		if len(r.InputVars) > 0 {
			vars = providers.AppendNew(vars, r.InputVars)
			clients = providers.AppendNew(clients, []string{r.Provider})
		}
	}
	sayInputVars(env, clients, vars)
}

// sayInputVars is the line of reportInputVars.
func sayInputVars(env *Env, clients, vars []string) {
	if len(vars) == 0 {
		return
	}
	where := "they start"
	if len(clients) == 1 {
		where = "it starts"
	}
	printf(env.Stdout, "%s cannot ask for inputs: set %s where %s\n", strings.Join(clients, ", "), strings.Join(vars, ", "), where)
}

// injectRequests builds one request per provider of --provider (U2: one
// transaction), or those of --all, from base and the selection.
func injectRequests(env *Env, c *cli.Context, f fsys.FS, base write.Request, ps []*providers.Provider, all bool) ([]write.Request, error) {
	names, filters, profile, err := selection(c, base.Registry, !all)
	if err != nil {
		return nil, err
	}
	// Tool filters change only with --profile or --clear-tool-filters; otherwise the
	// filters already written are kept (the request carries none).
	base.Filters, base.Profile = filters, profile
	// --profile makes the injection a sync of what mcpwire owns there (B7); --servers
	// stays additive
	base.Inject = write.InjectOptions{Force: c.Bool("force"), Ignored: gitIgnored(base.Project),
		KeepFilters: profile == "" && !c.Bool("clear-tool-filters"), Sync: profile != "", SkipRefused: c.Bool("skip-unsupported")}
	if c.Bool("clear-tool-filters") {
		base.Filters = nil
	}
	if all {
		return allRequests(env, f, base.Registry, base, names)
	}
	reqs := make([]write.Request, len(ps))
	for i, p := range ps {
		reqs[i] = base
		reqs[i].Provider, reqs[i].Servers = p, names
	}
	return reqs, nil
}

// allRequests builds the requests of inject --all: for every provider recorded in
// injectedProviders, one per client file its ownership records (C6) name, in that
// file's own scope and project, with the recorded entries that are still registry
// servers injected into it (or the selection, when --profile/--servers is given). A
// provider with no record gets its user-scope file when that is its default scope,
// with the servers recorded for it; otherwise it is skipped with a WARNING.
func allRequests(env *Env, f fsys.FS, reg *registry.Registry, base write.Request, selected []string) ([]write.Request, error) {
	recorded, err := render.RecordedDestinations(f, reg.Set().Write().Dir)
	if err != nil {
		return nil, err
	}
	// the recorded entries that are still registry servers with an injection receipt
	// for the provider (L7: not those defined only in a lower layer)
	choose := func(provider string, servers []string) []string {
		if base.Profile != "" || len(selected) > 0 {
			return selected
		}
		receipts := reg.ServersInjectedInto(provider)
		var out []string
		for _, n := range servers {
			if slices.Contains(receipts, n) {
				out = append(out, n)
			}
		}
		return out
	}
	var out []write.Request
	for _, name := range reg.InjectedProviders() {
		p, ok := providers.Get(name)
		if !ok {
			env.warn(fmt.Sprintf("the registry records an injection into unknown provider %q; skipped", name))
			continue
		}
		var dests []render.RecordedDestination
		for _, d := range recorded {
			if slices.Contains(d.Providers, p.Name) {
				dests = append(dests, d)
			}
		}
		if len(dests) == 0 {
			// no record (written before records, or the record was deleted): a user-scope
			// client's own file; a project file cannot be guessed from here
			if p.DefaultScope != providers.User || p.User == nil {
				env.warn(fmt.Sprintf("%s: no ownership record says which project file mcpwire wrote; skipped (re-inject with inject --provider %s --project DIR)", p.Name, p.Name))
				continue
			}
			r := base
			r.Provider, r.Scope, r.Inject = p, providers.User, skipping(base.Inject, base.Inject.Ignored)
			r.Servers = choose(name, reg.ServersInjectedInto(name))
			out = append(out, r)
			continue
		}
		for _, d := range dests {
			if r, ok := recordedRequest(env, f, base, p, d); ok {
				if r.Servers = choose(name, d.Servers); len(r.Servers) > 0 {
					out = append(out, r)
				}
			}
		}
	}
	if len(out) == 0 {
		printf(env.Stdout, "no injections recorded: nothing to do (inject --provider P first)\n")
	}
	return out, nil
}

// recordedRequest is the request of inject --all for one recorded destination of p:
// in that file's own scope and project — said by the record for a project's own
// servers in a file shared by every project (Claude Code's local scope), by the path
// otherwise. A file that is none of p's, or a project that no longer exists, is
// skipped with a WARNING.
func recordedRequest(env *Env, f fsys.FS, base write.Request, p *providers.Provider, d render.RecordedDestination) (write.Request, bool) {
	scope, project, ok := d.Scope, d.Project, d.Scope != ""
	if !ok {
		scope, project, ok = render.ScopeOf(p, d.Path, env.pathEnv(""))
	}
	if !ok || p.Dest(scope) == nil {
		env.warn(fmt.Sprintf("%s: %s is neither %s's user-scope file here nor one of its project files; skipped (ownership record %s)", p.Name, d.Path, p.Display, d.Record))
		return write.Request{}, false
	}
	r := base
	r.Provider, r.Scope, r.Inject = p, scope, skipping(base.Inject, base.Inject.Ignored)
	if scope != providers.User {
		if fi, err := f.Stat(project); err != nil || !fi.IsDir() {
			env.warn(fmt.Sprintf("%s: project directory %s of %s no longer exists; skipped", p.Name, project, d.Path))
			return write.Request{}, false
		}
		r.Project, r.Env, r.Inject = project, env.pathEnv(project), skipping(base.Inject, gitIgnored(project))
	}
	return r, true
}

// skipping is inject --all's options: a server a client cannot take is skipped with a
// warning (V7), and project files are checked with ignored.
func skipping(o write.InjectOptions, ignored render.IgnoreCheck) write.InjectOptions {
	o.SkipUnsupported, o.Ignored = true, ignored
	return o
}

// reportInject says what an injection did: the file written (or up to date), the
// other clients reading it (V10), the deny rules, then the notes.
func reportInject(env *Env, r *write.Result, dry bool) {
	defer func() {
		for _, n := range r.Notes {
			printf(env.Stdout, "%s: %s\n", r.Provider, n)
		}
	}()
	if r.Destination == "" {
		return
	}
	// what the transaction changed, in a dry run as in a real one
	changed := slices.Contains(r.Changed, r.Destination)
	verb, removed := "wrote", "removed"
	if dry {
		verb, removed = "would write", "would remove"
	}
	defer func() {
		if len(r.Unselected) > 0 { // B7
			why := "mcpwire wrote them, and the profile does not select them"
			if len(r.Unselected) == 1 {
				why = "mcpwire wrote it, and the profile does not select it"
			}
			printf(env.Stdout, "%s: %s %s from %s (%s)\n", r.Provider, removed, strings.Join(r.Unselected, ", "), r.Destination, why)
		}
		reportOriginals(env, r.Provider, r.Destination, r.TakenOver, r.Restored, dry)
		reportRemovedFiles(env, r.Provider, r.RemovedFiles, dry)
	}()
	if len(r.Written) == 0 {
		if !changed && len(r.Notes) == 0 {
			printf(env.Stdout, "%s: no servers to write to %s: nothing written\n", r.Provider, r.Destination)
		}
		return
	}
	if changed {
		printf(env.Stdout, "%s: %s %s to %s (%s scope)\n", r.Provider, verb, strings.Join(r.Written, ", "), r.Destination, r.Scope)
	} else {
		printf(env.Stdout, "%s: %s is up to date (%s)\n", r.Provider, r.Destination, strings.Join(r.Written, ", "))
	}
	if len(r.Readers) > 0 {
		printf(env.Stdout, "%s: %s is read by %s too\n", r.Provider, r.Destination, strings.Join(r.Readers, ", "))
	}
	if r.Settings != "" && slices.Contains(r.Changed, r.Settings) {
		printf(env.Stdout, "%s: %s tool deny rules to %s\n", r.Provider, verb, r.Settings)
	}
}

// printDiff prints the dry run's diff, with every known secret value hidden.
func printDiff(env *Env, dr *fsys.DryRun, reg *registry.Registry) {
	printRedactedDiff(env, dr, reg)
}
