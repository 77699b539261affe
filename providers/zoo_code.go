package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// zooCodeClient is Zoo Code.
var zooCodeClient = &Provider{
	Name: "zoo-code", Display: "Zoo Code", DefaultScope: Project,
	Order: 290, Aliases: []string{"zoo"},
	dialect: newPlain,
	// .roo/mcp.json is read only while .zoo/mcp.json is absent
	Project: &Dest{Base: ProjectDir, Files: []string{".zoo/mcp.json", ".roo/mcp.json"}},
	Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Refs: refDollarEnv,
	Types:  &TypeNames{HTTP: "streamable-http", SSE: "sse"},
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyDisabledTools, Allow: AllowNone, DisableWhole: true, WorkspaceVar: "${workspaceFolder}",
	Sources: []string{"Zoo-Code-Org/Zoo-Code src/services/mcp/__tests__/McpHub.zooMigration.spec.ts", "Zoo-Code-Org/Zoo-Code src/services/mcp/McpHub.ts"},
}

func init() { register(zooCodeClient) }
