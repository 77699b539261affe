package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// codex is Codex CLI's [mcp_servers.NAME] table (TOML). References go by variable
// name in members of their own (env_vars, env_http_headers, bearer_token_env_var:
// V4); tool filters are enabled_tools / disabled_tools, and a whole-server deny
// switches the server off with enabled = false (F3). Its standalone output is a
// runtime home (X1), not a file.
type codex struct{ p *providers.Provider }

func newCodex(p *providers.Provider) Dialect { return codex{p} }

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

// RefsByName: Codex passes variables by name.
func (codex) RefsByName() {}

// RuntimeHome: a runtime home shares history, sessions and the login (auth.json, X3)
// with the Codex home, and a session sets only CODEX_HOME to it: Codex reads its
// configuration and login from CODEX_HOME alone (checked with codex 0.169.0 in the
// conformance suite), and HOME stays the person's for git, ssh and the servers it
// starts.
func (d codex) RuntimeHome() RuntimeHome {
	return RuntimeHome{Linked: []string{"history.jsonl", "sessions", codexAuth}, Login: codexAuth, Env: []string{d.p.User.Env}, LineEnv: d.p.User.Env}
}

// codexAuth is the file of a Codex home that holds the login.
const codexAuth = "auth.json"
