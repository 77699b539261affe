package registry

import (
	"encoding/json"
	"fmt"
	"maps"
	"time"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
)

// now returns the timestamp for bookkeeping fields.
func (r *Registry) now() string {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now().UTC().Format(time.RFC3339)
}

// commit writes deltas to the write layer, then refreshes the merged view from what
// was written. Nothing in memory changes when the write fails (L10).
func (r *Registry) commit(deltas ...layers.Delta) error {
	return r.commitAdded(nil, deltas...)
}

// commitAdded is commit for deltas that add the servers added (the entries of a
// Delta.Add, as entryJSON encodes them): those whose entries decode back to them are
// taken as they are, not decoded again from the file just written (K7: an import
// adds 200,000). The save wrote each of them, as it is, into a file where it was
// absent under the lock, or failed.
func (r *Registry) commitAdded(added []*Server, deltas ...layers.Delta) error {
	var warning string
	for i := range deltas {
		if deltas[i].Kind == layers.Servers {
			if w, ok := r.dropStalePolicy(&deltas[i]); ok {
				warning = w
			}
		}
	}
	before := r.set.Write().Servers.Entries // as this process read them; Save replaces them
	if err := r.set.Save(deltas...); err != nil {
		return err
	}
	w := r.writeIndex()
	l := r.set.Write()
	if _, kept := l.Servers.Top["credentialPolicy"]; warning != "" && !kept {
		r.warn(warning)
	}
	srv, errs := decodeWritten(l.Servers, before, added)
	prof, errs2 := decodeProfiles(l.Profiles)
	if errs = append(errs, errs2...); len(errs) > 0 {
		return &layers.LoadError{Problems: errs}
	}
	r.servers[w], r.profiles[w] = srv, prof
	r.personal = nil
	if raw, ok := l.Servers.Top["credentialPolicy"]; ok {
		if lvl, err := policy.ParseJSON(raw); err == nil {
			r.personal = &lvl
		}
	}
	r.merge()
	return nil
}

// decodeWritten decodes the servers of the write layer's file as decodeServers does,
// but for those of added that decode back to themselves (roundTrips), taken as they
// are. before are the file's entries as this process read them, which hold none of
// added: when the file holds them all and nothing else, only they and the added
// servers that do not round-trip are decoded, not each name of the file looked up.
func decodeWritten(f *layers.File, before map[string]json.RawMessage, added []*Server) (map[string]*Server, []string) {
	if len(added) == 0 {
		return decodeServers(f)
	}
	// each of added is an entry of the file: the save added it or failed
	out := make(map[string]*Server, len(f.Entries))
	var others []string
	for _, s := range added {
		if roundTrips(s) {
			out[s.Name] = s
		} else {
			others = append(others, s.Name)
		}
	}
	rest := &layers.File{Path: f.Path, Kind: f.Kind, Entries: make(map[string]json.RawMessage, len(before)+len(others))}
	if len(f.Entries) == len(before)+len(added) {
		for name := range before {
			others = append(others, name)
		}
		for _, name := range others {
			raw, ok := f.Entries[name]
			_, twice := out[name]
			if !ok || twice { // changed by another process meanwhile: look all up
				clear(rest.Entries)
				break
			}
			rest.Entries[name] = raw // a name twice here leaves rest short: all looked up
		}
	}
	if len(rest.Entries) != len(f.Entries)-len(out) {
		clear(rest.Entries)
		for name, raw := range f.Entries {
			if _, ok := out[name]; !ok {
				rest.Entries[name] = raw
			}
		}
	}
	decoded, problems := decodeServers(rest)
	maps.Copy(out, decoded)
	return out, problems
}

// roundTrips reports whether a valid server decodes from its entry (entryJSON) to
// what it is, field for field (TestAddedServersAreTheDecoded): it holds only
// strings, lists and maps of strings, and a flag; no list or map is empty but not
// nil (the entry leaves it out: it decodes as nil); every string is valid UTF-8 (the
// entry replaces what is not).
func roundTrips(s *Server) bool {
	if s.Timeout != nil || s.WorkerQualification != nil || s.Auth != nil || s.OAuth != nil || s.Inputs != nil || s.Extra != nil {
		return false
	}
	for _, v := range []string{s.Name, s.Type, s.Command, s.URL, s.BearerEnv, s.BearerInput, s.BearerSecret, s.Cwd, s.Description, s.AddedAt, s.UpdatedAt} {
		if !utf8.ValidString(v) {
			return false
		}
	}
	for _, l := range [][]string{s.Args, s.PlainEnv, s.PlainHeaders, s.InjectedProviders} {
		if l != nil && len(l) == 0 {
			return false
		}
		for _, v := range l {
			if !utf8.ValidString(v) {
				return false
			}
		}
	}
	for _, m := range []map[string]string{s.Env, s.EnvFrom, s.Headers, s.HeaderEnv, s.EnvInput, s.HeaderInput, s.EnvSecret, s.HeaderSecret} {
		if m != nil && len(m) == 0 {
			return false
		}
		for k, v := range m {
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				return false
			}
		}
	}
	return true
}

// dropStalePolicy makes a save of mcp-servers.json remove a write-layer policy
// weaker than the floor (P4), unless another process changed it meanwhile. It
// returns the warning to print once the save has dropped it. The delta's maps are
// replaced, not changed: the caller's are left alone.
func (r *Registry) dropStalePolicy(d *layers.Delta) (string, bool) {
	if r.personal == nil || !r.floor.Set || *r.personal >= r.floor.Level {
		return "", false
	}
	if _, explicit := d.Top["credentialPolicy"]; explicit {
		return "", false
	}
	seen, ok := r.set.Write().Servers.Top["credentialPolicy"]
	if !ok {
		return "", false
	}
	drop := make(map[string]json.RawMessage, len(d.DropTopIf)+1)
	for k, v := range d.DropTopIf {
		drop[k] = v
	}
	drop["credentialPolicy"] = seen
	d.DropTopIf = drop
	return fmt.Sprintf("dropping credentialPolicy %q from %s: it is below the organisation floor %q set in %s",
		*r.personal, r.set.Write().Servers.Path, r.floor.Level, r.floor.File), true
}

// The deltas below carry, for every entry they store or remove, the entry as this
// process read it from the write layer (or its absence): the save then refuses to
// overwrite what another process changed meanwhile (W8, L4) instead of undoing it.

// seen returns an entry of the write layer's file of kind k as this process read it;
// nil when it was absent.
func (r *Registry) seen(k layers.Kind, name string) json.RawMessage {
	return r.set.Write().File(k).Entries[name]
}

// serverDelta writes one server entry to the write layer.
func (r *Registry) serverDelta(s *Server) layers.Delta {
	return layers.Delta{Kind: layers.Servers,
		Set:    map[string]json.RawMessage{s.Name: entryJSON(s)},
		Expect: map[string]json.RawMessage{s.Name: r.seen(layers.Servers, s.Name)},
	}
}

// profileDelta writes profile entries to the write layer.
func (r *Registry) profileDelta(ps ...*Profile) layers.Delta {
	d := layers.Delta{Kind: layers.Profiles, Set: map[string]json.RawMessage{}, Expect: map[string]json.RawMessage{}}
	for _, p := range ps {
		d.Set[p.Name] = entryJSON(p)
		d.Expect[p.Name] = r.seen(layers.Profiles, p.Name)
	}
	return d
}

// removeDelta removes one entry of kind k from the write layer.
func (r *Registry) removeDelta(k layers.Kind, name string) layers.Delta {
	return layers.Delta{Kind: k, Delete: []string{name}, Expect: map[string]json.RawMessage{name: r.seen(k, name)}}
}
