package providers

// AdminStyle is how a client's organisation-managed file says which MCP servers may
// run (G3).
type AdminStyle int

const (
	// AdminServerLists: allowedMcpServers / deniedMcpServers in a JSON settings file,
	// each entry one of {"serverName"}, {"serverUrl"} (* wildcards) or
	// {"serverCommand": [argv]} (exact argv); deny wins; an allow list, when present,
	// admits only what it matches (Claude Code, GitHub Copilot).
	AdminServerLists AdminStyle = iota + 1
	// AdminNameLists: names only, under "mcp": {"allowed": […], "excluded": […]} of a
	// system settings file (Gemini CLI).
	AdminNameLists
	// AdminIdentities: an allow list of [mcp_servers.NAME.identity] tables in a TOML
	// requirements file, each server matched on its name and its identity (command or
	// url) together; no deny list (Codex).
	AdminIdentities
)

// AdminPolicy is where and how a client reads its organisation's MCP server policy:
// the file an administrator installs, per operating system.
type AdminPolicy struct {
	Style AdminStyle
	// Paths are the file per system; "" where none is documented.
	Paths AdminPaths
	// Env, when set, names the variable that points the client at another file (the
	// way to test it without touching the system's directories).
	Env string
	// KindBinds is set when any command entry in the allow list means stdio servers
	// must match a command entry, and any URL entry means remote servers must match a
	// URL entry: an allow rule by name then admits no stdio (remote) server (Claude
	// Code).
	KindBinds bool
	// OnlyManaged is the member that keeps users' own settings from widening the
	// allow list ("" when the client has none).
	OnlyManaged string
	// Sources say where these facts come from.
	Sources []string
}

// AdminPaths are an admin file's paths per operating system.
type AdminPaths struct {
	Linux, Darwin, Windows string
}

// Path is the file on the system named as GOOS names it; "" when none is documented.
func (a AdminPaths) Path(goos string) string {
	switch goos {
	case "linux":
		return a.Linux
	case "darwin":
		return a.Darwin
	case "windows":
		return a.Windows
	}
	return ""
}

// admin holds the clients that read an organisation's server policy file.
var admin = map[string]*AdminPolicy{
	"claude-code": {
		Style: AdminServerLists,
		Paths: AdminPaths{
			Darwin:  "/Library/Application Support/ClaudeCode/managed-settings.json",
			Linux:   "/etc/claude-code/managed-settings.json",
			Windows: `C:\Program Files\ClaudeCode\managed-settings.json`,
		},
		KindBinds:   true,
		OnlyManaged: "allowManagedMcpServersOnly",
		Sources: []string{
			"https://code.claude.com/docs/en/managed-mcp",
			"@anthropic-ai/claude-code 2.1.328: the managed settings directory per OS, and the schema of allowedMcpServers/deniedMcpServers (exactly one of serverName, serverCommand, serverUrl)",
		},
	},
	"copilot-cli": {
		Style: AdminServerLists,
		Paths: AdminPaths{
			Darwin:  "/Library/Application Support/GitHubCopilot/managed-settings.json",
			Linux:   "/etc/github-copilot/managed-settings.json",
			Windows: `C:\Program Files\GitHubCopilot\managed-settings.json`,
		},
		Sources: []string{
			"https://docs.github.com/en/copilot/how-tos/administer-copilot/manage-mcp-usage/configure-enterprise-allowlist",
			"https://github.com/microsoft/vscode/pull/321870 (the file-based managed-settings.json path per OS)",
		},
	},
	"gemini-cli": {
		Style: AdminNameLists,
		Paths: AdminPaths{
			Darwin:  "/Library/Application Support/GeminiCli/settings.json",
			Linux:   "/etc/gemini-cli/settings.json",
			Windows: `C:\ProgramData\gemini-cli\settings.json`,
		},
		Env: "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
		Sources: []string{
			"@google/gemini-cli 0.61.0: getSystemSettingsPath (GEMINI_CLI_SYSTEM_SETTINGS_PATH, then the path per OS); mcp.allowed and mcp.excluded match server names",
		},
	},
	"codex": {
		Style: AdminIdentities,
		Paths: AdminPaths{
			Darwin: "/etc/codex/requirements.toml",
			Linux:  "/etc/codex/requirements.toml",
		},
		Sources: []string{
			"https://github.com/openai/codex/pull/9101 (mcp_servers requirements matched on name and identity)",
			"codex-rs config requirements: [mcp_servers.NAME.identity] command = PROGRAM or url = URL",
		},
	},
}

// Admin returns how the client reads an organisation's server policy, nil when it
// reads none mcpwire can write.
func (p *Provider) Admin() *AdminPolicy { return admin[p.Name] }
