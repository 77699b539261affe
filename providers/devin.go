package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
)

// devinClient is Devin Local (its CLI and Desktop, which replaced Windsurf's
// Cascade): since v3000.3 its servers live in mcp_config.json files beside its
// config.json, whose mcpServers it moves there when it starts (docs/clients.md). The
// local file is the person's own, git-ignored; its own `devin mcp add` writes there
// by default. Its entries are the plain shape with the transport in "transport".
var devinClient = &Provider{
	Name: "devin", Display: "Devin Local", DefaultScope: Local,
	Order:   345,
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".devin"}, Files: []string{"mcp_config.json"}},
	Local:   &Dest{Base: ProjectDir, Dir: []string{".devin"}, Files: []string{"mcp_config.local.json"}},
	User: &Dest{Base: Home, Dir: []string{".config", "devin"}, Files: []string{"mcp_config.json"},
		OS: map[string]*Dest{"windows": {Base: AppData, Dir: []string{"devin"}, Files: []string{"mcp_config.json"}}}},
	Format: format.JSONC, ServersKey: "mcpServers", Refs: refDollarEnv, Reads: []string{policy.StyleDollar},
	Types:  &TypeNames{Key: "transport", HTTP: "http", SSE: "sse"},
	Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"docs.devin.ai/cli/extensibility/mcp/configuration (url, transport http|sse, headers; devin mcp add -s local|project|user)",
		"docs.devin.ai/cli/extensibility/configuration (~/.config/devin/config.json; %APPDATA%\\devin\\config.json on Windows; JSON with comments)",
		"docs.devin.ai/cli/changelog/stable (CLI v3000.3.22: MCP servers in dedicated config files, config.json mcpServers migrated at start)",
		"dyoshikawa/rulesync src/constants/devin-paths.ts, src/features/mcp/devin-mcp.ts (mcp_config.json, mcp_config.local.json)",
		"upstash/context7#3090 (devin 3000.6.2 reads .devin/mcp_config.json {transport: http, url})",
		"awslabs/aidlc-workflows#996 (devin 3000.6-3000.10: ${env:VAR} and ${VAR} resolved in headers)"},
}

func init() { register(devinClient) }
