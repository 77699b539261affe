package main

import (
	"encoding/json"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

func profileCommand(env *Env) *cli.Command {
	filterFlags := []cli.Flag{
		&cli.StringFlag{Name: "provider", Usage: "provider key the tool filters apply to, or * for every provider", Value: "*"},
		listFlag("tool-deny", "tool patterns SERVER__TOOL to deny (TOOL may contain *)"),
		listFlag("tool-allow", "tool patterns SERVER__TOOL to allow (allowlist per server)"),
	}
	return &cli.Command{
		Name:  "profile",
		Usage: "named sets of servers with tool filters",
		Subcommands: []*cli.Command{
			{
				Name: "add", Usage: "define a profile", ArgsUsage: "NAME",
				Flags: append([]cli.Flag{
					listFlag("servers", "server names (or __all__)"),
					listFlag("extends", "base profiles, inherited base first"),
					&cli.StringFlag{Name: "description", Usage: "free text"},
				}, filterFlags...),
				Action: func(c *cli.Context) error { return profileAdd(env, c) },
			},
			{
				Name: "edit", Usage: "change a profile (filter patterns are added to the provider key's lists)", ArgsUsage: "NAME",
				Flags: append([]cli.Flag{
					listFlag("add-server", "servers to add"),
					listFlag("remove-server", "servers to remove"),
					listFlag("extends", "replace the base profiles"),
					&cli.StringFlag{Name: "description", Usage: "free text"},
					&cli.BoolFlag{Name: "clear-tool-filters", Usage: "drop the --provider key's filters"},
				}, filterFlags...),
				Action: func(c *cli.Context) error { return profileEdit(env, c) },
			},
			{
				Name: "remove", Aliases: []string{"rm"}, Usage: "remove a profile", ArgsUsage: "NAME",
				Action: func(c *cli.Context) error { return profileRemove(env, c) },
			},
			{
				Name: "list", Aliases: []string{"ls"}, Usage: "list profiles as stored", Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error { return profileList(env, c) },
			},
			{
				Name: "show", Usage: "show a profile", ArgsUsage: "NAME",
				Flags:  []cli.Flag{jsonFlag, &cli.BoolFlag{Name: "resolved", Usage: "show the merged view after extends"}},
				Action: func(c *cli.Context) error { return profileShow(env, c) },
			},
			{
				Name: "import", Usage: "add or update profiles from a file ({\"profiles\": {…}} or a bare map)", ArgsUsage: "FILE",
				Action: func(c *cli.Context) error { return profileImport(env, c) },
			},
			{
				Name: "export", Usage: "print profiles as {\"profiles\": {…}} (or write them with --out)", ArgsUsage: "[NAME]",
				Flags:  []cli.Flag{&cli.StringFlag{Name: "out", Usage: "write to this file instead of stdout"}},
				Action: func(c *cli.Context) error { return profileExport(env, c) },
			},
			{
				Name: "init-presets", Usage: "add the preset profiles minimal, dev, ops, research, incident and full where missing",
				Action: func(c *cli.Context) error { return profileInitPresets(env, c) },
			},
		},
	}
}

// providerKey validates --provider (V2: unknown names are a usage error).
func providerKey(c *cli.Context) (string, error) {
	p := c.String("provider")
	if p == "" {
		p = registry.AllProviders
	}
	n, ok := providers.Normalize(p)
	if !ok {
		return "", unknownProvider(p, registry.AllProviders)
	}
	return n, nil
}

func profileAdd(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 1, "a profile NAME"); err != nil {
		return err
	}
	key, err := providerKey(c)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	p := &registry.Profile{
		Name:        c.Args().First(),
		Description: c.String("description"),
		Servers:     list(c, "servers"),
		Extends:     list(c, "extends"),
	}
	deny, allow := list(c, "tool-deny"), list(c, "tool-allow")
	if len(deny) > 0 || len(allow) > 0 {
		p.ProviderOverrides = map[string]*registry.Filters{key: {ToolDeny: deny, ToolAllow: nilIfEmpty(allow)}}
	}
	if err := reg.AddProfile(p); err != nil {
		return err
	}
	printf(env.Stdout, "added profile %q to %s\n", p.Name, reg.ProfileOrigin(p.Name))
	return nil
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func profileEdit(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 1, "a profile NAME"); err != nil {
		return err
	}
	key, err := providerKey(c)
	if err != nil {
		return err
	}
	e := registry.ProfileEdit{
		AddServers:       list(c, "add-server"),
		RemoveServers:    list(c, "remove-server"),
		Provider:         key,
		ToolDeny:         list(c, "tool-deny"),
		ToolAllow:        list(c, "tool-allow"),
		ClearToolFilters: c.Bool("clear-tool-filters"),
	}
	if c.IsSet("extends") {
		e.Extends, e.SetExtends = list(c, "extends"), true
	}
	if c.IsSet("description") {
		d := c.String("description")
		e.Description = &d
	}
	if len(e.AddServers)+len(e.RemoveServers)+len(e.ToolDeny)+len(e.ToolAllow) == 0 && !e.SetExtends && e.Description == nil && !e.ClearToolFilters {
		return withHint(errNoUpdates, "give at least one of --add-server, --remove-server, --extends, --description, --tool-deny, --tool-allow, --clear-tool-filters")
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	name := c.Args().First()
	if err := reg.EditProfile(name, e); err != nil {
		return err
	}
	printf(env.Stdout, "updated profile %q in %s\n", name, reg.ProfileOrigin(name))
	return nil
}

func profileRemove(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 1, "a profile NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	if err := reg.RemoveProfile(name); err != nil {
		return err
	}
	printf(env.Stdout, "removed profile %q from %s\n", name, reg.Set().Write().Profiles.Path)
	if _, ok := reg.Profile(name); ok {
		printf(env.Stdout, "profile %q is now supplied by %s\n", name, reg.ProfileOrigin(name))
	}
	return nil
}

// profileView is a stored profile with the file it comes from.
type profileView struct {
	*registry.Profile
	Layer string `json:"layer"`
}

// MarshalJSON adds the layer to the profile's own encoding.
func (v profileView) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(v.Profile)
	if err != nil {
		return nil, err
	}
	layer, _ := json.Marshal(v.Layer)
	return append(append(b[:len(b)-1], []byte(`,"layer":`)...), append(layer, '}')...), nil
}

func profileList(env *Env, c *cli.Context) error {
	env.listing()
	reg, err := env.registryFor(c, 0, "")
	if err != nil {
		return err
	}
	names := reg.ProfileNames()
	views := make([]profileView, len(names))
	for i, n := range names {
		p, _ := reg.Profile(n)
		views[i] = profileView{Profile: p, Layer: reg.ProfileOrigin(n)}
	}
	if c.Bool("json") {
		return writeJSON(env.Stdout, views)
	}
	if len(views) == 0 {
		printf(env.Stdout, "no profiles defined%s (add one with mcpwire profile add NAME --servers a,b, or mcpwire profile init-presets)\n", relativeNote(reg))
		return nil
	}
	rows := [][]string{{"NAME", "SERVERS", "EXTENDS", "LAYER"}}
	for _, v := range views {
		rows = append(rows, []string{v.Name, orDash(strings.Join(v.Servers, ",")), orDash(strings.Join(v.Extends, ",")), v.Layer})
	}
	return table(env.Stdout, "", rows)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// resolvedView is a profile after extends.
type resolvedView struct {
	Name    string                       `json:"name"`
	Servers []string                     `json:"servers"`
	Filters map[string]*registry.Filters `json:"providerOverrides"`
	Layer   string                       `json:"layer"`
}

func profileShow(env *Env, c *cli.Context) error {
	env.listing()
	reg, err := env.registryFor(c, 1, "a profile NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	p, ok := reg.Profile(name)
	if !ok {
		return reg.NoProfile(name)
	}
	origin := reg.ProfileOrigin(name)
	if c.Bool("resolved") {
		r, err := reg.Resolve(name)
		if err != nil {
			return err
		}
		v := resolvedView{Name: name, Servers: r.Servers, Filters: r.Filters, Layer: origin}
		if v.Servers == nil {
			v.Servers = []string{}
		}
		if c.Bool("json") {
			return writeJSON(env.Stdout, v)
		}
		printf(env.Stdout, "%-12s %s\n", "name:", name)
		printf(env.Stdout, "%-12s %s\n", "servers:", orDash(strings.Join(r.Servers, ", ")))
		writeFilters(env, r.Filters)
		printf(env.Stdout, "%-12s %s\n", "layer:", origin)
		return nil
	}
	if c.Bool("json") {
		return writeJSON(env.Stdout, profileView{Profile: p, Layer: origin})
	}
	printf(env.Stdout, "%-12s %s\n", "name:", p.Name)
	if p.Description != "" {
		printf(env.Stdout, "%-12s %s\n", "description:", p.Description)
	}
	printf(env.Stdout, "%-12s %s\n", "servers:", orDash(strings.Join(p.Servers, ", ")))
	if len(p.Extends) > 0 {
		printf(env.Stdout, "%-12s %s\n", "extends:", strings.Join(p.Extends, ", "))
		if r, err := reg.Resolve(name); err == nil {
			printf(env.Stdout, "%-12s %s\n", "resolved:", orDash(strings.Join(r.Servers, ", ")))
		}
	}
	writeFilters(env, p.ProviderOverrides)
	if p.CreatedAt != "" {
		printf(env.Stdout, "%-12s %s\n", "created:", p.CreatedAt)
	}
	if p.UpdatedAt != "" {
		printf(env.Stdout, "%-12s %s\n", "updated:", p.UpdatedAt)
	}
	printf(env.Stdout, "%-12s %s\n", "layer:", origin)
	return nil
}

func writeFilters(env *Env, f map[string]*registry.Filters) {
	p := &registry.Profile{ProviderOverrides: f}
	for _, k := range p.OverrideKeys() {
		fl := f[k]
		if fl == nil {
			continue
		}
		if len(fl.ToolDeny) > 0 {
			printf(env.Stdout, "%-12s %s\n", "deny["+k+"]:", strings.Join(fl.ToolDeny, ", "))
		}
		if fl.ToolAllow != nil {
			printf(env.Stdout, "%-12s %s\n", "allow["+k+"]:", orDash(strings.Join(fl.ToolAllow, ", ")))
		}
	}
}

func profileInitPresets(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 0, "")
	if err != nil {
		return err
	}
	added, err := reg.InitPresets()
	if err != nil {
		return err
	}
	if len(added) == 0 {
		printf(env.Stdout, "every preset profile already exists\n")
		return nil
	}
	printf(env.Stdout, "added preset profiles %s to %s\n", strings.Join(added, ", "), reg.Set().Write().Profiles.Path)
	return nil
}
