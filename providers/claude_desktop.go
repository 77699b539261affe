package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// claudeDesktopClient is Claude Desktop.
var claudeDesktopClient = &Provider{
	Name: "claude-desktop", Display: "Claude Desktop", DefaultScope: User,
	Order:   20,
	dialect: newPlain,
	// The Microsoft Store (MSIX) build reads a virtualised copy in its package
	// directory when one exists there; the classic %APPDATA% file otherwise.
	User: &Dest{Base: AppData, Dir: []string{"Claude"}, Files: []string{"claude_desktop_config.json"},
		Packaged: []Packaged{{GOOS: "windows", Base: LocalAppData, Parent: []string{"Packages"}, Pattern: "Claude_*",
			Sub: []string{"LocalCache", "Roaming", "Claude"}}}},
	Format: format.JSON, ServersKey: "mcpServers", Refs: refNone,
	Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
	Install: &Install{OneFile: true, Restart: "quit it completely, then reopen", BareDefault: true,
		Legacy: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}}},
	Sources: []string{"modelcontextprotocol/modelcontextprotocol docs/docs/develop/connect-local-servers.mdx",
		"support.claude.com/en/articles/11503834",
		"anthropics/claude-code#26073 (Windows MSIX build reads %LOCALAPPDATA%\\Packages\\Claude_<id>\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json)",
		"anthropics/claude-code#25579 (MSIX: the documented %APPDATA%\\Claude file is not read)"},
	Live: claudeDesktopLive,
}

func init() { register(claudeDesktopClient) }

// Desktop apps: what they load is their user file; what decides whether a stdio
// server starts is the PATH they get. Claude Desktop and LM Studio get the login
// session's (on macOS launchd's, not the shell's: "spawn npx ENOENT"); the editors
// built on VS Code, and Zed, ask the login shell for its environment when they start.
func claudeDesktopLive() *Live { return &Live{Launch: LaunchDesktop} }
