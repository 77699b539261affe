package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// grok is Grok Build's [mcp_servers.NAME] table (TOML): url and headers, or command,
// args, env; and the marker lines around every table mcpwire writes, which are how
// Grok Build's files say whose a table is (C6, providers.OwnerMarkers). It has no
// tool filters.
type grok struct{ p *providers.Provider }

func newGrok(p *providers.Provider) Dialect { return grok{p} }

// Grok Build marker lines: "# >>> mcpwire-managed: NAME" above a table and
// "# <<< mcpwire-managed: NAME" below it.
const (
	grokStart = "# >>> mcpwire-managed: "
	grokEnd   = "# <<< mcpwire-managed: "
)

func (d grok) Entry(s *registry.Server, v *Values, _ *ServerFilters) format.Object {
	e := launch(d.p, nil, s, v, memberURL)
	switchOff(d.p, &e, s, nil)
	return e
}

func (grok) Filters() FilterSpec { return FilterSpec{} }

// grokOwn are Grok Build's members mcpwire does not write.
var grokOwn = []string{"startup_timeout_sec", "tool_timeout_sec"}

// Read reads a table back: the launch members and the switch.
func (d grok) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	s := readLaunch(d.p, r, memberHeaders, memberURL)
	r.switchOff(d.p, s)
	return r.done(s, nil, grokOwn...)
}

// Frame is the marker lines.
func (grok) Frame() *format.Frame { return &format.Frame{Start: grokStart, End: grokEnd} }
