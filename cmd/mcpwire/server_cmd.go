package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

func serverFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "type", Usage: "stdio, http or sse (default: stdio with --command, else http)"},
		&cli.StringFlag{Name: "command", Usage: "program to start (stdio)"},
		argFlag("arg", "one argument of the command (repeat for more)"),
		pairFlag("env", `literal environment value K=V; repeat, or a comma list A=1,B=2 (never split when a value holds "=": DSN=host=db,user=me is one value)`),
		pairFlag("env-from", "pass the client's variable VAR as the server's K: K=VAR"),
		&cli.StringFlag{Name: "url", Usage: "absolute http(s) URL (http, sse)"},
		pairFlag("header", `literal header K=V; repeat, or a comma list (never split when a value holds "=")`),
		pairFlag("header-env", "header whose whole value comes from a variable: HEADER=VAR"),
		&cli.StringFlag{Name: "bearer-env", Usage: "send Authorization: Bearer <value of VAR>"},
		&cli.StringFlag{Name: "cwd", Usage: "working directory of the server (stdio)"},
		&cli.StringFlag{Name: "description", Usage: "free text"},
	}
}

func serverCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "server",
		Usage: "define, change and list MCP servers",
		Subcommands: []*cli.Command{
			{
				Name: "add", Usage: "define a server", ArgsUsage: "NAME", Flags: serverFlags(),
				Action: func(c *cli.Context) error { return serverAdd(env, c) },
			},
			{
				Name: "update", Usage: "change the given fields of a server", ArgsUsage: "NAME", Flags: serverFlags(),
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
				Name: "show", Usage: "show one server and the layer file it comes from", ArgsUsage: "NAME", Flags: []cli.Flag{jsonFlag},
				Action: func(c *cli.Context) error { return serverShow(env, c) },
			},
		},
	}
}

// applyServerFlags copies the given flags into s and reports whether any was given.
func applyServerFlags(c *cli.Context, s *registry.Server, update bool) (bool, error) {
	if err := pairErr(c, "env", "env-from", "header", "header-env"); err != nil {
		return false, err
	}
	given := false
	str := func(name string, dst *string) {
		if c.IsSet(name) {
			*dst = c.String(name)
			given = true
		}
	}
	pair := func(name string, dst *map[string]string) {
		if m, ok := pairs(c, name); ok {
			*dst = m
			given = true
		}
	}
	oldType := s.Type
	str("type", &s.Type)
	str("command", &s.Command)
	if c.IsSet("arg") {
		s.Args = argList(c, "arg")
		given = true
	}
	pair("env", &s.Env)
	pair("env-from", &s.EnvFrom)
	str("url", &s.URL)
	pair("header", &s.Headers)
	pair("header-env", &s.HeaderEnv)
	str("bearer-env", &s.BearerEnv)
	str("cwd", &s.Cwd)
	str("description", &s.Description)
	if !c.IsSet("type") {
		switch {
		case c.IsSet("command"):
			s.Type = registry.Stdio
		case c.IsSet("url") && (!update || oldType == registry.Stdio):
			s.Type = registry.HTTP
		}
	}
	if update && s.Type != oldType && (s.Type == registry.Stdio) != (oldType == registry.Stdio) {
		// the other transport's fields go, unless this update gives them
		if s.Remote() {
			if !c.IsSet("command") {
				s.Command = ""
			}
			if !c.IsSet("arg") {
				s.Args = nil
			}
			if !c.IsSet("cwd") {
				s.Cwd = ""
			}
			if !c.IsSet("env") {
				s.Env = nil
			}
			if !c.IsSet("env-from") {
				s.EnvFrom = nil
			}
		} else {
			if !c.IsSet("url") {
				s.URL = ""
			}
			if !c.IsSet("header") {
				s.Headers = nil
			}
			if !c.IsSet("header-env") {
				s.HeaderEnv = nil
			}
			if !c.IsSet("bearer-env") {
				s.BearerEnv = ""
			}
		}
	}
	return given, nil
}

func serverAdd(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	s := &registry.Server{Name: c.Args().First()}
	if _, err := applyServerFlags(c, s, false); err != nil {
		return err
	}
	if err := reg.AddServer(s); err != nil {
		return err
	}
	printf(env.Stdout, "added server %q to %s\n", s.Name, reg.ServerOrigin(s.Name))
	return nil
}

func serverUpdate(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	cur, ok := reg.Server(name)
	if !ok {
		return fmt.Errorf("server %q not found", name)
	}
	probe := cur.Clone()
	given, err := applyServerFlags(c, probe, true)
	if err != nil {
		return err
	}
	if !given {
		return withHint(errNoUpdates, "give at least one of --type, --command, --arg, --env, --env-from, --url, --header, --header-env, --bearer-env, --cwd, --description")
	}
	if err := reg.UpdateServer(name, func(s *registry.Server) { applyServerFlags(c, s, true) }); err != nil {
		return err
	}
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
		printf(env.Stdout, "no servers defined (add one with mcpwire server add NAME --command CMD or --url URL)\n")
		return nil
	}
	// The text list needs only the target of each server: no full view (R8 redaction
	// happens in serverTarget).
	rows := make([][]string, 0, len(names)+1)
	rows = append(rows, []string{"NAME", "TYPE", "TARGET", "LAYER"})
	for _, n := range names {
		s, _ := reg.Server(n)
		rows = append(rows, []string{n, s.Type, serverTarget(s.URL, s.Command, s.Args), reg.ServerOrigin(n)})
	}
	return table(env.Stdout, "", rows)
}

func serverShow(env *Env, c *cli.Context) error {
	reg, err := env.registryFor(c, 1, "a server NAME")
	if err != nil {
		return err
	}
	name := c.Args().First()
	s, ok := reg.Server(name)
	if !ok {
		return fmt.Errorf("server %q not found", name)
	}
	v := viewServer(s, reg.ServerOrigin(name))
	if c.Bool("json") {
		return writeJSON(env.Stdout, v)
	}
	v.write(env.Stdout)
	return nil
}
