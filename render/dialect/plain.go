package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// plain is the common mcpServers entry: {command, args, env} and {url, headers}, the
// URL under the client's own member (serverUrl for Windsurf and Antigravity), the
// working directory under its own (Warp's working_directory), and the client's switch.
// Claude Desktop, Cursor, Windsurf, Antigravity, Warp, RunWield, Kiro, Zed, Trae and
// JetBrains Junie write it. Windsurf, Antigravity, Kiro, Roo Code and Zoo Code filter
// with disabledTools (see disabledtools.go).
//
// A client that names a transport in a "type" member with values of its own (the
// table's Types) gets it first: Cline's {type:"stdio"|"streamableHttp"|"sse", …},
// Roo Code's and Zoo Code's {type:"streamable-http"|"sse", …} on remote entries only.
// Cline also reads a nested {transport:{type, …}} entry (what `cline mcp add`
// writes); mcpwire writes the flat one, which every Cline reader of the shared file
// accepts (docs/clients.md), and leaves nested entries it did not write alone.
type plain struct {
	p  *providers.Provider
	dt *disabledTools // nil for a client without tool filters
}

func newPlain(p *providers.Provider) Dialect {
	d := plain{p: p}
	if p.Deny == providers.DenyDisabledTools {
		d.dt = &disabledTools{p}
	}
	if p.Owner == providers.OwnerKeepExisting {
		return keepingPlain{d}
	}
	if p.Ephemeral && p.User != nil && p.User.EnvFile {
		return namedFile{d}
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
// Cursor's envFile and auth, a timeout, Cline's metadata and oauth state.
var plainOwn = []string{"envFile", "auth", "timeout", "metadata", "oauth"}

// Read reads an entry back: an optional type, the launch members (Windsurf's url as
// well as its serverUrl), the switch and disabledTools; for Cline, from its nested
// transport member too.
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

// keepingPlain is plain for a client whose entries mcpwire does not own are kept as
// they are, with the profile's filters merged in (Antigravity).
type keepingPlain struct{ plain }

// MergeKept merges the profile's filters into a kept entry.
func (d keepingPlain) MergeKept(path string, es format.Entries, name string, existing format.Value, sf *ServerFilters) error {
	if d.dt == nil {
		return nil
	}
	return d.dt.mergeKept(path, es, name, existing, sf)
}

// namedFile is plain for a client whose user file a variable names outright (Cline's
// CLINE_MCP_SETTINGS_PATH): a standalone file works (C5).
type namedFile struct{ plain }

// Launch names the standalone file with that variable. Cline then reads only that
// file's servers, but mcpwire has not seen it run, so session does not use it (Exact
// is false).
func (d namedFile) Launch(out, _ string) Launch {
	return Launch{Env: []string{d.p.User.Env, out}, Binary: d.p.Binary}
}
