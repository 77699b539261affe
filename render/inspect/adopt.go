package inspect

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// fileAdoption is the entries of one client file an import records as mcpwire's
// (B2), with their digests.
type fileAdoption struct {
	c     *render.ClientFile
	names []string
}

// adoption fills each file's servers and, with Adopt, decides which of its entries
// become mcpwire's: those whose rendering by mcpwire has the digest of the entry in
// the file, and that its ownership record does not hold as they are already. The
// others stay the person's, named in one warning per file.
func (r *ImportRequest) adoption(res *ImportResult, cands map[string]*candidate) []*fileAdoption {
	var out []*fileAdoption
	for i, c := range r.Files {
		fa := &fileAdoption{c: c}
		var foreign []string
		for _, e := range c.Entries {
			cand, ok := cands[e.Name]
			if !ok || !slices.Contains(cand.from, c) {
				continue
			}
			res.Files[i].Servers = append(res.Files[i].Servers, e.Name)
			if !r.Adopt || c.Record[e.Name] == e.Digest() {
				continue // mcpwire's already, as it is: nothing new to record
			}
			if c.Renders(e.Name, cand.s, e.Read.Filters) {
				fa.names = append(fa.names, e.Name)
			} else {
				foreign = append(foreign, e.Name)
			}
		}
		res.Files[i].Adopted, res.Files[i].Foreign = fa.names, foreign
		if len(foreign) > 0 {
			r.warn(fmt.Sprintf("%s: not adopted, mcpwire would write them differently, so they stay yours: %s in %s (inject --force takes them over)",
				c.Provider.Name, strings.Join(foreign, ", "), c.Path))
		}
		if len(fa.names) > 0 {
			out = append(out, fa)
		}
	}
	return out
}

// writeAdopted records the adopted entries: the injection receipts of servers that
// were already defined (new ones got theirs when they were added), then every file's
// ownership record, in one transaction. It returns the files changed.
func writeAdopted(f fsys.FS, reg *registry.Registry, adopted []*fileAdoption, identical []string, receipts map[string][]string) ([]string, error) {
	if len(adopted) == 0 {
		return nil, nil
	}
	byProvider := map[string][]string{}
	for _, n := range identical {
		for _, p := range receipts[n] {
			byProvider[p] = append(byProvider[p], n)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(byProvider)) {
		if err := reg.RecordInjection(byProvider[p], p); err != nil {
			return nil, err
		}
	}
	if err := reg.Set().CheckWrite(); err != nil {
		return nil, err
	}
	var targets []fsys.Target
	for _, fa := range adopted {
		t, err := fa.c.AdoptTarget(f, reg.Set().Write().Dir, fa.names)
		if err != nil {
			return nil, err
		}
		targets = append(targets, t)
	}
	results, err := fsys.Apply(f, targets)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, x := range results {
		if x.Changed && !render.Transient(x.Path) {
			changed = append(changed, x.Path)
		}
	}
	return changed, nil
}

// profile builds the profile of --as-profile, with the tool filters of every file:
// those in its entries, those the client keeps beside them (opencode's tools map) and
// Claude Code's deny rules in the settings file of the same scope.
func (r *ImportRequest) profile(f fsys.FS, res *ImportResult, cands map[string]*candidate, servers []string) (*registry.Profile, error) {
	if r.Profile == "" {
		return nil, nil
	}
	if len(servers) == 0 {
		return nil, fmt.Errorf("no servers imported, so no profile %q", r.Profile)
	}
	filters := map[string]map[string]*providers.ServerFilters{}
	for i, c := range r.Files {
		names := res.Files[i].Servers
		for n, sf := range c.Filters(f, names) {
			if _, ok := cands[n]; !ok || sf == nil {
				continue
			}
			m := filters[c.Provider.Name]
			if m == nil {
				m = map[string]*providers.ServerFilters{}
				filters[c.Provider.Name] = m
			}
			m[n] = render.MergeFilters(m[n], sf)
		}
	}
	return r.profileOf(servers, filters), nil
}
