package registry

import (
	"encoding/json"
	"fmt"
	"github.com/mcpwire/mcpwire/internal/hint"
	"slices"

	"github.com/mcpwire/mcpwire/layers"
)

// AddServers defines new servers in the write layer, and with profile a profile of
// them, in one write (import, B1): every check of AddServer for each server and of
// AddProfile for the profile is made before anything is written, so a refusal writes
// nothing. receipts name, per server, the providers it is recorded as injected into
// (import --adopt: the entries it adopted).
func (r *Registry) AddServers(servers []*Server, profile *Profile, receipts map[string][]string) error {
	now := r.now()
	d := layers.Delta{Kind: layers.Servers, Set: make(map[string]json.RawMessage, len(servers)), Expect: make(map[string]json.RawMessage, len(servers))}
	names := make([]string, 0, len(servers))
	for _, in := range servers {
		// a copy of the fields stamped below; the rest is only read, and encoded
		c := *in
		s := &c
		if err := checkNew(s); err != nil {
			return err
		}
		_, twice := d.Set[s.Name] // named twice in servers
		if _, ok := r.Server(s.Name); ok || twice {
			return fmt.Errorf("server %q already exists (%s)", s.Name, r.ServerOrigin(s.Name))
		}
		s.AddedAt, s.UpdatedAt, s.InjectedProviders = now, now, receipts[s.Name]
		d.Set[s.Name] = entryJSON(s)
		d.Expect[s.Name] = r.seen(layers.Servers, s.Name)
		names = append(names, s.Name)
	}
	deltas := []layers.Delta{d}
	if profile != nil {
		p, err := r.newProfile(profile, names)
		if err != nil {
			return err
		}
		deltas = append(deltas, r.profileDelta(p))
	}
	return r.commit(deltas...)
}

// newProfile checks a profile of servers that are being added (extra) or exist, as
// AddProfile does, and stamps it.
func (r *Registry) newProfile(in *Profile, extra []string) (*Profile, error) {
	p := in.Clone()
	p.ProviderOverrides = normalizeOverrides(p.ProviderOverrides)
	if err := ValidProfileName(p.Name); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if _, ok := r.Profile(p.Name); ok {
		return nil, hint.Wrap(fmt.Errorf("profile %q already exists (%s)", p.Name, r.ProfileOrigin(p.Name)), "choose another name")
	}
	var missing []string
	for _, n := range p.Servers {
		if _, ok := r.Server(n); !ok && !slices.Contains(extra, n) {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("profile %q: servers not defined in any configuration layer: %s", p.Name, listNames(missing))
	}
	var patterns []string
	for _, k := range p.OverrideKeys() {
		if f := p.ProviderOverrides[k]; f != nil {
			patterns = append(append(patterns, f.ToolDeny...), f.ToolAllow...)
		}
	}
	if bad := badPatterns(patterns); len(bad) > 0 {
		return nil, &PatternError{Patterns: bad, Servers: p.Servers}
	}
	now := r.now()
	p.CreatedAt, p.UpdatedAt = now, now
	return p, nil
}
