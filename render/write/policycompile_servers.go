package write

import (
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// pinned reports whether the policy pins its servers: nothing unlisted passes, and
// every allow rule names a server the registry defines.
func pinned(m *policy.ServerPolicy, reg *registry.Registry) bool {
	if m.AllowUnlisted || len(m.Allow) == 0 {
		return false
	}
	for _, r := range m.Allow {
		if r.Name == "" {
			return false
		}
		if _, ok := reg.Server(r.Name); !ok {
			return false
		}
	}
	return true
}

// pinnedServers is the client's own server list (Claude Code's managed-mcp.json) when
// the policy pins its servers: the allowed registry servers no deny rule matches,
// each with its transport, command and arguments or URL. Their variables and headers
// are not written (a system file readable by every user holds no credential): a
// warning names each server that has any. nil when the policy does not pin or the
// client has no such file.
func pinnedServers(p *providers.Provider, a *providers.AdminPolicy, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	if a.Servers == (providers.AdminPaths{}) || !pinned(m, reg) {
		return nil, nil
	}
	warns := []string{fmt.Sprintf("%s: the policy pins its servers (every allow rule names a registry server), so its own server list is written too: the client then starts those servers only, and none from the users' files", p.Display)}
	servers := map[string]any{}
	for _, r := range m.Allow {
		s, _ := reg.Server(r.Name)
		if ps.Decide(s.Candidate()) != nil {
			continue
		}
		e := map[string]any{"type": s.Type}
		if s.Type == "" {
			e["type"] = registry.Stdio
		}
		if s.Remote() {
			e["url"] = s.URL
		} else {
			e["command"] = s.Command
			if len(s.Args) > 0 {
				e["args"] = s.Args
			}
		}
		if len(s.Env)+len(s.EnvSecret)+len(s.EnvInput)+len(s.EnvFrom)+len(s.Headers)+len(s.HeaderEnv)+len(s.HeaderSecret)+len(s.HeaderInput) > 0 || s.BearerEnv != "" || s.BearerSecret != "" || s.BearerInput != "" {
			warns = append(warns, fmt.Sprintf("%s: server %q is written to its server list without its variables and headers (a system file holds no credential): add them there by hand", p.Display, r.Name))
		}
		servers[r.Name] = e
	}
	b, _ := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	return append(b, '\n'), warns
}
