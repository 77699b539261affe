package registry

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
)

// AddServer defines a new server in the write layer. A name defined in any layer is
// refused (L5), and so is a name outside R2 ([A-Za-z0-9_-]+): layer files may hold
// such names (L14), new entries may not.
func (r *Registry) AddServer(s *Server) error {
	s = s.Clone()
	if err := checkNew(s); err != nil {
		return err
	}
	if r.InWriteLayer(s.Name) {
		return fmt.Errorf("server %q already exists in %s", s.Name, r.set.Write().Servers.Path)
	}
	if _, file, ok := r.lowerServer(s.Name); ok {
		return fmt.Errorf("server %q already exists in a lower configuration layer (%s)", s.Name, file)
	}
	now := r.now()
	s.AddedAt, s.UpdatedAt, s.InjectedProviders = now, now, nil
	return r.commit(r.serverDelta(s))
}

// checkNew makes the checks of a new entry: an R2 name, a valid server, the fields of
// its transport only (checkTransport) and plain env keys that are no credentials (P11).
func checkNew(s *Server) error {
	if err := ValidServerName(s.Name); err != nil {
		return fmt.Errorf("server %q: %w", s.Name, err)
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("server %q: %w", s.Name, err)
	}
	if err := checkTransport(s, nil); err != nil {
		return fmt.Errorf("server %q: %w", s.Name, err)
	}
	return checkPlain(s, nil)
}

// UpdateServer changes a server with edit. A lower-layer server is copied into the
// write layer first; its file is left untouched (L5).
func (r *Registry) UpdateServer(name string, edit func(*Server)) error {
	s, changed, err := r.PreviewUpdate(name, edit)
	if err != nil || !changed {
		return err // nothing changed: an unchanged lower entry is not copied up (L4)
	}
	s.UpdatedAt = r.now()
	return r.commit(r.serverDelta(s))
}

// PreviewUpdate returns the server as UpdateServer would write it, after every check,
// and whether the write would change anything; nothing is written (server update
// --dry-run).
func (r *Registry) PreviewUpdate(name string, edit func(*Server)) (*Server, bool, error) {
	cur, ok := r.Server(name)
	if !ok {
		return nil, false, r.NoServer(name)
	}
	s := cur.Clone()
	edit(s)
	s.Name = name
	if err := s.Validate(); err != nil {
		return nil, false, fmt.Errorf("server %q: %w", name, err)
	}
	if err := checkTransport(s, cur); err != nil {
		return nil, false, fmt.Errorf("server %q: %w", name, err)
	}
	if err := checkPlain(s, cur); err != nil {
		return nil, false, err
	}
	same := string(s.withoutBookkeeping()) == string(cur.withoutBookkeeping())
	return s, !same || r.InWriteLayer(name), nil
}

// RemoveServer removes a server from the write layer. A server defined only in a
// lower layer is refused (L5), and so is an overlay whose lower entry carries a
// worker qualification (L6). Removing an overlay makes the lower entry visible again.
func (r *Registry) RemoveServer(name string) error {
	lower, file, inLower := r.lowerServer(name)
	if !r.InWriteLayer(name) {
		if inLower {
			return fmt.Errorf("server %q is defined in a lower configuration layer (%s); remove it there", name, file)
		}
		return r.NoServer(name)
	}
	if inLower && lower.Qualified() {
		return fmt.Errorf("server %q cannot be removed: its lower-layer entry in %s carries a workerQualification, and removing this overlay would expose it again; change or remove the entry in that layer", name, file)
	}
	return r.commit(r.removeDelta(layers.Servers, name))
}

// InjectedProviders returns every provider recorded in any server's
// injectedProviders, in first-seen order over sorted server names.
func (r *Registry) InjectedProviders() []string {
	var out []string
	for _, n := range r.ServerNames() {
		s, _ := r.Server(n)
		for _, p := range s.InjectedProviders {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// ServersInjectedInto returns the servers whose records name provider.
func (r *Registry) ServersInjectedInto(provider string) []string {
	var out []string
	for _, n := range r.ServerNames() {
		s, _ := r.Server(n)
		if slices.Contains(s.InjectedProviders, provider) {
			out = append(out, n)
		}
	}
	return out
}

// SetPolicy stores the write layer's own credential policy. A value below the floor
// is refused naming the layer file that sets it (P4); a value equal to the floor is
// stored.
func (r *Registry) SetPolicy(l policy.Level) error {
	if r.floor.Set && l < r.floor.Level {
		return fmt.Errorf("cannot relax the credential policy to %q: the organisation floor is %q, set in %s", l, r.floor.Level, r.floor.File)
	}
	b, _ := json.Marshal(l.String())
	return r.commit(layers.Delta{Kind: layers.Servers,
		Top:       map[string]json.RawMessage{"credentialPolicy": b},
		ExpectTop: map[string]json.RawMessage{"credentialPolicy": r.set.Write().Servers.Top["credentialPolicy"]},
	})
}
