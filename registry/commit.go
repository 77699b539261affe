package registry

import (
	"encoding/json"
	"fmt"
	"time"

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
	var warning string
	for i := range deltas {
		if deltas[i].Kind == layers.Servers {
			if w, ok := r.dropStalePolicy(&deltas[i]); ok {
				warning = w
			}
		}
	}
	if err := r.set.Save(deltas...); err != nil {
		return err
	}
	if warning != "" {
		r.warn(warning)
	}
	w := r.writeIndex()
	l := r.set.Write()
	srv, errs := decodeServers(l.Servers)
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

// dropStalePolicy makes a save of mcp-servers.json remove a write-layer policy
// weaker than the floor (P4). It returns the warning to print once the save has
// succeeded. The delta's Top map is replaced, not changed: the caller's map is left
// alone.
func (r *Registry) dropStalePolicy(d *layers.Delta) (string, bool) {
	if r.personal == nil || !r.floor.Set || *r.personal >= r.floor.Level {
		return "", false
	}
	if _, explicit := d.Top["credentialPolicy"]; explicit {
		return "", false
	}
	top := make(map[string]json.RawMessage, len(d.Top)+1)
	for k, v := range d.Top {
		top[k] = v
	}
	top["credentialPolicy"] = nil
	d.Top = top
	return fmt.Sprintf("dropping credentialPolicy %q from %s: it is below the organisation floor %q set in %s",
		*r.personal, r.set.Write().Servers.Path, r.floor.Level, r.floor.File), true
}

// serverDelta writes one server entry to the write layer.
func serverDelta(s *Server) layers.Delta {
	return layers.Delta{Kind: layers.Servers, Set: map[string]json.RawMessage{s.Name: entryJSON(s)}}
}

// profileDelta writes profile entries to the write layer.
func profileDelta(ps ...*Profile) layers.Delta {
	d := layers.Delta{Kind: layers.Profiles, Set: map[string]json.RawMessage{}}
	for _, p := range ps {
		d.Set[p.Name] = entryJSON(p)
	}
	return d
}
