package providers

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// crushClient is Crush.
var crushClient = &Provider{
	Name: "crush", Display: "Crush", DefaultScope: Project,
	Order:   320,
	dialect: newCrush,
	Project: &Dest{Base: ProjectDir, Files: []string{".crush.json", "crush.json"}},
	User:    &Dest{Env: "CRUSH_GLOBAL_CONFIG", Base: XDGConfig, Dir: []string{"crush"}, Files: []string{"crush.json"}},
	Format:  format.JSON, StrictJSON: true, ServersKey: "mcp", Switch: "disabled", Refs: refDollar, Reads: []string{policy.StyleBareDollar},
	Types:  &TypeNames{Stdio: "stdio", HTTP: "http", SSE: "sse"},
	Remote: RemoteHTTPAndSSE, Deny: denyCrush, Allow: allowCrush, DisableWhole: true,
	Sources: []string{"charmbracelet/crush internal/config/load.go", "charmbracelet/crush internal/config/config.go", "charmbracelet/crush internal/config/resolve.go",
		"charmbracelet/crush internal/agent/tools/mcp/tools.go", "charmbracelet/crush README.md"},
}

func init() { register(crushClient) }

// crush is Crush's "mcp" map in crush.json / .crush.json: {type:"stdio", command,
// args, env} and {type:"http"|"sse", url, headers} (the table's Types), switched off with disabled: true,
// filtered by enabled_tools and disabled_tools (exact tool names). Crush takes an
// empty or missing enabled_tools as every tool, so a server whose allowlist keeps no
// exact name is written switched off rather than open. Values go through Crush's
// shell expansion ($VAR, ${VAR}, $(command)).
type crush struct {
	base
	p *Provider
}

func newCrush(p *Provider) Dialect { return crush{p: p} }

const (
	crushEnabled  = "enabled_tools"
	crushDisabled = "disabled_tools"
	crushOff      = "disabled"
)

func (d crush) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := launch(d.p, typeMember(d.p, s), s, v, memberURL)
	switchOff(d.p, &e, s, sf)
	if sf == nil {
		return e
	}
	if sf.Allow != nil {
		if names := exactNames(sf.Allow); len(names) > 0 {
			e.Set(crushEnabled, names)
		} else {
			e.Set(crushOff, true)
		}
	}
	if names, _ := Exact(sf.Deny); len(names) > 0 {
		e.Set(crushDisabled, names)
	}
	return e
}

// crushOwn are Crush's members with no registry equivalent.
var crushOwn = []string{"timeout", "oauth", "oauth_client_id", "oauth_client_secret", "oauth_callback_port"}

// Read reads an entry back: type, launch members, disabled, enabled_tools and
// disabled_tools.
func (d crush) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	return r.done(s, r.filterLists(crushDisabled, crushEnabled), crushOwn...)
}

func (d crush) Filters() FilterSpec {
	return FilterSpec{Deny: true, Allow: true, ExactDeny: true, ExactAllow: true, DenyAll: true,
		Members: []string{crushEnabled, crushDisabled}, Switch: d.p.Switch}
}

// EditFile says which servers were written switched off because their allowlist kept
// no exact tool name.
func (d crush) EditFile(_ format.Document, _ format.Entries, st *FileState) error {
	if st.Filters == nil {
		return nil
	}
	var closed []string
	for _, n := range st.Set {
		if sf := st.Filters.Of(n); sf != nil && sf.Allow != nil && len(exactNames(sf.Allow)) == 0 {
			closed = append(closed, n)
		}
	}
	if len(closed) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s written with disabled: true in %s: the toolAllow keeps no exact tool name, and %s reads an empty enabled_tools as every tool",
			d.p.Name, strings.Join(closed, ", "), st.Path, d.p.Display))
	}
	return nil
}

// denyCrush is how the client takes deny filters.
const denyCrush DenyStyle = "disabled_tools; disabled: true for SERVER__*"

// allowCrush is how the client takes allow filters.
const allowCrush AllowStyle = "enabled_tools (exact names; a server left with none is disabled)"
