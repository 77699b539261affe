package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// kimiCodeClient is Kimi Code.
var kimiCodeClient = &Provider{
	Name: "kimi-code", Display: "Kimi Code", DefaultScope: User,
	Order: 250, Aliases: []string{"kimi"},
	dialect: newKimi,
	Project: &Dest{Base: ProjectDir, Dir: []string{".kimi-code"}, Files: []string{"mcp.json"}, FromCwd: true},
	User:    &Dest{Env: "KIMI_CODE_HOME", Base: Home, Dir: []string{".kimi-code"}, Files: []string{"mcp.json"}},
	// Kimi Code also reads <git root>/.mcp.json, between its user and project files
	AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}},
	Format:    format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "enabled", Refs: refBearerVar,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: denyKimi, Allow: allowKimi, DisableWhole: true,
	Sources: []string{"MoonshotAI/kimi-code docs/en/customization/mcp.md", "MoonshotAI/kimi-code packages/agent-core-v2/src/mcpCore/config-schema.ts",
		"MoonshotAI/kimi-code packages/agent-core-v2/src/app/mcpConfig/configLoader.ts"},
}

func init() { register(kimiCodeClient) }

// kimi is Kimi Code's mcpServers entry (~/.kimi-code/mcp.json, .kimi-code/mcp.json):
// {command, args, env, cwd} (stdio is implied by command) and {transport:"http"|"sse",
// url, headers, bearerTokenEnvVar}, switched off with enabled: false, filtered by
// enabledTools and disabledTools (exact names). Kimi Code interpolates nothing: a
// bearer token is named by its variable (bearerTokenEnvVar), and a stdio server
// inherits Kimi Code's whole environment, so an envFrom under the variable's own name
// needs no member at all; a header taken from a variable cannot be written.
type kimi struct {
	base
	p *Provider
}

func newKimi(p *Provider) Dialect { return kimi{p: p} }

const (
	kimiTransport = "transport"
	kimiBearer    = "bearerTokenEnvVar"
	kimiEnabled   = "enabledTools"
	kimiDisabled  = "disabledTools"
)

func (d kimi) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	var e format.Object
	if s.Remote() {
		e = format.Object{{Key: kimiTransport, Value: s.Type}}
	}
	e = launch(d.p, e, s, v, memberURL)
	if v.BearerVar != "" {
		e.Set(kimiBearer, v.BearerVar)
	}
	switchOff(d.p, &e, s, sf)
	if sf == nil {
		return e
	}
	if sf.Allow != nil {
		e.Set(kimiEnabled, exactNames(sf.Allow))
	}
	if names, _ := Exact(sf.Deny); len(names) > 0 {
		e.Set(kimiDisabled, names)
	}
	return e
}

// Read reads an entry back: transport (stdio when absent), the launch members,
// bearerTokenEnvVar as bearerEnv, the switch, enabledTools and disabledTools. A
// variable a stdio server inherits under its own name leaves no trace to read.
func (d kimi) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	typ := r.readType(kimiTransport)
	s := readLaunch(d.p, r, memberHeaders, memberURL)
	s.Type = typ
	s.BearerEnv = r.str(kimiBearer)
	r.switchOff(d.p, s)
	return r.done(s, r.filterLists(kimiDisabled, kimiEnabled))
}

func (d kimi) Filters() FilterSpec {
	return FilterSpec{Deny: true, Allow: true, ExactDeny: true, ExactAllow: true, DenyAll: true,
		Members: []string{kimiEnabled, kimiDisabled}, Switch: d.p.Switch}
}

// refuse: Kimi Code has no member for a header taken from a variable.
func (d kimi) refuse(s *registry.Server, v *Values) []Problem {
	var probs []Problem
	for _, h := range v.EnvHTTPHeaders {
		probs = append(probs, Problem{Server: s.Name, Field: "headerEnv." + h.Key,
			Reason: d.p.Display + " takes no header from a variable but an Authorization bearer token (bearerTokenEnvVar)"})
	}
	return probs
}

// denyKimi is how the client takes deny filters.
const denyKimi DenyStyle = "disabledTools; enabled: false for SERVER__*"

// allowKimi is how the client takes allow filters.
const allowKimi AllowStyle = "enabledTools (exact names)"

// refBearerVar: a bearer token's variable by name, and stdio servers inherit the
// client's environment (Kimi Code); no placeholder.
var refBearerVar = policy.Spelling{Style: "variable names (bearerTokenEnvVar; stdio servers inherit the environment)", ByName: true}
