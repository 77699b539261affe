package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/hint"

	"github.com/mcpwire/mcpwire/layers"
)

// AddServers defines new servers in the write layer, and with profile a profile of
// them, in one write (import, B1): every check of AddServer for each server and of
// AddProfile for the profile is made before anything is written, so a refusal writes
// nothing. receipts name, per server, the providers it is recorded as injected into
// (import --adopt: the entries it adopted). The servers become the registry's: once
// checked, each is stamped (its times, its receipts, its empty lists and maps made
// nil) and kept as it is, not copied (K7: an import adds 200,000), so the caller must
// not change them afterwards. A refused server leaves every server as it was given.
func (r *Registry) AddServers(servers []*Server, profile *Profile, receipts map[string][]string) error {
	for _, s := range servers {
		if err := checkNew(s); err != nil {
			return err
		}
		if _, ok := r.Server(s.Name); ok {
			return fmt.Errorf("server %q already exists (%s)", s.Name, r.ServerOrigin(s.Name))
		}
	}
	// the servers handed to the save as a slice sorted by name, not as maps of
	// 200,000 names (K7)
	added := slices.Clone(servers)
	slices.SortFunc(added, func(a, b *Server) int { return strings.Compare(a.Name, b.Name) })
	names := make([]string, len(added))
	for i, s := range added {
		if i > 0 && names[i-1] == s.Name { // named twice in servers
			return fmt.Errorf("server %q already exists (%s)", s.Name, r.ServerOrigin(s.Name))
		}
		names[i] = s.Name
	}
	var p *Profile
	if profile != nil {
		var err error
		if p, err = r.newProfile(profile, names); err != nil {
			return err
		}
	}
	now := r.now()
	d := layers.Delta{Kind: layers.Servers, Add: make([]layers.Entry, len(added))}
	var chunk []byte // the entries encoded one after another, a chunk at a time
	for i, s := range added {
		s.AddedAt, s.UpdatedAt, s.InjectedProviders = now, now, receipts[s.Name]
		dropEmpty(s)
		// absent from the write layer as this process read it, since no layer
		// defines it: the save checks it still is (W8)
		var value []byte
		value, chunk = encodeInto(chunk, s)
		d.Add[i] = layers.Entry{Name: s.Name, Value: value}
	}
	deltas := []layers.Delta{d}
	if p != nil {
		deltas = append(deltas, r.profileDelta(p))
	}
	return r.commitAdded(added, deltas...)
}

// entryChunk is the size of the chunks AddServers encodes entries into, one after
// another: one allocation for hundreds of entries, not one or two for each (K7).
const entryChunk = 64 << 10

// encodeInto is entryJSON(s), encoded at the end of chunk (or of a new chunk when
// chunk has little room left); it returns the entry, which nothing appended later
// overwrites, and the chunk to encode the next one into.
func encodeInto(chunk []byte, s *Server) (value, rest []byte) {
	if len(s.Extra) > 0 {
		return entryJSON(s), chunk
	}
	if cap(chunk)-len(chunk) < entryChunk/16 {
		chunk = make([]byte, 0, entryChunk)
	}
	start := len(chunk)
	b, ok := appendServer(chunk, s) // what MarshalJSON writes of a server with no Extra
	if !ok {
		return entryJSON(s), chunk
	}
	return b[start:len(b):len(b)], b
}

// newProfile checks a profile of servers that are being added (extra, sorted) or
// exist, as AddProfile does, and stamps it.
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
		if _, ok := r.Server(n); !ok && !sortedContains(extra, n) {
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

// sortedContains reports whether the sorted names hold name: a profile of 200,000
// imported servers looks each up (K7), not through all of them.
func sortedContains(names []string, name string) bool {
	_, ok := slices.BinarySearch(names, name)
	return ok
}

// dropEmpty makes the empty lists and maps of a server nil, as its entry leaves them
// out and loading it gives them (the server is then what loading its entry gives:
// roundTrips).
func dropEmpty(s *Server) {
	for _, l := range []*[]string{&s.Args, &s.PlainEnv, &s.PlainHeaders, &s.InjectedProviders} {
		if *l != nil && len(*l) == 0 {
			*l = nil
		}
	}
	for _, m := range []*map[string]string{&s.Env, &s.EnvFrom, &s.Headers, &s.HeaderEnv, &s.EnvInput, &s.HeaderInput, &s.EnvSecret, &s.HeaderSecret} {
		if *m != nil && len(*m) == 0 {
			*m = nil
		}
	}
}
