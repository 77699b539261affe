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
	Live:        grokLive,
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

// Grok Build's liveness (grok 1.0.41 tested: mcp doctor's sources,
// docs/explain.md): its own config.toml files and Claude Code's and Cursor's files
// (~/.claude.json's servers, the project's own among them, .mcp.json,
// ~/.cursor/mcp.json, .cursor/mcp.json), the project's found from the start directory
// up to the project's top, the nearest first. The project's servers wait for the
// folder's trust (trusted_folders.toml) and keep their name while they wait.
// disabled_mcp_servers in the user's config.toml switches a server off.
func grokLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkRoot, Trust: true, Hold: true},
			{At: At{Scope: Project, Of: "claude-code"}, Walk: WalkRoot, Trust: true, Hold: true, Label: ".mcp.json"},
			{At: At{Scope: Local, Of: "claude-code"}, Trust: true, Hold: true, Label: "~/.claude.json project"},
			{At: At{Scope: Project, Of: "cursor"}, Walk: WalkRoot, Trust: true, Hold: true, Label: ".cursor"},
			{At: At{Scope: User}},
			{At: At{Scope: User, Of: "claude-code"}, Label: "~/.claude.json"},
			{At: At{Scope: User, Of: "cursor"}, Label: "~/.cursor"},
		},
		Trust: grokTrust{},
		Lists: []NameList{{At: At{Scope: User}, Path: []string{"disabled_mcp_servers"}}},
	}
}

// grokTrust: [folders."<project>"] trusted = true in trusted_folders.toml beside
// the user's config.toml.
type grokTrust struct{}

func (grokTrust) Trusted(f Files, w Where) (bool, Rule) {
	at := At{Dest: &Dest{Env: "GROK_HOME", Base: Home, Dir: []string{".grok"}, Files: []string{"trusted_folders.toml"}}}
	files := f.Resolve(at)
	path := []string{"folders", w.Root, "trusted"}
	for _, file := range files {
		raw, ok := f.Member(file, path...)
		var v bool
		if ok && json.Unmarshal(raw, &v) == nil && v {
			return true, Rule{Text: "Grok Build trusts " + w.Root, File: file, Path: path}
		}
	}
	r := Rule{Text: "Grok Build does not trust " + w.Root + " yet: it asks when it starts there (grok --trust), and starts no project server until then"}
	if len(files) > 0 {
		r.File = files[0]
	}
	return false, r
}
