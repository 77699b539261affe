package main

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/limits"
	"github.com/mcpwire/mcpwire/internal/secretstore"
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/inspect"
	"github.com/urfave/cli/v2"
)

// fromAll is import --from's name for every client.
const fromAll = "all"

func importCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "import",
		Usage: "take the servers already in a client's own config file into the registry",
		Description: "Reads the client's file (every scope it has one for, or --scope) and adds its servers to the\n" +
			"write layer, references back as --env-from/--header-env/--bearer-env. A name a layer already\n" +
			"defines is never replaced. --from all reads every client's files; --adopt also makes the entries\n" +
			"mcpwire would write exactly as they are mcpwire's, so that inject updates and uninject removes them.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "client to read (see mcpwire providers), or all"},
			&cli.StringFlag{Name: "scope", Usage: "project, local or user (default: every scope with a file)"},
			&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
			listFlag("servers", "import only these entries (comma list or repeat)"),
			&cli.StringFlag{Name: "as-profile", Usage: "also add a profile NAME of the imported servers, with the clients' tool filters"},
			&cli.BoolFlag{Name: "adopt", Usage: "record the entries mcpwire would write as they are as mcpwire's (inject updates them, uninject removes them)"},
			moveFlag("secrets-to"),
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be imported and the diff; write nothing"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return runImport(env, c) },
	}
}

func runImport(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	from := c.String("from")
	if from == "" {
		return usagef("import needs --from PROVIDER (or --from all)")
	}
	scope, err := scopeFlag(c)
	if err != nil {
		return err
	}
	ps, err := importProviders(from, scope)
	if err != nil {
		return err
	}
	proj, err := project(env, c)
	if err != nil {
		return err
	}
	dry := c.Bool("dry-run")
	out := startJSON(env, c, "import", dry)
	f, dr := env.writeFS(dry)
	env.FS = f // the registry is written through the dry run too
	reg, err := env.registry()
	if err != nil {
		return err
	}
	files, unread, err := importFiles(env, f, ps, scope, proj, reg.Set().Write().Dir, from == fromAll)
	if err != nil {
		return err
	}
	if len(files) == 0 && unread > 0 {
		// every file found was skipped: nothing imported is no success (H9)
		what := "files"
		if unread == 1 {
			what = "file"
		}
		return fmt.Errorf("nothing imported: %d %s could not be read (see the warnings above)", unread, what)
	}
	req := inspect.ImportRequest{
		Registry: reg, Files: files, Servers: list(c, "servers"), Profile: c.String("as-profile"), Adopt: c.Bool("adopt"),
		PolicyEnv: env.Getenv(policy.EnvVar), Warn: env.warn, Environ: env.environ(),
	}
	var ms []moved
	if to := c.String("secrets-to"); c.IsSet("secrets-to") {
		if _, err := secretstore.ParseDestination(to); err != nil {
			return usagef("--secrets-to: %v", err)
		}
		req.MoveSecrets = func(add []*registry.Server) (func() error, error) {
			undo, m, err := moveSecrets(env, to, add, dry)
			ms = m
			return undo, err
		}
	}
	res, err := inspect.Import(f, req)
	if err != nil {
		return err
	}
	warnCopied(env, reg, res.Copied, dry)
	reportImport(env, res, reg.Set().Write().Servers.Path, dry)
	reportMoved(env, ms, dry, "the client files imported from still hold the literals: inject the servers there (--force for entries mcpwire did not write) to replace them with references, and rotate credentials that were committed")
	out.imported(res)
	if dry && out == nil {
		printDiff(env, dr, reg)
	}
	return out.finish()
}

// importProviders resolves --from: one provider with a file, or every one (all). An
// explicit --scope the provider has no file for is refused (V6).
func importProviders(from string, scope providers.Scope) ([]*providers.Provider, error) {
	if from == fromAll {
		var out []*providers.Provider
		for _, p := range providers.All() {
			if !p.Manual() {
				out = append(out, p)
			}
		}
		return out, nil
	}
	p, ok := providers.Get(from)
	if !ok {
		return nil, unknownProvider(from, fromAll)
	}
	if p.Manual() {
		return nil, fmt.Errorf("%s has no config file mcpwire can read; its servers are added by hand", p.Display)
	}
	if scope != "" && p.Dest(scope) == nil {
		return nil, &render.ScopeError{Provider: p, Scope: scope}
	}
	return []*providers.Provider{p}, nil
}

// importFiles opens the client files to import: every scope of each provider that
// has a file here (or the --scope given), each file once though several clients read
// it (V10: the project's .mcp.json is Claude Code's, Copilot CLI's and Qoder's). For
// one provider, a file that does not parse is refused, and finding none is an error
// naming where it looked; for all, a bad file is skipped with a warning, and counted
// (unread). A file refused as hostile input (K1, K2) is skipped with a warning either
// way, and counted; when it leaves one provider nothing to read, its refusal is the
// error.
func importFiles(env *Env, f fsys.FS, ps []*providers.Provider, scope providers.Scope, proj, layer string, all bool) (files []*render.ClientFile, unread int, err error) {
	var looked []string
	var refused error
	var skipped []string
	seen := map[string]bool{}
	cr := render.NewClientReader(f)
	for _, p := range ps {
		for _, s := range p.Scopes() {
			if scope != "" && s != scope {
				continue
			}
			pe := env.pathEnv(proj)
			if path, _, err := render.ClientPath(f, p, s, pe); err == nil && path != "" {
				looked = append(looked, path)
			}
			c, err := cr.Open(p, s, pe, layer)
			switch {
			case err != nil && (all || errors.Is(err, limits.ErrRefused)):
				// a file refused as hostile input (K1, K2) is skipped, the others read
				skipped = append(skipped, fmt.Sprintf("%s: skipped: %v", p.Name, err))
				refused = cmp.Or(refused, err)
				unread++
			case err != nil:
				return nil, 0, err
			case c != nil && !seen[c.Key()]:
				seen[c.Key()] = true
				files = append(files, c)
			}
		}
	}
	if len(files) == 0 && !all && refused != nil {
		skipped = skipped[1:] // the first is the error
	}
	for _, w := range skipped {
		env.warn(w)
	}
	if len(files) == 0 && !all {
		if refused != nil {
			return nil, 0, refused
		}
		return nil, 0, fmt.Errorf("%s: no config file here (looked at %s)", ps[0].Name, strings.Join(looked, ", "))
	}
	return files, unread, nil
}

// reportImport says what an import did: per file, the servers taken in and adopted;
// the servers already defined; the profile.
func reportImport(env *Env, res *inspect.ImportResult, layerFile string, dry bool) {
	verb, adopt, add := "imported", "adopted", "added"
	if dry {
		verb, adopt, add = "would import", "would adopt", "would add"
	}
	q, join := termtext.Quote, termtext.Join // names and paths as the files have them (K4)
	addedSet := setOf(res.Added)
	for _, fi := range res.Files {
		switch added := addedFrom(fi, addedSet); {
		case len(fi.Servers) == 0:
			printf(env.Stdout, "%s: nothing to import from %s (%s scope)\n", fi.Provider, q(fi.Path), fi.Scope)
			continue
		case len(added) == 0:
			// every entry is already defined as read: said once, below
			printf(env.Stdout, "%s: nothing new to import from %s (%s scope)\n", fi.Provider, q(fi.Path), fi.Scope)
		default:
			printf(env.Stdout, "%s: %s %s from %s (%s scope)\n", fi.Provider, verb, join(added, ", "), q(fi.Path), fi.Scope)
		}
		if len(fi.Adopted) > 0 {
			printf(env.Stdout, "%s: %s %s: inject updates them, uninject removes them\n", fi.Provider, adopt, join(fi.Adopted, ", "))
		}
	}
	if len(res.Added) > 0 {
		printf(env.Stdout, "%s servers %s to %s\n", add, join(res.Added, ", "), q(layerFile))
	}
	if len(res.Identical) > 0 {
		printf(env.Stdout, "already defined as read (unchanged): %s\n", join(res.Identical, ", "))
	}
	if res.Profile != "" {
		printf(env.Stdout, "%s profile %q\n", add, res.Profile)
	}
	if len(res.Files) == 0 {
		printf(env.Stdout, "no client config files found: nothing to import\n")
	}
}

// addedFrom are the entries of a file the import added to the registry: not those a
// layer already defines as read (noted once, as identical).
func addedFrom(fi inspect.ImportFile, added map[string]bool) []string {
	out := make([]string, 0, min(len(fi.Servers), len(added))) // K7: 200,000, not grown step by step
	for _, n := range fi.Servers {
		if added[n] {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil // none: as before, null in --json
	}
	return out
}

// setOf is the set of names.
func setOf(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// imported adds what an import did to the --json document.
func (j *jsonOut) imported(res *inspect.ImportResult) {
	if j == nil {
		return
	}
	added := setOf(res.Added)
	for _, fi := range res.Files {
		d := writeDest{Provider: fi.Provider, Scope: fi.Scope, Path: fi.Path, Written: addedFrom(fi, added), Adopted: fi.Adopted, Foreign: fi.Foreign}
		for _, s := range res.Skipped {
			if s.Path == fi.Path {
				d.Skipped = append(d.Skipped, s.Server)
			}
		}
		j.rep.Destinations = append(j.rep.Destinations, d)
	}
	j.rep.Added, j.rep.Identical, j.rep.Profile, j.rep.Changed = res.Added, res.Identical, res.Profile, res.Changed
	for _, s := range res.Skipped {
		j.rep.Skipped = append(j.rep.Skipped, skipJSON(s))
	}
}

// warnCopied says how many literal credentials an import copied into the registry,
// which, and into which file (H4): an import under the literal policy takes them as
// they are, and the person should know where they now are.
func warnCopied(env *Env, reg *registry.Registry, copied []policy.Violation, dry bool) {
	found := make([]string, 0, len(copied))
	for _, v := range copied {
		found = append(found, termtext.Quote(v.Server)+" ("+termtext.Quote(v.Field)+")")
	}
	if len(found) == 0 {
		return
	}
	verb := "copied"
	if dry {
		verb = "would copy"
	}
	env.warn(fmt.Sprintf("import: %s %s into %s as written: %s; to keep them out of it, reference variables (mcpwire server update NAME --env-from K=VAR / --header-env H=VAR)",
		verb, plural(len(found), "literal credential"), termtext.Quote(reg.Set().Write().Servers.Path), strings.Join(found, ", ")))
}
