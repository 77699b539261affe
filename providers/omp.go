package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// ompClient is oh-my-pi.
var ompClient = &Provider{
	Name: "omp", Display: "oh-my-pi", DefaultScope: Project,
	Order: 110, Aliases: []string{"oh-my-pi"},
	dialect: newOMP,
	Project: &Dest{Base: ProjectDir, Dir: []string{".omp"}, Files: []string{"mcp.json"}, FromCwd: true},
	User:    &Dest{Env: "PI_CODING_AGENT_DIR", Base: Home, Dir: []string{".omp", "agent"}, Files: []string{"mcp.json"}},
	Format:  format.JSON, ServersKey: "mcpServers", Switch: "enabled", Refs: refDollar,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: denyOMP, Allow: allowOMP, DisableWhole: true, Owner: OwnerStrict,
	Sources: []string{"can1357/oh-my-pi docs/mcp-config.md (enabledTools, disabledTools: names or globs)",
		"@oh-my-pi/pi-coding-agent 18.2.3 loader tested (conformance/omp_test.go; no filters yet, unknown members ignored)"},
	Conformance: true,
	Live:        ompLive,
}

func init() { register(ompClient) }

// omp is oh-my-pi's mcpServers entry: Claude Code's shape, plus the registry
// definition's own timeout, auth and oauth copied through, and the enabled switch. A
// same-named entry mcpwire did not write is never replaced, even with --force
// (OwnerStrict).
type omp struct {
	base
	p *Provider
}

func newOMP(p *Provider) Dialect { return omp{p: p} }

func (d omp) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := typedLaunch(d.p, s, v)
	if s.Timeout != nil {
		e.Set("timeout", s.Timeout)
	}
	if len(s.Auth) > 0 {
		e.Set("auth", s.Auth)
	}
	if len(s.OAuth) > 0 {
		e.Set("oauth", s.OAuth)
	}
	switchOff(d.p, &e, s, sf)
	if sf == nil {
		return e
	}
	if sf.Allow != nil {
		e.Set(ompEnabled, nonNil(sf.Allow))
	}
	if len(sf.Deny) > 0 {
		e.Set(ompDisabled, sf.Deny)
	}
	return e
}

// oh-my-pi's per-server tool filters (can1357/oh-my-pi docs/mcp-config.md): tool
// names or globs; disabledTools wins over enabledTools. 18.2.3, the newest release
// that installs, has neither and ignores them (its loader keeps the server).
const (
	ompEnabled  = "enabledTools"
	ompDisabled = "disabledTools"
)

// nonNil is tools, or an empty list for none (an allowlist that keeps no tool).
func nonNil(tools []string) []string {
	if tools == nil {
		return []string{}
	}
	return tools
}

// ompOwn are oh-my-pi's members mcpwire does not write.
var ompOwn = []string{"requestIdFormat"}

// Read reads an entry back: Claude Code's members, and timeout, auth and oauth into
// the registry's own fields.
func (d omp) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	var timeout json.RawMessage
	if r.decode("timeout", "a number", &timeout) {
		s.Timeout = timeout
	}
	r.decode("auth", "an object", &s.Auth)
	r.decode("oauth", "an object", &s.OAuth)
	return r.done(s, r.filterLists(ompDisabled, ompEnabled), ompOwn...)
}

func (d omp) Filters() FilterSpec {
	return FilterSpec{Deny: true, Allow: true, DenyAll: true, Members: []string{ompEnabled, ompDisabled}, Switch: d.p.Switch,
		Since: "in releases after 18.2.3 (18.2.3 ignores them)"}
}

// denyOMP and allowOMP are how oh-my-pi takes tool filters.
const (
	denyOMP  DenyStyle  = "disabledTools (names or globs); enabled: false for SERVER__*"
	allowOMP AllowStyle = "enabledTools (names or globs)"
)

// oh-my-pi's liveness (@oh-my-pi/pi-coding-agent 18.2.3's capability/index.ts,
// discovery/*.ts, mcp/config.ts; tested, docs/explain.md): it reads its own files
// (the project's .omp/mcp.json in the directory it starts in, then the user's) and
// other clients' project files in that directory (Claude Code's .claude/.mcp.json,
// Codex's .codex/config.toml, Gemini CLI's, opencode's, Cursor's and VS Code's, then
// .mcp.json), the first entry of a name wins, a switched-off one included; an entry
// that starts the same command (or reaches the same address) as one already loaded
// is the same server, loaded once. disabledServers in the user's mcp.json switches a
// server off. Other clients' user files are read only when the person turns them on
// in omp's settings, which mcpwire does not read.
func ompLive() *Live {
	return &Live{
		Root: RootStart,
		Sources: []Source{
			{At: At{Scope: Project}},
			{At: At{Scope: Project, Dest: &Dest{Base: ProjectDir, Dir: []string{".omp"}, Files: []string{".mcp.json"}}}},
			{At: At{Scope: User}},
			{At: At{Scope: User, Dest: &Dest{Env: "PI_CODING_AGENT_DIR", Base: Home, Dir: []string{".omp", "agent"}, Files: []string{".mcp.json"}}}},
			{At: At{Scope: Project, Of: "claude-code", Dest: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{".mcp.json", "mcp.json"}}}, Label: ".claude"},
			{At: At{Scope: Project, Of: "codex", Dest: &Dest{Base: ProjectDir, Dir: []string{".codex"}, Files: []string{"config.toml"}}}, Label: ".codex"},
			{At: At{Scope: Project, Of: "gemini-cli"}, Label: ".gemini"},
			{At: At{Scope: Project, Of: "opencode"}, Label: "opencode.json"},
			{At: At{Scope: Project, Of: "cursor"}, Label: ".cursor"},
			{At: At{Scope: Project, Of: "vscode"}, Label: ".vscode"},
			{At: At{Scope: Project, Of: "claude-code", Dest: &Dest{Base: ProjectDir, Files: []string{"mcp.json"}}}, Label: "mcp.json"},
			{At: At{Scope: Project, Of: "claude-code"}, Label: ".mcp.json"},
		},
		Collapse: true,
		Lists:    []NameList{{At: At{Scope: User}, Path: []string{"disabledServers"}}},
	}
}
