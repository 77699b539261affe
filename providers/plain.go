package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// plain is the common mcpServers entry: {command, args, env} and {url, headers}, the
// URL under the client's own member (serverUrl for Windsurf and Antigravity), the
// working directory under its own (Warp's working_directory), and the client's switch.
// Most clients write it; those with DenyDisabledTools filter with disabledTools (see
// disabledtools.go).
//
// A client that names a transport in a "type" member with values of its own (its
// Types) gets it first. A client whose Nested member may hold an entry's transport
// members reads them from there too; mcpwire writes the flat entry.
type plain struct {
	base
	p  *Provider
	dt *disabledTools // nil for a client without tool filters
}

func newPlain(p *Provider) Dialect { return plainOf(p) }

// plainOf is the plain shape of p's entries, for a client file that adds to it.
func plainOf(p *Provider) plain {
	d := plain{p: p}
	if p.Deny == DenyDisabledTools {
		d.dt = &disabledTools{p}
	}
	return d
}

func (d plain) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := launch(d.p, typeMember(d.p, s), s, v, urlKey(d.p))
	switchOff(d.p, &e, s, sf)
	if d.dt != nil {
		d.dt.members(&e, sf)
	}
	return e
}

// plainOwn are members of the common shape's clients with no registry equivalent:
// an envFile and auth, a timeout, metadata and oauth state.
var plainOwn = []string{"envFile", "auth", "timeout", "metadata", "oauth"}

// Read reads an entry back: an optional type, the launch members (under the client's
// URL member or url), the switch and disabledTools; from the client's Nested member
// too.
func (d plain) Read(entry json.RawMessage) (*Imported, error) {
	entry, err := unnest(entry, d.p.Nested)
	if err != nil {
		return nil, err
	}
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	typ := r.readType(d.p.Types.Member())
	s := readLaunch(d.p, r, memberHeaders, urlKey(d.p), memberURL)
	s.Type = typ
	r.switchOff(d.p, s)
	var sf *ServerFilters
	if d.dt != nil {
		sf = d.dt.read(r)
	}
	return r.done(s, sf, plainOwn...)
}

func (d plain) Filters() FilterSpec {
	if d.dt == nil {
		return FilterSpec{}
	}
	return d.dt.spec()
}

// Update keeps the disabledTools already in the file (UnionDisabled).
func (d plain) Update(path, name string, existing format.Value, entry format.Object) (format.Object, error) {
	if d.dt == nil {
		return entry, nil
	}
	return d.dt.update(path, name, existing, entry)
}
