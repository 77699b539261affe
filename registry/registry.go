package registry

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/jsonc"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
)

// Registry is the merged view of every layer: each server and profile comes whole
// from the highest layer that defines it (L3), and remembers which file that is.
type Registry struct {
	set *layers.Set
	// per layer, decoded entries
	servers  []map[string]*Server
	profiles []map[string]*Profile
	// merged view: name → index of the winning layer
	serverAt  map[string]int
	profileAt map[string]int

	floor    policy.Floor
	personal *policy.Level
	// servers policy of every layer that holds one, lowest first (G1)
	serverPolicy policy.ServerPolicies
	// resolver resolves profiles until the next merge (it keeps the server list).
	resolver *resolver

	// Warn receives warnings (without the "WARNING " prefix). Nil discards them.
	Warn func(string)
	// Now returns the timestamp written in addedAt/createdAt/updatedAt.
	Now func() string
	// unsaved are the servers whose injection records RecordInjection already warned
	// it cannot save: one inject into several clients says so once.
	unsaved map[string]bool
}

// Open reads every layer of cfg and decodes it: malformed files and bad entries are
// reported together, in layer order, in one *layers.LoadError (L11, L12).
func Open(f fsys.FS, cfg layers.Config) (*Registry, error) {
	set, err := layers.LoadAll(f, cfg)
	if set == nil {
		return nil, err
	}
	return Load(set)
}

// Load decodes and validates every entry of every layer. Every problem is reported in
// one error naming each file, server and field (L12), together with the files that
// layers.LoadAll could not read (File.Err).
func Load(set *layers.Set) (*Registry, error) {
	r := &Registry{set: set}
	n := len(set.Layers)
	r.servers = make([]map[string]*Server, n)
	r.profiles = make([]map[string]*Profile, n)
	fileProblems := make([][]string, 2*n)
	layers.Parallel(2*n, func(i int) {
		l := set.Layers[i/2]
		if i%2 == 0 {
			r.servers[i/2], fileProblems[i] = decodeServers(l.Servers)
		} else {
			r.profiles[i/2], fileProblems[i] = decodeProfiles(l.Profiles)
		}
	})
	var problems []string
	for i, l := range set.Layers {
		if l.Policy != nil && l.Policy.Exists && l.Policy.Err == nil {
			sp, bad := policy.ParseServerPolicy(l.Policy.Path, l.Policy.Data)
			if bad != nil {
				problems = append(problems, bad...)
			} else {
				r.serverPolicy = append(r.serverPolicy, sp)
			}
		}
		for k, f := range []*layers.File{l.Servers, l.Profiles} {
			if f.Err != nil {
				problems = append(problems, f.Err.Error())
				continue
			}
			problems = append(problems, fileProblems[2*i+k]...)
			raw, ok := f.Top["credentialPolicy"]
			if !ok {
				continue
			}
			lvl, err := policy.ParseJSON(raw)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", f.Path, err))
				continue
			}
			switch {
			case i < n-1:
				r.floor = r.floor.Fold(lvl, f.Path)
			case f.Kind == layers.Servers:
				r.personal = &lvl
			}
		}
	}
	if len(problems) > 0 {
		return nil, &layers.LoadError{Problems: problems}
	}
	r.merge()
	return r, nil
}

func decodeServers(f *layers.File) (map[string]*Server, []string) {
	out := make(map[string]*Server, len(f.Entries))
	var problems []string
	// one allocation for the file's servers, not one a server (issue 31)
	slab := make([]Server, len(f.Entries))
	for name, raw := range f.Entries {
		s := &slab[0]
		slab = slab[1:]
		if err := decodeServer(raw, s); err != nil {
			problems = append(problems, fmt.Sprintf("%s: server %q: %v", f.Path, name, err))
			continue
		}
		if s.Name != "" && s.Name != name {
			problems = append(problems, fmt.Sprintf("%s: server %q: name: %q does not match its key", f.Path, name, s.Name))
			continue
		}
		s.Name = name
		if err := s.Validate(); err != nil {
			problems = append(problems, fmt.Sprintf("%s: server %q: %v", f.Path, name, err))
			continue
		}
		out[name] = s
	}
	sort.Strings(problems)
	return out, problems
}

func decodeProfiles(f *layers.File) (map[string]*Profile, []string) {
	out := make(map[string]*Profile, len(f.Entries))
	var problems []string
	slab := make([]Profile, len(f.Entries)) // one allocation, as decodeServers
	for name, raw := range f.Entries {
		p := &slab[0]
		slab = slab[1:]
		if err := decodeProfile(raw, p); err != nil {
			problems = append(problems, fmt.Sprintf("%s: profile %q: %v", f.Path, name, err))
			continue
		}
		if p.Name != "" && p.Name != name {
			problems = append(problems, fmt.Sprintf("%s: profile %q: name: %q does not match its key", f.Path, name, p.Name))
			continue
		}
		p.Name = name
		if err := p.Validate(); err != nil {
			problems = append(problems, fmt.Sprintf("%s: profile %q: %v", f.Path, name, err))
			continue
		}
		out[name] = p
	}
	sort.Strings(problems)
	return out, problems
}

// merge rebuilds the merged view: the highest layer defining a name wins.
func (r *Registry) merge() {
	r.resolver = nil
	ns, np := 0, 0
	for i := range r.set.Layers {
		ns, np = ns+len(r.servers[i]), np+len(r.profiles[i])
	}
	// sized for every layer's names (shadowed ones counted twice): a map of 10,000
	// names is not grown step by step
	r.serverAt = make(map[string]int, ns)
	r.profileAt = make(map[string]int, np)
	for i := range r.set.Layers {
		for name := range r.servers[i] {
			r.serverAt[name] = i
		}
		for name := range r.profiles[i] {
			r.profileAt[name] = i
		}
	}
}

// Set returns the layers the registry was loaded from.
func (r *Registry) Set() *layers.Set { return r.set }

// writeIndex is the index of the write layer.
func (r *Registry) writeIndex() int { return len(r.set.Layers) - 1 }

// Server returns the effective server of a name.
func (r *Registry) Server(name string) (*Server, bool) {
	i, ok := r.serverAt[name]
	if !ok {
		return nil, false
	}
	return r.servers[i][name], true
}

// ServerOrigin returns the file that supplies the effective server of a name.
func (r *Registry) ServerOrigin(name string) string {
	return r.set.Layers[r.serverAt[name]].Servers.Path
}

// ServerNames returns every effective server name, sorted.
func (r *Registry) ServerNames() []string { return sortedKeys(r.serverAt) }

// EffectiveServers returns every effective server, sorted by name: what Server gives
// for each of ServerNames, each looked up once (K7: a dry run's redactor learns the
// 200,000 servers an import adds).
func (r *Registry) EffectiveServers() []*Server {
	type named struct {
		name string
		s    *Server
	}
	all := make([]named, 0, len(r.serverAt))
	for name, i := range r.serverAt {
		all = append(all, named{name, r.servers[i][name]})
	}
	slices.SortFunc(all, func(a, b named) int { return strings.Compare(a.name, b.name) })
	out := make([]*Server, len(all))
	for i, n := range all {
		out[i] = n.s
	}
	return out
}

// Profile returns the effective profile of a name, as stored (not resolved).
func (r *Registry) Profile(name string) (*Profile, bool) {
	i, ok := r.profileAt[name]
	if !ok {
		return nil, false
	}
	return r.profiles[i][name], true
}

// ProfileOrigin returns the file that supplies the effective profile of a name.
func (r *Registry) ProfileOrigin(name string) string {
	return r.set.Layers[r.profileAt[name]].Profiles.Path
}

// ProfileNames returns every effective profile name, sorted.
func (r *Registry) ProfileNames() []string { return sortedKeys(r.profileAt) }

// ServerPolicy returns the server policies of the layers, lowest first (G1).
func (r *Registry) ServerPolicy() policy.ServerPolicies { return r.serverPolicy }

// CheckAllowed refuses the servers the layers' server policies deny (G2): one
// error naming each server, the rule and its file.
func (r *Registry) CheckAllowed(servers []*Server) error {
	if len(r.serverPolicy) == 0 {
		return nil
	}
	var ds []*policy.Denial
	for _, s := range servers {
		if d := r.serverPolicy.Decide(s.Candidate()); d != nil {
			ds = append(ds, d)
		}
	}
	if len(ds) > 0 {
		return &policy.DeniedError{Denials: ds}
	}
	return nil
}

// Denied says why the server policy denies a server named name (an entry of a
// client's file, whoever wrote it), or nil when it passes (G2).
func (r *Registry) Denied(name string, s *Server) *policy.Denial {
	if len(r.serverPolicy) == 0 || s == nil {
		return nil
	}
	c := s.Candidate()
	c.Name = name
	return r.serverPolicy.Decide(c)
}

// Floor returns the organisation floor of the credential policy (P2).
func (r *Registry) Floor() policy.Floor { return r.floor }

// PersonalPolicy returns the write layer's own credential policy, nil when unset.
func (r *Registry) PersonalPolicy() *policy.Level { return r.personal }

// StoredPolicy is the policy `credential-policy` prints: the personal default raised
// to the floor, or the floor, or literal.
func (r *Registry) StoredPolicy() policy.Level {
	l := policy.Literal
	if r.floor.Set {
		l = r.floor.Level
	}
	if r.personal != nil {
		l = policy.Max(*r.personal, l)
	}
	return l
}

// EffectivePolicy is the policy for one run (P3).
func (r *Registry) EffectivePolicy(env string, flag *policy.Level) (policy.Level, error) {
	return policy.Effective(policy.Inputs{Personal: r.personal, Floor: r.floor, Env: env, Flag: flag}, r.warn)
}

func (r *Registry) warn(msg string) {
	if r.Warn != nil {
		r.Warn(msg)
	}
}

// lowerServer returns the highest lower-layer definition of a server.
func (r *Registry) lowerServer(name string) (*Server, string, bool) {
	for i := r.writeIndex() - 1; i >= 0; i-- {
		if s, ok := r.servers[i][name]; ok {
			return s, r.set.Layers[i].Servers.Path, true
		}
	}
	return nil, "", false
}

// lowerProfile returns the highest lower-layer definition of a profile.
func (r *Registry) lowerProfile(name string) (*Profile, string, bool) {
	for i := r.writeIndex() - 1; i >= 0; i-- {
		if p, ok := r.profiles[i][name]; ok {
			return p, r.set.Layers[i].Profiles.Path, true
		}
	}
	return nil, "", false
}

// InWriteLayer reports whether the write layer defines a server of this name.
func (r *Registry) InWriteLayer(name string) bool {
	_, ok := r.servers[r.writeIndex()][name]
	return ok
}

// LayerServer returns the server of a name as layer i defines it (the order of
// Layers), before any other layer overrides it: audit checks what each layer file
// holds (H4).
func (r *Registry) LayerServer(i int, name string) (*Server, bool) {
	if i < 0 || i >= len(r.servers) {
		return nil, false
	}
	s, ok := r.servers[i][name]
	return s, ok
}

// Layers returns, for every layer, its directory and the names it defines.
func (r *Registry) Layers() []LayerInfo {
	out := make([]LayerInfo, len(r.set.Layers))
	for i, l := range r.set.Layers {
		out[i] = LayerInfo{
			Dir:          l.Dir,
			Given:        givenIfDifferent(l.Given, l.Dir),
			Relative:     layers.Relative(l.Given),
			ServersFile:  l.Servers.Path,
			ProfilesFile: l.Profiles.Path,
			Write:        i == r.writeIndex(),
			Servers:      sortedKeys(r.servers[i]),
			Profiles:     sortedKeys(r.profiles[i]),
		}
	}
	return out
}

// LayerInfo describes one layer for `mcpwire layers`.
type LayerInfo struct {
	Dir string `json:"dir"`
	// Given is the directory as written in AIWG_CONFIG_LAYERS (or --config-dir,
	// AIWG_CONFIG), when that differs from Dir (a relative or ~ entry).
	Given string `json:"given,omitempty"`
	// Relative: Given is relative to the working directory, against which Dir was
	// resolved (H8): from another directory, the same setting names another layer.
	Relative     bool     `json:"relative,omitempty"`
	ServersFile  string   `json:"serversFile"`
	ProfilesFile string   `json:"profilesFile"`
	Write        bool     `json:"write"`
	Servers      []string `json:"servers"`
	Profiles     []string `json:"profiles"`
}

// entryJSON encodes an entry for a layer file.
func entryJSON(v any) json.RawMessage {
	if s, ok := v.(*Server); ok {
		// its own encoding, which is compact JSON already: not compacted again by an
		// encoder (K7: an import of 200,000 servers)
		b, err := s.MarshalJSON()
		if err != nil {
			panic(err)
		}
		return b
	}
	b, err := jsonc.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// listNames joins names for messages.
func listNames(names []string) string { return strings.Join(names, ", ") }

// givenIfDifferent is the directory as given, when it is not written as resolved.
func givenIfDifferent(given, dir string) string {
	if filepath.FromSlash(given) == dir { // C:/org is C:\org on Windows
		return ""
	}
	return given
}
