package render

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
)

// fileAdoption is the entries of one client file an import records as mcpwire's
// (B2), with their digests.
type fileAdoption struct {
	c     *ClientFile
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

// Renders reports whether mcpwire, injecting s with the filters sf, would write the
// entry name exactly as the file holds it (the same ownership digest, C6), inside its
// frame lines where the client's entries have them.
func (c *ClientFile) Renders(name string, s *registry.Server, sf *dialect.ServerFilters) bool {
	e, ok := c.Entry(name)
	if !ok {
		return false
	}
	v, probs := dialect.Spell(c.target, c.d, s)
	if len(probs) > 0 || dialect.Disabled(s) && c.Provider.Switch == "" {
		return false
	}
	entry := c.d.Entry(s, &v, sf)
	dg, err := c.es.Digest(name, entry)
	if err != nil {
		return false
	}
	rule := owners[c.Provider.Owner]
	if rule.standing("", e.Digest(), e.Framed, dg) == identical {
		return true
	}
	return !(rule.framed && !e.Framed) && c.sameMeaning(name, entry)
}

// sameMeaning reports whether the file's entry of a name means what entry does (T6):
// the client's defaults, member order and the spelling of references aside.
func (c *ClientFile) sameMeaning(name string, entry format.Object) bool {
	cur, ok := c.es.Get(name)
	if !ok {
		return false
	}
	raw, err := format.Marshal(entry)
	return err == nil && dialect.SameMeaning(c.target, c.d, cur.JSON(), raw)
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
		t, err := fa.recordTarget(f, reg.Set().Write().Dir)
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
		if x.Changed && !transient(x.Path) {
			changed = append(changed, x.Path)
		}
	}
	return changed, nil
}

// recordTarget is the target that adds the adopted entries to the file's ownership
// record, as the record is under the transaction's lock (settled against the file when
// a staged record lies beside it). The client file does not change, so nothing is
// staged.
func (fa *fileAdoption) recordTarget(f fsys.FS, layer string) (fsys.Target, error) {
	c := fa.c
	path, canon, err := entryRecordPath(layer, c.Path, c.local.Container, c.local.Scope != "")
	if err != nil {
		return fsys.Target{}, err
	}
	digests := map[string]string{}
	for _, n := range fa.names {
		e, _ := c.Entry(n)
		digests[n] = e.Digest()
	}
	return fsys.Target{
		Path:     path,
		DirPerm:  0o700,
		Check:    func() error { return checkRecordDir(f, path) },
		CheckKey: recordDirKey(path),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			rec := &ownRecord{Destination: canon, Entries: map[string]string{}}
			if cur.Exists {
				if err := decodeRecord(cur.Data, rec); err != nil {
					return nil, 0, false, corruptRecord(path, err)
				}
			}
			stagedRaw, staged, err := readOptional(f, path+stagedSuffix)
			if err != nil {
				return nil, 0, false, err
			}
			if staged {
				st, err := decodeOwnStage(path+stagedSuffix, stagedRaw)
				if err != nil {
					return nil, 0, false, err
				}
				rec, _ = st.settle(rec, entryDigest(c.d, c.doc, c.es))
			}
			rec.Destination, rec.localRecord, rec.Providers = canon, c.local, rec.writers(c.Provider.Name)
			if rec.Provider == "" {
				rec.Provider = c.Provider.Name
			}
			maps.Copy(rec.Entries, digests)
			return rec.encode(), 0o600, false, nil
		},
	}, nil
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
	filters := map[string]map[string]*dialect.ServerFilters{}
	for i, c := range r.Files {
		names := res.Files[i].Servers
		for n, sf := range c.filters(f, names) {
			if _, ok := cands[n]; !ok || sf == nil {
				continue
			}
			m := filters[c.Provider.Name]
			if m == nil {
				m = map[string]*dialect.ServerFilters{}
				filters[c.Provider.Name] = m
			}
			m[n] = mergeFilters(m[n], sf)
		}
	}
	return r.profileOf(servers, filters), nil
}

// filters returns the tool filters the file and its client hold for the named entries.
func (c *ClientFile) filters(f fsys.FS, names []string) map[string]*dialect.ServerFilters {
	out := map[string]*dialect.ServerFilters{}
	for _, n := range names {
		if e, ok := c.Entry(n); ok && e.Read != nil && e.Read.Filters != nil {
			out[n] = e.Read.Filters
		}
	}
	if fr, ok := c.d.(dialect.FilterReader); ok {
		for n, sf := range fr.ReadFilters(c.Lookup, names) {
			out[n] = mergeFilters(out[n], sf)
		}
	}
	if rr, ok := c.d.(dialect.RuleReader); ok && c.Provider.Settings[c.Scope] != nil {
		for n, sf := range rr.ReadRules(c.denyRules(f), names) {
			out[n] = mergeFilters(out[n], sf)
		}
	}
	return out
}

// denyRules reads permissions.deny of the client's settings file of the file's scope
// (Claude Code); none when it is missing or malformed.
func (c *ClientFile) denyRules(f fsys.FS) []string {
	path, err := choosePath(f, c.Provider.Settings[c.Scope], c.env)
	if err != nil {
		return nil
	}
	data, err := f.ReadFile(path)
	if err != nil {
		return nil
	}
	doc, err := format.Parse(c.Provider.Format, path, data, true)
	if err != nil {
		return nil
	}
	deny, _ := validateSettings(path, doc)
	return deny
}

// mergeFilters unions two filters of one server.
func mergeFilters(a, b *dialect.ServerFilters) *dialect.ServerFilters {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := &dialect.ServerFilters{Deny: dialect.AppendNew(append([]string(nil), a.Deny...), b.Deny), DenyAll: a.DenyAll || b.DenyAll}
	if a.Allow != nil || b.Allow != nil {
		out.Allow = dialect.AppendNew(append([]string{}, a.Allow...), b.Allow)
	}
	return out
}
