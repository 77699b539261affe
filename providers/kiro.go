package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// kiroClient is Kiro.
var kiroClient = &Provider{
	Name: "kiro", Display: "Kiro", DefaultScope: Project,
	Order: 240, Aliases: []string{"kiro-cli", "kiro-ide"},
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".kiro", "settings"}, Files: []string{"mcp.json"}},
	User:    &Dest{Base: Home, Dir: []string{".kiro", "settings"}, Files: []string{"mcp.json"}},
	Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Refs: refDollar,
	Remote: RemoteHTTP, Deny: DenyDisabledTools, Allow: AllowNone, DisableWhole: true,
	Sources: []string{"kiro.dev/docs/mcp/configuration", "kiro.dev/docs/cli/mcp/configuration", "kiro.dev/docs/cli/chat/configuration"},
}

func init() { register(kiroClient) }
