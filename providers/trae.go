package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// traeClient is Trae.
var traeClient = &Provider{
	Name: "trae", Display: "Trae", DefaultScope: Project,
	Order:   310,
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".trae"}, Files: []string{"mcp.json"}},
	Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Refs: refNone,
	Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"volcengine.com/docs/86677/2137601 (TRAE: 添加 MCP Server, 项目级 MCP Server)"},
}

func init() { register(traeClient) }
