package registry

import (
	"encoding/json"
	"fmt"
	"github.com/mcpwire/mcpwire/internal/hint"
	"slices"
	"sort"

	"github.com/mcpwire/mcpwire/layers"
)

// AddProfile defines a new profile in the write layer. Its servers must exist and its
// extends chain must resolve.
func (r *Registry) AddProfile(p *Profile) error {
	p = p.Clone()
	p.ProviderOverrides = normalizeOverrides(p.ProviderOverrides)
	if err := ValidProfileName(p.Name); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if _, ok := r.profiles[r.writeIndex()][p.Name]; ok {
		return hint.Wrap(fmt.Errorf("profile %q already exists in %s", p.Name, r.set.Write().Profiles.Path), "change it with: mcpwire profile edit "+p.Name)
	}
	if _, file, ok := r.lowerProfile(p.Name); ok {
		return fmt.Errorf("profile %q already exists in a lower configuration layer (%s)", p.Name, file)
	}
	if err := r.CheckServers(p.Servers, ""); err != nil {
		return err
	}
	if err := r.checkCandidates(map[string]*Profile{p.Name: p}, []string{p.Name}); err != nil {
		return err
	}
	var patterns []string
	for _, k := range p.OverrideKeys() {
		if f := p.ProviderOverrides[k]; f != nil {
			patterns = append(append(patterns, f.ToolDeny...), f.ToolAllow...)
		}
	}
	if err := r.checkFilters(p.Name, patterns, r.profileServers(p)); err != nil {
		return err
	}
	now := r.now()
	p.CreatedAt, p.UpdatedAt = now, now
	return r.commit(r.profileDelta(p))
}

// ProfileEdit lists the changes of `profile edit`.
type ProfileEdit struct {
	Description   *string
	AddServers    []string
	RemoveServers []string
	Extends       []string // replaces the list when SetExtends
	SetExtends    bool
	// Provider is the key the filters apply to ("*" when empty).
	Provider  string
	ToolDeny  []string
	ToolAllow []string
	// ClearToolFilters drops the Provider key before the new patterns are added.
	ClearToolFilters bool
}

// EditProfile changes a profile; a lower-layer profile is copied into the write layer.
// Filter patterns are unioned into the provider key's lists.
func (r *Registry) EditProfile(name string, e ProfileEdit) error {
	cur, ok := r.Profile(name)
	if !ok {
		return r.NoProfile(name)
	}
	p := cur.Clone()
	if e.Description != nil {
		p.Description = *e.Description
	}
	if err := r.CheckServers(e.AddServers, ""); err != nil {
		return err
	}
	p.Servers = union(p.Servers, e.AddServers)
	if len(e.RemoveServers) > 0 {
		p.Servers = slices.DeleteFunc(p.Servers, func(s string) bool { return slices.Contains(e.RemoveServers, s) })
	}
	if e.SetExtends {
		p.Extends = e.Extends
	}
	key := e.Provider
	if key == "" {
		key = AllProviders
	}
	// the stored keys are normalised (R3): an alias names the provider's own key
	key, _ = clientName(key)
	if e.ClearToolFilters {
		delete(p.ProviderOverrides, key)
	}
	if len(e.ToolDeny) > 0 || len(e.ToolAllow) > 0 {
		if p.ProviderOverrides == nil {
			p.ProviderOverrides = map[string]*Filters{}
		}
		f := p.ProviderOverrides[key]
		if f == nil {
			f = &Filters{}
		}
		f.ToolDeny = union(f.ToolDeny, e.ToolDeny)
		if len(e.ToolAllow) > 0 {
			f.ToolAllow = union(f.ToolAllow, e.ToolAllow)
		}
		p.ProviderOverrides[key] = f
	}
	p.ProviderOverrides = normalizeOverrides(p.ProviderOverrides)
	if err := p.Validate(); err != nil {
		return err
	}
	// The edit can only break the chains that go through this profile: its own and
	// its dependents'. Unrelated broken profiles do not block it.
	if err := r.checkCandidates(map[string]*Profile{name: p}, append([]string{name}, r.dependentsClosure(name)...)); err != nil {
		return err
	}
	if err := r.checkFilters(name, append(slices.Clone(e.ToolDeny), e.ToolAllow...), r.profileServers(p)); err != nil {
		return err
	}
	p.UpdatedAt = r.now()
	return r.commit(r.profileDelta(p))
}

// RemoveProfile removes a profile from the write layer. It is refused while any
// profile in any layer extends it (R6), and for profiles defined only in a lower
// layer (L5).
func (r *Registry) RemoveProfile(name string) error {
	_, inWrite := r.profiles[r.writeIndex()][name]
	_, file, inLower := r.lowerProfile(name)
	if !inWrite {
		if inLower {
			return fmt.Errorf("profile %q is defined in a lower configuration layer (%s); remove it there", name, file)
		}
		return r.NoProfile(name)
	}
	if !inLower {
		if deps := r.dependents(name); len(deps) > 0 {
			return fmt.Errorf("cannot remove profile %q: extended by %s", name, listNames(deps))
		}
	}
	return r.commit(r.removeDelta(layers.Profiles, name))
}

// dependents names every profile in any layer whose extends lists name.
func (r *Registry) dependents(name string) []string {
	seen := map[string]bool{}
	for _, layer := range r.profiles {
		for pn, p := range layer {
			if slices.Contains(p.Extends, name) {
				seen[pn] = true
			}
		}
	}
	return sortedKeys(seen)
}

// dependentsClosure names, sorted, every effective profile whose extends chain
// reaches name.
func (r *Registry) dependentsClosure(name string) []string {
	rev := map[string][]string{}
	for _, n := range r.ProfileNames() {
		p, _ := r.Profile(n)
		for _, e := range p.Extends {
			rev[e] = append(rev[e], n)
		}
	}
	seen := map[string]bool{name: true}
	queue := []string{name}
	var out []string
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, d := range rev[cur] {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
				queue = append(queue, d)
			}
		}
	}
	sort.Strings(out)
	return out
}

// ImportProfiles merges profiles into the write layer: an existing profile gets the
// imported fields over its own. The whole candidate extends graph across all layers
// is validated before anything is written (R6).
func (r *Registry) ImportProfiles(in map[string]*Profile) (added, updated []string, err error) {
	var bad []string
	for name := range in {
		if ValidProfileName(name) != nil {
			bad = append(bad, name)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return nil, nil, hint.Wrap(fmt.Errorf("invalid profile names: %s", listNames(bad)), profileNameRule+"; all, none and default are reserved")
	}
	for _, name := range sortedKeys(in) {
		if in[name] == nil {
			return nil, nil, fmt.Errorf("profile %q: must be an object", name)
		}
		// as when a layer file is read: a "name" member must repeat its key
		if n := in[name].Name; n != "" && n != name {
			return nil, nil, fmt.Errorf("profile %q: name: %q does not match its key", name, n)
		}
	}
	now := r.now()
	cand := map[string]*Profile{}
	for _, name := range sortedKeys(in) {
		p := in[name].Clone()
		p.Name = name
		if cur, ok := r.Profile(name); ok {
			merged := cur.Clone()
			mergeImported(merged, p)
			p = merged
			updated = append(updated, name)
		} else {
			p.CreatedAt = now
			added = append(added, name)
		}
		p.UpdatedAt = now
		p.ProviderOverrides = normalizeOverrides(p.ProviderOverrides)
		if err := p.Validate(); err != nil {
			return nil, nil, fmt.Errorf("profile %q: %w", name, err)
		}
		cand[name] = p
	}
	all := r.ProfileNames()
	for n := range cand {
		if !slices.Contains(all, n) {
			all = append(all, n)
		}
	}
	sort.Strings(all)
	if err := r.checkCandidates(cand, all); err != nil {
		return nil, nil, err
	}
	ps := make([]*Profile, 0, len(cand))
	for _, n := range sortedKeys(cand) {
		ps = append(ps, cand[n])
	}
	if err := r.commit(r.profileDelta(ps...)); err != nil {
		return nil, nil, err
	}
	return added, updated, nil
}

// mergeImported puts the fields an import sets over an existing profile.
func mergeImported(dst, src *Profile) {
	if src.Description != "" {
		dst.Description = src.Description
	}
	if src.Servers != nil {
		dst.Servers = src.Servers
	}
	if src.Extends != nil {
		dst.Extends = src.Extends
	}
	if src.ProviderOverrides != nil {
		dst.ProviderOverrides = src.ProviderOverrides
	}
	for k, v := range src.Extra {
		if dst.Extra == nil {
			dst.Extra = map[string]json.RawMessage{}
		}
		dst.Extra[k] = v
	}
}

// InitPresets adds the preset profiles that no layer defines yet (R9).
func (r *Registry) InitPresets() ([]string, error) {
	now := r.now()
	var add []*Profile
	var names []string
	for _, p := range presets() {
		if _, ok := r.Profile(p.Name); ok {
			continue
		}
		p.CreatedAt, p.UpdatedAt = now, now
		add = append(add, p)
		names = append(names, p.Name)
	}
	if len(add) == 0 {
		return nil, nil
	}
	return names, r.commit(r.profileDelta(add...))
}

// checkCandidates resolves names with the candidate profiles standing in for the
// stored ones and reports every broken extends chain.
func (r *Registry) checkCandidates(cand map[string]*Profile, names []string) error {
	get := func(n string) (*Profile, bool) {
		if p, ok := cand[n]; ok {
			return p, true
		}
		return r.Profile(n)
	}
	return checkGraph(names, get, r.ServerNames)
}
