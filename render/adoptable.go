package render

import (
	"io/fs"
	"maps"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// What a client file's entries mean to mcpwire, beyond their records: whether mcpwire
// would write them as they are (import --adopt, B2; status, T6), the tool filters the
// file and its client keep, and adopting entries into the file's ownership record.

// Renders reports whether mcpwire, injecting s with the filters sf, would write the
// entry name exactly as the file holds it (the same ownership digest, C6), inside its
// frame lines where the client's entries have them.
func (c *ClientFile) Renders(name string, s *registry.Server, sf *providers.ServerFilters) bool {
	e, ok := c.Entry(name)
	if !ok {
		return false
	}
	v, probs := providers.Spell(c.target, c.d, s)
	if len(probs) > 0 || providers.Disabled(s) && c.Provider.Switch == "" {
		return false
	}
	entry := c.d.Entry(s, &v, sf)
	dg, err := c.es.Digest(name, entry)
	if err != nil {
		return false
	}
	rule := RuleOf(c.Provider)
	if rule.Standing("", e.Digest(), e.Framed, dg) == EntryIdentical {
		return true
	}
	return !(rule.Framed && !e.Framed) && c.sameMeaning(name, entry)
}

// sameMeaning reports whether the file's entry of a name means what entry does (T6):
// the client's defaults, member order and the spelling of references aside.
func (c *ClientFile) sameMeaning(name string, entry format.Object) bool {
	cur, ok := c.es.Get(name)
	if !ok {
		return false
	}
	raw, err := format.Marshal(entry)
	return err == nil && providers.SameMeaning(c.target, c.d, cur.JSON(), raw)
}

// MeansServer reports whether an entry mcpwire wrote that changed since in form only
// still means what mcpwire writes for s (T6: a client re-saving its file with its
// defaults, "type": "stdio", an empty env): its launch members are compared, with the
// entry's own tool filters, which inject compares against the profile's.
func (c *ClientFile) MeansServer(e ClientEntry, s *registry.Server) bool {
	if e.Read == nil || RuleOf(c.Provider).Framed && !e.Framed {
		return false
	}
	v, probs := providers.Spell(c.target, c.d, s)
	return len(probs) == 0 && c.sameMeaning(e.Name, c.d.Entry(s, &v, e.Read.Filters))
}

// Filters returns the tool filters the file and its client hold for the named entries.
func (c *ClientFile) Filters(f fsys.FS, names []string) map[string]*providers.ServerFilters {
	out := map[string]*providers.ServerFilters{}
	for _, n := range names {
		if e, ok := c.Entry(n); ok && e.Read != nil && e.Read.Filters != nil {
			out[n] = e.Read.Filters
		}
	}
	for n, sf := range c.d.ReadFilters(c.Lookup, names) {
		out[n] = MergeFilters(out[n], sf)
	}
	if dr := c.d.DenyRules(); dr != nil && c.Provider.Settings[c.Scope] != nil {
		for n, sf := range dr.ReadRules(c.denyRules(f), names) {
			out[n] = MergeFilters(out[n], sf)
		}
	}
	return out
}

// denyRules reads permissions.deny of the client's settings file of the file's scope
// (Claude Code); none when it is missing or malformed.
func (c *ClientFile) denyRules(f fsys.FS) []string {
	path, err := ChoosePath(f, c.Provider.Settings[c.Scope], c.env)
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
	deny, _ := ValidateSettings(path, doc)
	return deny
}

// MergeFilters unions two filters of one server.
func MergeFilters(a, b *providers.ServerFilters) *providers.ServerFilters {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := &providers.ServerFilters{Deny: providers.AppendNew(append([]string(nil), a.Deny...), b.Deny), DenyAll: a.DenyAll || b.DenyAll}
	if a.Allow != nil || b.Allow != nil {
		out.Allow = providers.AppendNew(append([]string{}, a.Allow...), b.Allow)
	}
	return out
}

// AdoptTarget is the target that adds entries of the file (import --adopt, B2) to its
// ownership record as they are, as the record is under the transaction's lock
// (settled against the file when a staged record lies beside it). The client file
// does not change, so nothing is staged.
func (c *ClientFile) AdoptTarget(f fsys.FS, layer string, names []string) (fsys.Target, error) {
	path, canon, err := entryRecordPath(layer, c.Path, c.local.Container, c.local.Scope != "")
	if err != nil {
		return fsys.Target{}, err
	}
	digests := map[string]string{}
	for _, n := range names {
		e, _ := c.Entry(n)
		digests[n] = e.Digest()
	}
	return fsys.Target{
		Path:     path,
		DirPerm:  0o700,
		Check:    func() error { return CheckRecordDir(f, path) },
		CheckKey: RecordDirKey(path),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			rec := &OwnRecord{Destination: canon, Entries: map[string]string{}}
			if cur.Exists {
				if err := decodeRecord(cur.Data, rec); err != nil {
					return nil, 0, false, corruptRecord(path, err)
				}
			}
			stagedRaw, staged, err := ReadOptional(f, path+StagedSuffix)
			if err != nil {
				return nil, 0, false, err
			}
			if staged {
				st, err := decodeOwnStage(path+StagedSuffix, stagedRaw)
				if err != nil {
					return nil, 0, false, err
				}
				rec, _ = st.Settle(rec, EntryDigest(c.d, c.doc, c.es))
			}
			rec.Destination, rec.LocalRecord, rec.Providers = canon, c.local, rec.Writers(c.Provider.Name)
			if rec.Provider == "" {
				rec.Provider = c.Provider.Name
			}
			maps.Copy(rec.Entries, digests)
			return rec.Encode(), 0o600, false, nil
		},
	}, nil
}
