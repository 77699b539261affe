package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// runwieldClient is RunWield.
var runwieldClient = &Provider{
	Name: "runwield", Display: "RunWield", DefaultScope: Project,
	Order: 140, Aliases: []string{"wld"},
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".wld"}, Files: []string{"mcp.json"}},
	User:    &Dest{Base: Home, Dir: []string{".wld"}, Files: []string{"mcp.json"}},
	Format:  format.JSONC, ServersKey: "mcpServers", Switch: "enabled", Refs: refNone,
	Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone, PrivateMode: true, GitIgnored: true,
	Sources: []string{"gandazgul/runwield docs/mcp.md", "gandazgul/runwield docs/settings.md"},
}

func init() { register(runwieldClient) }
