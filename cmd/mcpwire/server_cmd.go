package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/limits"
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/inspect"
	"github.com/urfave/cli/v2"
)

func serverCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "server",
		Usage: "define, change and list MCP servers",
		Subcommands: []*cli.Command{
			{
				Name: "add", Usage: "define a server", ArgsUsage: "NAME [-- COMMAND ARG…] | [NAME] --from FILE|-|URL", Flags: append(serverFlags(), manifestFlags()...),
				Action: func(c *cli.Context) error { return serverAdd(env, c) },
			},
			{
				Name: "add-json", Usage: "define a server from one entry of a client's config, as its README shows it", ArgsUsage: "NAME JSON",
				Description: "JSON is one server entry in any JSON client's shape (Claude Code, Claude Desktop, Cursor,\n" +
					"VS Code, Windsurf, opencode, Gemini CLI, Copilot CLI …), alone or inside its mcpServers member;\n" +
					"- reads it from standard input. References such as ${VAR} become --env-from/--header-env.",
				Action: func(c *cli.Context) error { return serverAddJSON(env, c) },
			},
			{
				Name: "update", Usage: "change the given fields of a server", ArgsUsage: "NAME [-- COMMAND ARG…] | NAME --from FILE|-|URL", Flags: slices.Concat(serverFlags(), updateFlags(), manifestFlags()),
				Action: func(c *cli.Context) error { return serverUpdate(env, c) },
			},
			{
				Name: "remove", Aliases: []string{"rm"}, Usage: "remove a server from the registry (client files are untouched)", ArgsUsage: "NAME",
				Action: func(c *cli.Context) error { return serverRemove(env, c) },
			},
			{
				Name: "list", Aliases: []string{"ls"}, Usage: "list servers", Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error { return serverList(env, c) },
			},
			{
				Name: "show", Usage: "show one server and the layer file it comes from", ArgsUsage: "NAME", Flags: []cli.Flag{jsonFlag,
					&cli.BoolFlag{Name: "manifest", Usage: "print the server as a server.json (the MCP Registry's format)"},
					&cli.StringFlag{Name: "namespace", Value: "local", Usage: "with --manifest: the namespace of a server that has no manifest name (NAMESPACE/NAME)"},
				},
				Action: func(c *cli.Context) error { return serverShow(env, c) },
			},
		},
	}
}

func serverAdd(env *Env, c *cli.Context) error {
	if err := checkFromFlags(env, c); err != nil {
		return err
	}
	if c.IsSet("from") {
		return serverAddFrom(env, c)
	}
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	s := &registry.Server{Name: c.Args().First()}
	if _, err := applyServerFlags(env, c, s, false); err != nil {
		return err
	}
	if err := checkNewRefs(env, nil, s); err != nil {
		return err
	}
	if s.Command == "" && s.URL == "" && !c.IsSet("type") {
		return noTransport(c, s.Name)
	}
	if err := reg.AddServer(s); err != nil {
		return err
	}
	printf(env.Stdout, "added server %q to %s\n", s.Name, reg.ServerOrigin(s.Name))
	return nil
}

// serverAddJSON defines a server from a pasted client entry (B3), with import's
// policy check (B1).
func serverAddJSON(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 2, "a server NAME and its JSON entry")
	if err != nil {
		return err
	}
	name, raw := c.Args().Get(0), []byte(c.Args().Get(1))
	if c.Args().Get(1) == "-" {
		if raw, err = io.ReadAll(io.LimitReader(env.Stdin, limits.FileBytes+1)); err != nil {
			return err
		}
		if len(raw) > limits.FileBytes { // K1: what is read is bounded, a pipe too
			return limits.Size("standard input", limits.FileBytes)
		}
	}
	sn, err := inspect.ReadSnippet(name, raw)
	if err != nil {
		return err
	}
	if err := sn.Server.CheckRefNames(env.environ()); err != nil {
		return withHint(fmt.Errorf("server %q: %w", name, err),
			`write the name of the variable that holds the credential in the JSON ("${VAR}"), not its value`)
	}
	if len(sn.Dropped) > 0 {
		env.warn(fmt.Sprintf("not imported, mcpwire has no field for them: %s (%s)", name, strings.Join(sn.Dropped, ", ")))
	}
	if err := inspect.CheckImportPolicy(reg, env.Getenv(policy.EnvVar), []*registry.Server{sn.Server}); err != nil {
		var pe *policy.Error
		if errors.As(err, &pe) {
			pe.Hint = inspect.AddJSONHint
		}
		return err
	}
	if err := reg.AddServer(sn.Server); err != nil {
		return err
	}
	printf(env.Stdout, "added server %q to %s (read as %s's entry shape)\n", name, reg.ServerOrigin(name), sn.Provider.Display)
	return nil
}

func serverUpdate(env *Env, c *cli.Context) error {
	if err := checkFromFlags(env, c); err != nil {
		return err
	}
	if c.IsSet("from") {
		return serverUpdateFrom(env, c)
	}
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	cur, ok := reg.Server(name)
	if !ok {
		return reg.NoServer(name)
	}
	next := cur.Clone()
	given, err := applyServerFlags(env, c, next, true)
	if err != nil {
		return err
	}
	if err := checkNewRefs(env, cur, next); err != nil {
		return err
	}
	if !given && !c.IsSet("move-secrets-to") {
		return withHint(errNoUpdates, "give at least one of --type, --command, --arg, -- COMMAND ARG…, --env, --env-plain, --env-from, --env-secret, --url, --header, --header-plain, --header-env, --header-secret, --bearer-env, --bearer-secret, --cwd, --description, --unset-env, --unset-header, --move-secrets-to")
	}
	dry := c.Bool("dry-run")
	undo := func() error { return nil }
	var ms []moved
	if c.IsSet("move-secrets-to") {
		if err := next.Validate(); err != nil {
			return fmt.Errorf("server %q: %w", name, err) // checked before anything is stored
		}
		if undo, ms, err = moveSecrets(env, c.String("move-secrets-to"), []*registry.Server{next}, dry); err != nil {
			return fmt.Errorf("server %q: %w", name, err)
		}
		if len(ms) == 0 && !given {
			return fmt.Errorf("server %q holds no literal credential in env or headers: nothing to move", name)
		}
	}
	edit := func(s *registry.Server) { *s = *next.Clone() }
	if dry {
		after, changed, err := reg.PreviewUpdate(name, edit)
		if err != nil {
			return err
		}
		printUpdatePreview(env, reg, cur, after, changed)
		reportMoved(env, ms, true, "")
		return nil
	}
	if err := reg.UpdateServer(name, edit); err != nil {
		return inspect.Undone(err, undo)
	}
	reportMoved(env, ms, false, "client files still hold what inject wrote before: inject again to write the references")
	if !reg.InWriteLayer(name) {
		// the update changed nothing, so the lower-layer entry was not copied up (L4)
		printf(env.Stdout, "server %q unchanged (%s)\n", name, reg.ServerOrigin(name))
		return nil
	}
	printf(env.Stdout, "updated server %q in %s\n", name, reg.ServerOrigin(name))
	return nil
}

func serverRemove(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	if err := reg.RemoveServer(name); err != nil {
		return err
	}
	printf(env.Stdout, "removed server %q from %s\n", name, reg.Set().Write().Servers.Path)
	if err := pruneBundles(env, reg); err != nil {
		return err
	}
	if s, ok := reg.Server(name); ok {
		printf(env.Stdout, "server %q is now supplied by %s\n", s.Name, reg.ServerOrigin(name))
	} else if users := profilesListing(reg, name); len(users) > 0 {
		// one warning for all of them: using such a profile fails until the
		// server is defined again or the profile no longer lists it
		named := make([]string, len(users))
		for i, p := range users {
			named[i] = fmt.Sprintf("%q (%s)", p, reg.ProfileOrigin(p))
		}
		what, it, edit := "profile", "it", users[0]
		if len(users) > 1 {
			what, it, edit = "profiles", "them", "NAME"
		}
		env.warn(fmt.Sprintf("server %q is still listed by %s %s; using %s fails until the server is defined again or removed from %s (mcpwire profile edit %s --remove-server %s)",
			name, what, strings.Join(named, ", "), it, it, edit, name))
	}
	printf(env.Stdout, "client config files are unchanged; use mcpwire uninject to remove the server from a client\n")
	return nil
}

// relativeNote says, for a message about what the registry holds, that a layer was
// given relative to the working directory (H8): ` in /w/conf: AIWG_CONFIG "conf" is
// relative to the working directory, and from another directory names another`; ""
// when none was.
func relativeNote(reg *registry.Registry) string {
	for _, l := range reg.Layers() {
		if l.Relative {
			return fmt.Sprintf(" in %s: %s %q is relative to the working directory, and from another directory names another", l.Dir, reg.Set().Source, l.Given)
		}
	}
	return ""
}

// profilesListing names the profiles (of any layer), sorted, whose own servers list
// names the server.
func profilesListing(reg *registry.Registry, server string) []string {
	var out []string
	for _, n := range reg.ProfileNames() {
		if p, ok := reg.Profile(n); ok && slices.Contains(p.Servers, server) {
			out = append(out, n)
		}
	}
	return out
}

func serverList(env *Env, c *cli.Context) error {
	env.listing()
	reg, err := env.registryFor(c, 0, "")
	if err != nil {
		return err
	}
	names := reg.ServerNames()
	if c.Bool("json") {
		views := make([]serverView, len(names))
		for i, n := range names {
			s, _ := reg.Server(n)
			views[i] = viewServer(s, reg.ServerOrigin(n))
		}
		return writeJSON(env.Stdout, views)
	}
	if len(names) == 0 {
		printf(env.Stdout, "no servers defined%s (add one with mcpwire server add NAME --command CMD or --url URL)\n", relativeNote(reg))
		return nil
	}
	// The text list needs only the target of each server: no full view (R8 redaction
	// happens in serverTarget).
	// The rows are built on every core, in chunks: redacting each target (R8) is most
	// of what the list itself costs, and it runs after the load, on its own (issue 31).
	rows := make([][]string, len(names)+1)
	rows[0] = []string{"NAME", "TYPE", "TARGET", "LAYER"}
	cells := make([]string, 4*len(names)) // one allocation for every row's cells
	const chunk = 256
	layers.Parallel((len(names)+chunk-1)/chunk, func(c int) {
		for i := c * chunk; i < min(len(names), (c+1)*chunk); i++ {
			n := names[i]
			s, _ := reg.Server(n)
			row := cells[4*i : 4*i+4 : 4*i+4]
			row[0], row[1], row[2], row[3] = termtext.Quote(n), termtext.Quote(s.Type), serverTarget(s.URL, s.Command, s.Args), termtext.Quote(reg.ServerOrigin(n))
			rows[i+1] = row
		}
	})
	return table(env.Stdout, "", rows)
}

func serverShow(env *Env, c *cli.Context) error {
	env.listing()
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	s, ok := reg.Server(name)
	if !ok {
		return reg.NoServer(name)
	}
	if c.Bool("manifest") {
		if c.Bool("json") {
			return usagef("--manifest prints JSON already; drop --json")
		}
		return showManifest(env, c, s)
	}
	if c.IsSet("namespace") {
		return usagef("--namespace goes with --manifest")
	}
	v := viewServer(s, reg.ServerOrigin(name))
	if c.Bool("json") {
		return writeJSON(env.Stdout, v)
	}
	v.write(env.Stdout)
	return nil
}
