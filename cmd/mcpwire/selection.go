package main

import (
	"slices"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

// selectionFlags are the flags of every command that writes a selection of servers
// into clients: which clients, scope and project, and which servers.
func selectionFlags() []cli.Flag {
	return []cli.Flag{
		listFlag("provider", "client to write (see mcpwire providers); repeat or a comma list for several, in one transaction"),
		&cli.StringFlag{Name: "scope", Usage: "project, local or user (default: the provider's usual scope)"},
		&cli.StringFlag{Name: "project", Usage: "project directory (default: the git work tree holding the current directory, else the current directory)"},
		listFlag("servers", "servers to write (comma list or repeat; not with --profile)"),
		&cli.StringFlag{Name: "profile", Usage: "write a profile's servers and tool filters (__all__ = every server)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "print each destination and a diff; write nothing"},
	}
}

// flagPolicy reads --strict-credentials / --no-credentials (P3).
func flagPolicy(c *cli.Context) (*policy.Level, error) {
	strict, none := c.Bool("strict-credentials"), c.Bool("no-credentials")
	switch {
	case strict && none:
		return nil, usagef("--strict-credentials and --no-credentials cannot be used together")
	case strict:
		l := policy.References
		return &l, nil
	case none:
		l := policy.None
		return &l, nil
	}
	return nil, nil
}

// provider resolves --provider (V2: unknown names are a usage error).
func provider(name string) (*providers.Provider, error) {
	p, ok := providers.Get(name)
	if !ok {
		return nil, unknownProvider(name)
	}
	return p, nil
}

// providerList resolves the names of inject's --provider (repeats and comma lists,
// U2): each once, in the order given; an unknown one, or none without --all, is a
// usage error (V2).
func providerList(names []string, all bool) ([]*providers.Provider, error) {
	if len(names) == 0 && !all {
		return nil, unknownProvider("")
	}
	var out []*providers.Provider
	for _, n := range names {
		p, err := provider(n)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// scopeFlag reads --scope.
func scopeFlag(c *cli.Context) (providers.Scope, error) {
	s := providers.Scope(c.String("scope"))
	if s != "" && !slices.Contains(providers.AllScopes, s) {
		return "", usagef("--scope must be project, local or user, not %q", s)
	}
	return s, nil
}

// selection resolves --profile or --servers into server names and filters. Both
// together are a usage error (U2); a name no layer defines is refused with a
// suggestion (U1).
func selection(c *cli.Context, reg *registry.Registry, required bool) (names []string, filters map[string]*registry.Filters, profile string, err error) {
	return selectionOf(c, reg, required, true)
}

// selectionOf is selection; defined=false accepts --servers names no layer defines
// (uninject removes entries of servers deleted from the registry).
func selectionOf(c *cli.Context, reg *registry.Registry, required, defined bool) (names []string, filters map[string]*registry.Filters, profile string, err error) {
	if c.IsSet("profile") && c.IsSet("servers") {
		return nil, nil, "", usagef("--profile and --servers cannot be used together: a profile brings its own servers (add one to it with mcpwire profile edit NAME --add-server SERVER)")
	}
	if profile = c.String("profile"); profile != "" {
		if profile == registry.AllServers {
			return reg.ServerNames(), nil, profile, nil
		}
		r, err := reg.Resolve(profile)
		if err != nil {
			return nil, nil, "", err
		}
		return r.Servers, r.Filters, profile, nil
	}
	if names = list(c, "servers"); len(names) > 0 {
		if !defined {
			return names, nil, "", nil
		}
		if err := reg.CheckServers(names, "servers not defined in any configuration layer"); err != nil {
			return nil, nil, "", err
		}
		return names, nil, "", nil
	}
	if required {
		return nil, nil, "", usagef("choose servers with --profile NAME or --servers a,b (--profile __all__ for every server)")
	}
	return nil, nil, "", nil
}
