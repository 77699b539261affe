package secretstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// Moving literal credentials into a store (S5): import --secrets-to and server update
// --move-secrets-to name a Destination; each literal gets a reference there (Ref), is
// stored and read back (PutAll), and only then does the caller write the layer. A crash
// between the two leaves the value in the store and the literal in the layer: run
// again, PutAll finds the same value where it would store it, keeps it, and the layer
// write follows.

// Destination is where literals move: a store and, optionally, where in it.
type Destination struct {
	Store secretref.Store
	// Where is pass's folder (default mcpwire), the keyring's service (default
	// mcpwire), or 1Password's vault (default Private).
	Where string
}

// Destinations names the forms ParseDestination takes, for messages.
const Destinations = "pass[:FOLDER], keyring[:SERVICE] or op[:VAULT]"

// ParseDestination reads pass[:FOLDER], keyring[:SERVICE] or op[:VAULT]. file: is
// not one: mcpwire writes no secret files.
func ParseDestination(s string) (Destination, error) {
	name, where, _ := strings.Cut(s, ":")
	d := Destination{Where: where}
	switch name {
	case "pass":
		d.Store = secretref.Pass
		if d.Where == "" {
			d.Where = "mcpwire"
		}
	case "keyring":
		d.Store = secretref.Keyring
		if d.Where == "" {
			d.Where = "mcpwire"
		}
	case "op":
		d.Store = secretref.OnePassword
		if d.Where == "" {
			d.Where = "Private"
		}
	default:
		return Destination{}, fmt.Errorf("unknown store: want %s", Destinations)
	}
	// the name's own check: a reference made here must parse
	if _, err := secretref.Parse(d.Ref("s", "K")); err != nil {
		return Destination{}, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

// Ref is the reference of a server's key (an env key, a header, "bearer") in d:
// pass:FOLDER/SERVER/KEY, keyring:SERVICE/SERVER/KEY,
// op://VAULT/mcpwire-SERVER-KEY/credential (characters 1Password's references do not
// take as -).
func (d Destination) Ref(server, key string) string {
	switch d.Store {
	case secretref.Pass:
		return "pass:" + d.Where + "/" + safePath(server) + "/" + safePath(key)
	case secretref.Keyring:
		return "keyring:" + d.Where + "/" + safePath(server) + "/" + safePath(key)
	}
	return "op://" + d.Where + "/mcpwire-" + opName(server) + "-" + opName(key) + "/credential"
}

// safePath keeps a name fit for a path segment (no "/", no leading "-" or ".").
func safePath(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || strings.ContainsRune(`${}"%`+"`", r) {
			return '_'
		}
		return r
	}, s)
	return strings.TrimLeft(s, "-.")
}

// opName keeps the characters a 1Password reference takes (letters, digits, - _ .).
func opName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, s)
}

// Item is one value to store under a reference.
type Item struct {
	Ref, Value string
}

// ErrTaken is a reference whose store holds another value there already.
var ErrTaken = errors.New("the store holds another value there; mcpwire never overwrites one: choose another place (--secrets-to STORE:WHERE) or remove it")

// PutAll stores every item and reads each back (the store confirms what it holds).
// An item whose reference already holds the same value is kept as it is (a run after
// a crash between the store and the layer write); one that holds another value is
// refused (ErrTaken), never overwritten. On an error, the items this call created are
// deleted again. It returns what deletes them (the undo of a layer write that fails
// afterwards), and how many were kept as they were.
func (e Env) PutAll(ctx context.Context, items []Item) (undo func() error, kept int, err error) {
	var created []secretref.Ref
	undo = func() error {
		var errs []error
		for i := len(created) - 1; i >= 0; i-- {
			if err := e.For(created[i].Store).Delete(ctx, created[i]); err != nil {
				errs = append(errs, wrap(created[i].String(), err))
				continue
			}
			e.wrote("unstore", created[i].String())
		}
		return errors.Join(errs...)
	}
	fail := func(err error) (func() error, int, error) {
		if uerr := undo(); uerr != nil {
			err = fmt.Errorf("%w; and removing what was stored failed: %v", err, uerr)
		}
		return func() error { return nil }, 0, err
	}
	for _, it := range items {
		r, err := secretref.Parse(it.Ref)
		if err != nil {
			return fail(&Error{Ref: "a reference", Msg: err.Error()})
		}
		st := e.For(r.Store)
		cur, err := st.Get(ctx, r)
		var se *Error
		switch {
		case err == nil && cur == it.Value:
			kept++
			continue
		case err == nil:
			return fail(&Error{Ref: it.Ref, Msg: ErrTaken.Error()})
		case !errors.As(err, &se) || !se.Missing:
			return fail(wrap(it.Ref, err))
		}
		if err := st.Put(ctx, r, it.Value); err != nil {
			return fail(wrap(it.Ref, err))
		}
		created = append(created, r)
		e.wrote("store", it.Ref)
		if got, err := st.Get(ctx, r); err != nil || got != it.Value {
			if err == nil {
				err = &Error{Msg: "the store gives back another value than it was given"}
			}
			return fail(wrap(it.Ref, err))
		}
	}
	return undo, kept, nil
}
