package main

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/secretstore"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

// import --secrets-to and server update --move-secrets-to (S5): the literal
// credentials of servers move into a secret store, references stay. The store is
// written first, and each value read back; then the layer (one registry write); if
// that fails, what was stored is removed again. A crash in between leaves the value in
// the store and the literal in the layer, and the same command run again converges
// (secretstore.PutAll keeps a value that is already there).

// moveFlag is the flag of a command that moves literals into a store.
func moveFlag(name string) cli.Flag {
	return &cli.StringFlag{Name: name, Usage: "move the literal credentials of env and headers into a secret store, leaving references: " + secretstore.Destinations}
}

// moved is one literal moved (or to be moved): server, field and its reference.
type moved struct {
	Server, Field, Ref string
}

// moveSecrets gives every literal credential of servers a reference in the store
// named by to and, unless dry, stores it there (read back); then it changes the
// servers to hold the references. It returns what removes the values it stored (for a
// registry write that fails) and what moved.
func moveSecrets(env *Env, to string, servers []*registry.Server, dry bool) (func() error, []moved, error) {
	dest, err := secretstore.ParseDestination(to)
	if err != nil {
		return nil, nil, err
	}
	type use struct {
		s   *registry.Server
		l   registry.Literal
		ref string
	}
	var uses []use
	var items []secretstore.Item
	for _, s := range servers {
		for _, l := range s.Literals() {
			key := l.Key
			if l.Field == registry.FieldBearer {
				key = registry.FieldBearer
			}
			ref := dest.Ref(s.Name, key)
			uses = append(uses, use{s, l, ref})
			items = append(items, secretstore.Item{Ref: ref, Value: l.Value})
		}
	}
	undo := func() error { return nil }
	if !dry && len(items) > 0 {
		undo, _, err = secretstore.Env{Home: env.Home, AfterWrite: env.step}.PutAll(context.Background(), items)
		if err != nil {
			return nil, nil, fmt.Errorf("nothing moved: %w", err)
		}
	}
	var out []moved
	for _, u := range uses {
		u.s.UseSecret(u.l, u.ref)
		out = append(out, moved{u.s.Name, u.l.Field, u.ref})
	}
	return undo, out, nil
}

// reportMoved says what moved into the store, never a value, and then what is left to
// do (after, for a real run with something moved).
func reportMoved(env *Env, ms []moved, dry bool, after string) {
	verb := "moved"
	if dry {
		verb = "would move"
	}
	for _, m := range ms {
		printf(env.Stdout, "%s %s of %s into %s\n", verb, m.Field, m.Server, m.Ref)
	}
	if len(ms) > 0 && !dry {
		printf(env.Stdout, "%s\n", after)
	}
}
