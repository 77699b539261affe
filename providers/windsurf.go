package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// windsurfClient is Windsurf.
var windsurfClient = &Provider{
	Name: "windsurf", Display: "Windsurf", DefaultScope: User,
	Order: 50, Aliases: []string{"cascade"},
	dialect: newPlain,
	User:    &Dest{Base: Home, Dir: []string{".codeium", "windsurf"}, Files: []string{"mcp_config.json"}},
	Format:  format.JSON, ServersKey: "mcpServers", Switch: "disabled", URLKey: "serverUrl", Refs: refDollarEnv,
	Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, Ephemeral: true,
	Sources: []string{"docs.windsurf.com/windsurf/cascade/mcp", "dyoshikawa/rulesync src/features/mcp/windsurf-mcp.ts"},
	Live:    editorLive,
}

func init() { register(windsurfClient) }
