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
	Live:        ampLive,
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

// Amp's liveness (amp 0.0.1790142911 tested, docs/explain.md): the workspace's
// .amp/settings.json (from the start directory up to the project's top, the nearest
// first) over the user's settings, whole entries; a workspace server
// waits for `amp mcp approve`, which records it in amp.mcpTrustedServers of the
// user's settings, and keeps its name while it waits. Amp reads no per-entry switch
// ("disabled" is not read).
func ampLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkRoot, Approve: true, Hold: true},
			{At: At{Scope: User}},
		},
		Approval: ampApproval{},
		Ignored:  []string{"disabled"},
	}
}

// ampApproval: an entry of amp.mcpTrustedServers with the server's name and allow
// true. Amp binds it to a hash of the entry, which mcpwire does not compute: an entry
// changed since its approval waits again, and explain does not see it.
type ampApproval struct{}

func (ampApproval) Approved(f Files, _ Where, _ Source, name string, _ json.RawMessage) (bool, Rule) {
	for _, file := range f.Resolve(At{Scope: User}) {
		raw, ok := f.Member(file, "amp.mcpTrustedServers")
		var list []struct {
			Name  string `json:"serverName"`
			Allow bool   `json:"allow"`
		}
		if !ok || json.Unmarshal(raw, &list) != nil {
			continue
		}
		for _, t := range list {
			if t.Name == name {
				r := Rule{File: file, Path: []string{"amp.mcpTrustedServers"}, Text: "approved in Amp"}
				if !t.Allow {
					r.Text = "refused in Amp (amp.mcpTrustedServers)"
				}
				return t.Allow, r
			}
		}
	}
	return false, Rule{Text: "waiting for approval in Amp: amp mcp approve " + name}
}
