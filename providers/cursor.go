package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// cursorClient is Cursor.
var cursorClient = &Provider{
	Name: "cursor", Display: "Cursor", DefaultScope: Project,
	Order:   40,
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}},
	User:    &Dest{Base: Home, Dir: []string{".cursor"}, Files: []string{"mcp.json"}},
	Format:  format.JSON, ServersKey: "mcpServers", Refs: refDollarEnv,
	Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Ephemeral: true, WorkspaceVar: "${workspaceFolder}", HomeVar: "${userHome}",
	Sources: []string{"cursor.com/docs/context/mcp", "docs.cursor.com/context/model-context-protocol"},
	Live:    editorLive,
}

func init() { register(cursorClient) }
