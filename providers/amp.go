package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// ampClient is Amp.
var ampClient = &Provider{
	Name: "amp", Display: "Amp", DefaultScope: User,
	Order:   180,
	dialect: newAmp,
	Project: &Dest{Base: ProjectDir, Dir: []string{".amp"}, Files: []string{"settings.json", "settings.jsonc"}},
	User:    &Dest{Env: "AMP_SETTINGS_FILE", EnvFile: true, Base: XDGConfig, Dir: []string{"amp"}, Files: []string{"settings.json", "settings.jsonc"}},
	Format:  format.JSONC, ServersKey: "amp.mcpServers", Refs: refDollar,
	Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Binary: "amp", Ephemeral: true,
	ProjectNote: "Amp starts workspace servers after amp mcp approve NAME",
	Sources: []string{"ampcode.com/manual (settings files, amp.mcpServers)", "amp --help, amp mcp add --help",
		"amp 0.0.1790142911-g7618fb tested (observe/OBSERVED.md)"},
	Conformance: true,
}

func init() { register(ampClient) }

// amp is Amp's entry under the flat top-level key "amp.mcpServers" (one key with a dot
// in it, not nested): {command, args, env} and {url, headers}, with "transport":"sse"
// for an SSE server (Amp detects the transport otherwise). Amp does not honour a
// disabled member, and whether it applies includeTools is unconfirmed, so it has
// neither switch nor tool filter here. Its --mcp-config takes a bare map of servers.
type amp struct {
	base
	p *Provider
}

func newAmp(p *Provider) Dialect { return amp{p: p} }

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
func (amp) Standalone(doc format.Object, _ *FilterSet, _ []registry.Input) format.Object {
	if servers, ok := doc[0].Value.(format.Object); ok {
		return servers
	}
	return doc
}

// Launch merges the standalone file's servers with the person's own for a run.
func (d amp) Launch(out, _ string) (Launch, bool) {
	return Launch{Binary: d.p.Binary, Args: []string{ampMCPConfig, out}}, true
}
