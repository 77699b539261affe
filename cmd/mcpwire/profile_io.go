package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonc"
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
	data, err := env.FS.ReadFile(path)
	if err != nil {
		return err
	}
	in, err := decodeImport(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
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

// decodeImport accepts {"profiles": {…}} (with or without apiVersion/kind) or a bare
// map of profiles, in JSONC, after an optional byte order mark.
func decodeImport(data []byte) (map[string]*registry.Profile, error) {
	data, _ = bytes.CutPrefix(data, []byte(jsonc.BOM))
	doc, err := jsonc.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if doc.Members == nil {
		return nil, jsonc.NotObject(doc.Root.Kind())
	}
	raws := doc.Members
	if wrapped := wrapper(doc.Members); wrapped != nil {
		if wrapped.Members == nil {
			return nil, jsonc.NotObject(wrapped.Value.Kind(), "profiles")
		}
		raws = wrapped.Members
	}
	out := make(map[string]*registry.Profile, len(raws))
	for _, m := range raws { // the last of a name wins, as in encoding/json
		p := &registry.Profile{}
		if err := json.Unmarshal(m.Value, p); err != nil {
			return nil, fmt.Errorf("profile %q: %w", m.Name, err)
		}
		out[m.Name] = p
	}
	return out, nil
}

// wrapper returns the last "profiles" member when the top level holds it and
// nothing but the other members of a registry file, else nil.
func wrapper(top []jsonc.RawMember) *jsonc.RawMember {
	var profiles *jsonc.RawMember
	for i, m := range top {
		switch m.Name {
		case "profiles":
			profiles = &top[i]
		case "apiVersion", "kind", "credentialPolicy":
		default:
			return nil
		}
	}
	return profiles
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
