package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// junieClient is JetBrains Junie.
var junieClient = &Provider{
	Name: "junie", Display: "JetBrains Junie", DefaultScope: User,
	Order: 330, Aliases: []string{"jetbrains-junie"},
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".junie", "mcp"}, Files: []string{"mcp.json"}},
	User:    &Dest{Base: Home, Dir: []string{".junie", "mcp"}, Files: []string{"mcp.json"}},
	Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Refs: refNone,
	Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"jetbrains.com/help/junie/model-context-protocol-mcp.html", "JetBrains/junie-github-action src/mcp/prepare-mcp-config.ts",
		"laravel/boost src/Install/Agents/PhpStormJunie.php", "laravel/boost#200"},
}

func init() { register(junieClient) }
