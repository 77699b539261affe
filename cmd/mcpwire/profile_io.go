package main

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

// profileImport adds or updates the profiles of a file (R6), after checking the
// whole candidate graph across every layer.
func profileImport(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 1, "a FILE"); err != nil {
		return err
	}
	path := c.Args().First()
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Cwd, path)
	}
	in, err := registry.ReadProfiles(env.FS, path)
	if err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	added, updated, err := reg.ImportProfiles(in)
	if err != nil {
		return err
	}
	printf(env.Stdout, "imported %d profiles into %s (added: %s; updated: %s)\n", len(added)+len(updated),
		reg.Set().Write().Profiles.Path, orDash(strings.Join(added, ", ")), orDash(strings.Join(updated, ", ")))
	return nil
}

// profileExport writes one profile, or all, as a profile registry document to stdout
// or --out.
func profileExport(env *Env, c *cli.Context) error {
	if err := maxArgs(c, 1); err != nil {
		return err
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	out := map[string]*registry.Profile{}
	if c.NArg() == 1 {
		name := c.Args().First()
		p, ok := reg.Profile(name)
		if !ok {
			return reg.NoProfile(name)
		}
		out[name] = p
	} else {
		for _, n := range reg.ProfileNames() {
			out[n], _ = reg.Profile(n)
		}
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, map[string]any{"profiles": out}); err != nil {
		return err
	}
	if !c.IsSet("out") {
		_, err := env.Stdout.Write(buf.Bytes())
		return err
	}
	return writeOut(env, c.String("out"), buf.Bytes())
}
