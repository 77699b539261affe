package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// amp is Amp's entry under the flat top-level key "amp.mcpServers" (one key with a dot
// in it, not nested): {command, args, env} and {url, headers}, with "transport":"sse"
// for an SSE server (Amp detects the transport otherwise). Amp does not honour a
// disabled member, and whether it applies includeTools is unconfirmed, so it has
// neither switch nor tool filter here. Its --mcp-config takes a bare map of servers.
type amp struct{ p *providers.Provider }

func newAmp(p *providers.Provider) Dialect { return amp{p} }

const (
	ampTransport = "transport"
	ampMCPConfig = "--mcp-config"
)

func (d amp) Entry(s *registry.Server, v *Values, _ *ServerFilters) format.Object {
	e := launch(d.p, nil, s, v, memberURL)
	if s.Remote() && s.Type == registry.SSE {
		e.Set(ampTransport, registry.SSE)
	}
	return e
}

func (amp) Filters() FilterSpec { return FilterSpec{} }

// ampOwn are Amp's members mcpwire does not write.
var ampOwn = []string{"includeTools", "disabled"}

// Read reads an entry back: the launch members, and "transport": "sse" (a URL is
// streamable HTTP otherwise).
func (d amp) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	typ := r.readType(ampTransport)
	s := readLaunch(d.p, r, memberHeaders, memberURL)
	s.Type = typ
	return r.done(s, nil, ampOwn...)
}

// Standalone is the bare map of servers Amp's --mcp-config takes.
func (amp) Standalone(doc format.Object, _ *FilterSet) format.Object {
	if servers, ok := doc[0].Value.(format.Object); ok {
		return servers
	}
	return doc
}

// Launch merges the standalone file's servers with the person's own for a run.
func (d amp) Launch(out, _ string) Launch {
	return Launch{Binary: d.p.Binary, Args: []string{ampMCPConfig, out}}
}
