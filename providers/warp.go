package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// warpClient is Warp.
var warpClient = &Provider{
	Name: "warp", Display: "Warp", DefaultScope: User,
	Order:   100,
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".warp"}, Files: []string{".mcp.json"}},
	User:    &Dest{Base: Home, Dir: []string{".warp"}, Files: []string{".mcp.json"}},
	Format:  format.JSON, ServersKey: "mcpServers", Refs: refNone,
	Remote: RemoteHTTPAndSSE, CwdKey: "working_directory", Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"docs.warp.dev/agents/capabilities/mcp", "dyoshikawa/rulesync src/features/mcp/warp-mcp.ts"},
}

func init() { register(warpClient) }
