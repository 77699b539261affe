package providers

// table lists every provider in display order (V1, V3). Sources for each entry are in
// ../shared/reference/providers.md; the conformance suite checks the installable ones
// against the real clients.
var table = []*Provider{
	{
		Name: "claude-code", Display: "Claude Code", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json"}},
		User:    &Dest{Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}},
		Format:  JSON, ServersKey: "mcpServers", Shape: ShapeClaude, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, Deny: DenyClaudeSettings, Allow: AllowRefused,
		Binary: "claude", Ephemeral: true, ReservedRefs: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "NPM_TOKEN"},
		Settings: map[Scope]*Dest{
			Project: {Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
			User:    {Env: "CLAUDE_CONFIG_DIR", Base: Home, Dir: []string{".claude"}, Files: []string{"settings.json"}},
		},
	},
	{
		Name: "claude-desktop", Display: "Claude Desktop", DefaultScope: User,
		User:   &Dest{Base: AppData, Dir: []string{"Claude"}, Files: []string{"claude_desktop_config.json"}},
		Format: JSON, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
	},
	{
		Name: "codex", Display: "Codex CLI", DefaultScope: User,
		User:   &Dest{Env: "CODEX_HOME", Base: Home, Dir: []string{".codex"}, Files: []string{"config.toml"}},
		Format: TOML, ServersKey: "mcp_servers", Switch: "enabled", Shape: ShapeCodex, Refs: RefNames,
		Remote: RemoteHTTP, CwdKey: "cwd", Deny: DenyCodex, Allow: AllowCodex, Binary: "codex", Ephemeral: true,
	},
	{
		Name: "cursor", Display: "Cursor", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".cursor"}, Files: []string{"mcp.json"}},
		Format:  JSON, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefDollarEnv,
		Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Ephemeral: true, WorkspaceVar: "${workspaceFolder}",
	},
	{
		Name: "windsurf", Display: "Windsurf", DefaultScope: User,
		User:   &Dest{Base: Home, Dir: []string{".codeium", "windsurf"}, Files: []string{"mcp_config.json"}},
		Format: JSON, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, URLKey: "serverUrl", Refs: RefDollarEnv,
		Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, Ephemeral: true,
	},
	{
		Name: "vscode", Display: "VS Code", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".vscode"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: AppData, Dir: []string{"Code", "User"}, Files: []string{"mcp.json"}},
		Format:  JSONC, ServersKey: "servers", Shape: ShapeVSCode, Refs: RefDollarEnv,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Ephemeral: true, WorkspaceVar: "${workspaceFolder}",
	},
	{
		Name: "opencode", Display: "opencode", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Files: []string{"opencode.json", "opencode.jsonc"}},
		User:    &Dest{Base: XDGConfig, Dir: []string{"opencode"}, Files: []string{"opencode.json", "opencode.jsonc"}},
		Format:  JSONC, ServersKey: "mcp", Switch: "enabled", Shape: ShapeOpencode, Refs: RefBraceEnv,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyOpencode, Allow: AllowOpencode, Binary: "opencode", Ephemeral: true,
	},
	{
		Name: "factory", Display: "Factory Droid", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".factory"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".factory"}, Files: []string{"mcp.json"}},
		Format:  JSON, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapeFactory, Refs: RefDollar,
		Remote: RemoteHTTP, Deny: DenyDisabledTools, Allow: AllowNone, Ephemeral: true, UnionDisabled: true, DisableWhole: true,
	},
	{
		Name: "antigravity", Display: "Google Antigravity", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".agents"}, Files: []string{"mcp_config.json"}},
		User:    &Dest{Base: Home, Dir: []string{".gemini", "config"}, Files: []string{"mcp_config.json"}},
		Format:  JSON, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, URLKey: "serverUrl", Refs: RefNone,
		Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, UnionDisabled: true, DisableWhole: true, Owner: OwnerKeepExisting,
	},
	{
		Name: "warp", Display: "Warp", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".warp"}, Files: []string{".mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".warp"}, Files: []string{".mcp.json"}},
		Format:  JSON, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteHTTPAndSSE, CwdKey: "working_directory", Deny: DenyNone, Allow: AllowNone,
	},
	{
		Name: "omp", Display: "oh-my-pi", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".omp"}, Files: []string{"mcp.json"}},
		User:    &Dest{Env: "PI_CODING_AGENT_DIR", Base: Home, Dir: []string{".omp", "agent"}, Files: []string{"mcp.json"}},
		Format:  JSON, ServersKey: "mcpServers", Switch: "enabled", Shape: ShapeOMP, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Owner: OwnerStrict,
	},
	{
		Name: "grok-build", Display: "Grok Build", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".grok"}, Files: []string{"config.toml"}},
		User:    &Dest{Env: "GROK_HOME", Base: Home, Dir: []string{".grok"}, Files: []string{"config.toml"}},
		Format:  TOML, ServersKey: "mcp_servers", Switch: "enabled", Shape: ShapeGrok, Refs: RefDollar,
		Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone, Owner: OwnerMarkers,
	},
	{
		Name: "gemini-cli", Display: "Gemini CLI", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".gemini"}, Files: []string{"settings.json"}},
		User:    &Dest{Env: "GEMINI_CLI_HOME", EnvDir: []string{".gemini"}, Base: Home, Dir: []string{".gemini"}, Files: []string{"settings.json"}},
		Format:  JSONC, ServersKey: "mcpServers", Shape: ShapeGemini, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyGemini, Allow: AllowGemini, Ephemeral: true,
	},
	{
		Name: "runwield", Display: "RunWield", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".wld"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".wld"}, Files: []string{"mcp.json"}},
		Format:  JSONC, ServersKey: "mcpServers", Switch: "enabled", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone, PrivateMode: true, GitIgnored: true,
	},
	{
		Name: "chatgpt-desktop", Display: "ChatGPT Desktop", DefaultScope: User,
		Shape: ShapeManual, Refs: RefNone, Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
	},
}

// lookup finds a provider by canonical name (the table is small: a scan beats a map
// built at start-up).
func lookup(name string) (*Provider, bool) {
	for _, p := range table {
		if p.Name == name {
			return p, true
		}
	}
	return nil, false
}

// Names returns every provider name in table order.
func Names() []string {
	out := make([]string, len(table))
	for i, p := range table {
		out[i] = p.Name
	}
	return out
}

// All returns every provider in table order.
func All() []*Provider { return table }

// Get returns the provider for a name or alias.
func Get(name string) (*Provider, bool) {
	n, ok := Normalize(name)
	if !ok || n == "*" {
		return nil, false
	}
	return lookup(n)
}
