package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// grokBuildClient is Grok Build.
var grokBuildClient = &Provider{
	Name: "grok-build", Display: "Grok Build", DefaultScope: Project,
	Order: 120, Aliases: []string{"grok"},
	dialect: newGrok,
	Project: &Dest{Base: ProjectDir, Dir: []string{".grok"}, Files: []string{"config.toml"}},
	User:    &Dest{Env: "GROK_HOME", Base: Home, Dir: []string{".grok"}, Files: []string{"config.toml"}},
	// Grok Build also reads Claude Code's and Cursor's files (grok mcp doctor lists
	// them as sources; its user guide 07-mcp-servers.md)
	AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}, {Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}},
		{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}}, {Base: Home, Dir: []string{".cursor"}, Files: []string{"mcp.json"}}},
	Format: format.TOML, ServersKey: "mcp_servers", Switch: "enabled", Refs: refDollar,
	Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone, Owner: OwnerMarkers, Frame: grokFrame,
	ProjectNote: "Grok Build starts a project's servers only in a folder you trust (grok --trust, kept in ~/.grok/trusted_folders.toml)",
	Sources: []string{"docs.x.ai/build/features/mcp-servers", "docs.x.ai/build/settings/reference",
		"grok 1.0.41 tested (conformance/grok_test.go)",
		"@xai-official/grok 1.0.41 user-guide/07-mcp-servers.md (compat sources .mcp.json, ~/.claude.json, .cursor/mcp.json, ~/.cursor/mcp.json; trust) and 26-config-reference.md"},
	Conformance: true,
}

func init() { register(grokBuildClient) }

// grok is Grok Build's [mcp_servers.NAME] table (TOML): url and headers, or command,
// args, env; and the marker lines around every table mcpwire writes, which are how
// Grok Build's files say whose a table is (C6, OwnerMarkers). It has no
// tool filters.
type grok struct {
	base
	p *Provider
}

func newGrok(p *Provider) Dialect { return grok{p: p} }

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

// grokFrame is the marker lines.
var grokFrame = &format.Frame{Start: grokStart, End: grokEnd}
