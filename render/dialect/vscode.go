package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// vscode is VS Code's "servers" entry: "type" on every entry (stdio, http, sse), then
// command, args, env, cwd or url, headers. It has no tool filters in the file.
type vscode struct{ p *providers.Provider }

func newVSCode(p *providers.Provider) Dialect { return vscode{p} }

func (d vscode) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	typ := registry.Stdio
	if s.Remote() {
		typ = s.Type
	}
	e := launch(d.p, format.Object{{Key: memberType, Value: typ}}, s, v, memberURL)
	switchOff(d.p, &e, s, sf)
	return e
}

func (vscode) Filters() FilterSpec { return FilterSpec{} }

// vscodeOwn are VS Code's members with no registry equivalent.
var vscodeOwn = []string{"envFile", "sandboxEnabled", "sandbox", "dev"}

// Read reads an entry back: type and launch members.
func (d vscode) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	return r.done(s, nil, vscodeOwn...)
}
