package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// antigravityClient is Google Antigravity.
var antigravityClient = &Provider{
	Name: "antigravity", Display: "Google Antigravity", DefaultScope: Project,
	Order: 90, Aliases: []string{"agy"},
	dialect: newAntigravity,
	Project: &Dest{Base: ProjectDir, Dir: []string{".agents"}, Files: []string{"mcp_config.json"}},
	User:    &Dest{Base: Home, Dir: []string{".gemini", "config"}, Files: []string{"mcp_config.json"}},
	Format:  format.JSON, ServersKey: "mcpServers", Switch: "disabled", URLKey: "serverUrl", Refs: refNone,
	Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, UnionDisabled: true, DisableWhole: true, Owner: OwnerKeepExisting,
	Sources: []string{"dyoshikawa/rulesync src/features/mcp/antigravity-mcp.ts", "dyoshikawa/rulesync src/constants/antigravity-paths.ts"},
}

func init() { register(antigravityClient) }

// antigravity is the plain shape, its entries that mcpwire does not own kept as they
// are with the profile's filters merged in (OwnerKeepExisting).
type antigravity struct{ plain }

func newAntigravity(p *Provider) Dialect { return antigravity{plainOf(p)} }

// MergeKept merges the profile's filters into a kept entry.
func (d antigravity) MergeKept(path string, es format.Entries, name string, existing format.Value, sf *ServerFilters) error {
	if d.dt == nil {
		return nil
	}
	return d.dt.mergeKept(path, es, name, existing, sf)
}
