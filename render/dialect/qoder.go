package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// qoder is Qoder CLI's mcpServers entry, in its settings files and in the project's
// .mcp.json, which it shares with Claude Code and Copilot CLI (V10): Claude Code's
// spelling ({command,args,env} and {type,url,headers}) with the disabled switch. Qoder
// has no tool filter in an entry and no per-run file.
type qoder struct{ p *providers.Provider }

func newQoder(p *providers.Provider) Dialect { return qoder{p} }

func (d qoder) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	return typedEntry(d.p, s, v, sf)
}

func (qoder) Filters() FilterSpec { return FilterSpec{} }

// Read reads an entry back: Claude Code's members and the switch.
func (d qoder) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	return r.done(s, nil)
}
