package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// visualStudioClient is Visual Studio.
var visualStudioClient = &Provider{
	// <solution>/.vs/mcp.json is per user and per solution (Visual Studio's own
	// .gitignore ignores .vs/): a local file, not a committed one. The committed
	// <solution>/.mcp.json is Claude Code's and Copilot CLI's (mcpServers), which
	// Visual Studio reads too, so it has no project scope in mcpwire.
	Name: "visual-studio", Display: "Visual Studio", DefaultScope: Local,
	Order: 300, Aliases: []string{"visualstudio"},
	dialect: newVSCode,
	Local:   &Dest{Base: ProjectDir, Dir: []string{".vs"}, Files: []string{"mcp.json"}},
	User:    &Dest{Base: Home, Files: []string{".mcp.json"}, Only: "windows"},
	// Visual Studio also reads <solution>/.mcp.json, .vscode/mcp.json and
	// .cursor/mcp.json, after its own files
	AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}, {Base: ProjectDir, Dir: []string{".vscode"}, Files: []string{"mcp.json"}},
		{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}}},
	Format: format.JSON, StrictJSON: true, ServersKey: "servers", Refs: refNone, Prompts: true,
	Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"MicrosoftDocs/visualstudio-docs docs/ide/mcp-servers.md (file locations: .vs\\mcp.json per user and solution)",
		"github/gitignore VisualStudio.gitignore (.vs/)"},
}

func init() { register(visualStudioClient) }
