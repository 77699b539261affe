package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// codexClient is Codex CLI.
var codexClient = &Provider{
	Name: "codex", Display: "Codex CLI", DefaultScope: User,
	Order: 30, Aliases: []string{"openai"},
	dialect: newCodex,
	User:    &Dest{Env: codexHome, Base: Home, Dir: []string{".codex"}, Files: []string{"config.toml"}},
	Format:  format.TOML, ServersKey: "mcp_servers", Switch: "enabled", Refs: refNames,
	Remote: RemoteHTTP, CwdKey: "cwd", Deny: denyCodex, Allow: allowCodex, Binary: "codex", Ephemeral: true,
	SecretEnvArgs: []string{"-c", "features.shell_snapshot=false"},
	Sources:       []string{"openai/codex codex-rs/config/src/mcp_types.rs", "openai/codex docs/config.md", "developers.openai.com/codex/config-reference"},
	Conformance:   true,
	RuntimeHome:   codexRuntimeHome,
	Live:          codexLive,
	admin:         codexAdmin,
}

func init() { register(codexClient) }

// codex is Codex CLI's [mcp_servers.NAME] table (TOML). References go by variable
// name in members of their own (env_vars, env_http_headers, bearer_token_env_var:
// V4); tool filters are enabled_tools / disabled_tools, and a whole-server deny
// switches the server off with enabled = false (F3). Its standalone output is a
// runtime home (X1), not a file.
type codex struct {
	base
	p *Provider
}

func newCodex(p *Provider) Dialect { return codex{p: p} }

// Codex's own members.
const (
	codexHTTPHeaders   = "http_headers"
	codexEnvHTTP       = "env_http_headers"
	codexBearer        = "bearer_token_env_var"
	codexEnvVars       = "env_vars"
	codexEnabledTools  = "enabled_tools"
	codexDisabledTools = "disabled_tools"
	codexEnabled       = "enabled"
)

func (d codex) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	var e format.Object
	if s.Remote() {
		e.Set(memberURL, v.URL)
		if len(v.Headers) > 0 {
			e.Set(codexHTTPHeaders, v.Headers)
		}
		if len(v.EnvHTTPHeaders) > 0 {
			e.Set(codexEnvHTTP, v.EnvHTTPHeaders)
		}
		if v.BearerVar != "" {
			e.Set(codexBearer, v.BearerVar)
		}
	} else {
		// env_vars goes after env and before the working directory
		lv := *v
		lv.Cwd = ""
		e = launch(d.p, e, s, &lv, memberURL)
		if len(v.EnvVars) > 0 {
			e.Set(codexEnvVars, v.EnvVars)
		}
		if v.Cwd != "" && d.p.CwdKey != "" {
			e.Set(d.p.CwdKey, v.Cwd)
		}
	}
	off := Disabled(s)
	if sf != nil {
		off = off || sf.DenyAll
		if sf.Allow != nil {
			e.Set(codexEnabledTools, exactNames(sf.Allow))
		}
		if names, _ := Exact(sf.Deny); len(names) > 0 {
			e.Set(codexDisabledTools, names)
		}
	}
	if off {
		e.Set(codexEnabled, false)
	}
	return e
}

// codexOwn are Codex's members with no registry equivalent.
var codexOwn = []string{"startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec", "required",
	"default_tools_approval_mode", "tools", "supports_parallel_tool_calls", "scopes", "oauth", "oauth_resource"}

// Read reads a table back, references included: env_vars (names passed under their
// own name) become envFrom, env_http_headers headerEnv, bearer_token_env_var
// bearerEnv; http_headers are the literal headers; the switch, enabled_tools and
// disabled_tools.
func (d codex) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	s := readLaunch(d.p, r, codexHTTPHeaders, memberURL)
	for _, n := range r.strs(codexEnvVars) {
		if s.EnvFrom == nil {
			s.EnvFrom = map[string]string{}
		}
		s.EnvFrom[n] = n
	}
	s.HeaderEnv = r.strMap(codexEnvHTTP)
	s.BearerEnv = r.str(codexBearer)
	r.switchOff(d.p, s)
	return r.done(s, r.filterLists(codexDisabledTools, codexEnabledTools), codexOwn...)
}

func (codex) Filters() FilterSpec {
	return FilterSpec{
		Deny: true, Allow: true, ExactDeny: true, ExactAllow: true, DenyAll: true,
		Members: []string{codexEnabledTools, codexDisabledTools}, Switch: codexEnabled, SwitchLast: true,
	}
}

// codexRuntimeHome: a runtime home shares history, sessions and the login (auth.json, X3)
// with the Codex home, and a session sets only CODEX_HOME to it: Codex reads its
// configuration and login from CODEX_HOME alone (checked with codex 0.169.0 in the
// conformance suite), and HOME stays the person's for git, ssh and the servers it
// starts.
var codexRuntimeHome = &RuntimeHome{Linked: []string{"history.jsonl", "sessions", codexAuth}, Login: codexAuth,
	Env: []string{codexHome}, LineEnv: codexHome, Called: "Codex runtime home"}

// codexHome is the variable naming the Codex home.
const codexHome = "CODEX_HOME"

// codexAuth is the file of a Codex home that holds the login.
const codexAuth = "auth.json"

// denyCodex is how the client takes deny filters.
const denyCodex DenyStyle = "disabled_tools; enabled = false for SERVER__*"

// allowCodex is how the client takes allow filters.
const allowCodex AllowStyle = "enabled_tools"

// Clients that take variables by name, in members of their own.
var refNames = policy.Spelling{Style: "variable names (env_vars, env_http_headers, bearer_token_env_var)", ByName: true}

// Codex CLI's liveness (codex 0.169.0 tested, docs/explain.md): the project's
// .codex/config.toml files (from the start directory up to the project's top, the
// nearest first), read only in a project the person trusts, are layered over
// ~/.codex/config.toml: a server's table is merged member by member, the nearest
// members winning ("enabled" included); a table it cannot use fails the whole
// configuration. Trust is [projects."<project>"] trust_level = "trusted" in the
// user's config.toml.
func codexLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project, Dest: &Dest{Base: ProjectDir, Dir: []string{".codex"}, Files: []string{"config.toml"}}}, Walk: WalkRoot, Trust: true},
			{At: At{Scope: User}},
		},
		Merge:         true,
		Trust:         codexTrust{},
		DropsBadFiles: true,
	}
}

// codexTrust: trust_level = "trusted" in the project's table of the user's
// config.toml.
type codexTrust struct{}

func (codexTrust) Trusted(f Files, w Where) (bool, Rule) {
	files := f.Resolve(At{Scope: User})
	path := []string{"projects", w.Root, "trust_level"}
	for _, file := range files {
		raw, ok := f.Member(file, path...)
		var level string
		if ok && json.Unmarshal(raw, &level) == nil && level == "trusted" {
			return true, Rule{Text: "Codex CLI trusts " + w.Root, File: file, Path: path}
		}
	}
	r := Rule{Text: "Codex CLI does not trust " + w.Root + ": it reads the project's .codex/config.toml only in a trusted project (trust_level in [projects])"}
	if len(files) > 0 {
		r.File = files[0]
	}
	return false, r
}

// codexAdmin is where an administrator's policy for the client is, and what it says (G3).
var codexAdmin = &AdminPolicy{
	Style: AdminIdentities,
	Paths: AdminPaths{
		Darwin: "/etc/codex/requirements.toml",
		Linux:  "/etc/codex/requirements.toml",
	},
	Sources: []string{
		"https://github.com/openai/codex/pull/9101 (mcp_servers requirements matched on name and identity)",
		"codex-rs config requirements: [mcp_servers.NAME.identity] command = PROGRAM or url = URL",
	},
}
