package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// rooCodeClient is Roo Code.
var rooCodeClient = &Provider{
	Name: "roo-code", Display: "Roo Code", DefaultScope: Project,
	Order: 280, Aliases: []string{"roo"},
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".roo"}, Files: []string{"mcp.json"}},
	User:    &Dest{Env: "VSCODE_APPDATA", EnvDir: rooSettings, Base: AppData, Dir: rooSettings, Files: []string{"mcp_settings.json"}},
	Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Refs: refDollarEnv,
	Types:  &TypeNames{HTTP: "streamable-http", SSE: "sse"},
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyDisabledTools, Allow: AllowNone, DisableWhole: true, WorkspaceVar: "${workspaceFolder}",
	Sources: []string{"RooCodeInc/Roo-Code src/services/mcp/McpHub.ts", "RooCodeInc/Roo-Code src/utils/globalContext.ts", "RooCodeInc/Roo-Code src/utils/config.ts",
		"microsoft/vscode src/vs/workbench/api/common/extHostStoragePaths.ts (globalStorage folder: the extension id in lower case)", vscodeUserData},
}

func init() { register(rooCodeClient) }

// rooSettings is Roo Code's settings directory under the VS Code user directory:
// globalStorage/<extension id in lower case>/settings.
var rooSettings = []string{"Code", "User", "globalStorage", "rooveterinaryinc.roo-cline", "settings"}
