package providers

// oh-my-pi's liveness (@oh-my-pi/pi-coding-agent 18.2.3's capability/index.ts,
// discovery/*.ts, mcp/config.ts; tested, docs/explain.md): it reads its own files
// (the project's .omp/mcp.json in the directory it starts in, then the user's) and
// other clients' project files in that directory (Claude Code's .claude/.mcp.json,
// Codex's .codex/config.toml, Gemini CLI's, opencode's, Cursor's and VS Code's, then
// .mcp.json), the first entry of a name wins, a switched-off one included; an entry
// that starts the same command (or reaches the same address) as one already loaded
// is the same server, loaded once. disabledServers in the user's mcp.json switches a
// server off. Other clients' user files are read only when the person turns them on
// in omp's settings, which mcpwire does not read.
func ompLive() *Live {
	return &Live{
		Root: RootStart,
		Sources: []Source{
			{At: At{Scope: Project}},
			{At: At{Scope: Project, Dest: &Dest{Base: ProjectDir, Dir: []string{".omp"}, Files: []string{".mcp.json"}}}},
			{At: At{Scope: User}},
			{At: At{Scope: User, Dest: &Dest{Env: "PI_CODING_AGENT_DIR", Base: Home, Dir: []string{".omp", "agent"}, Files: []string{".mcp.json"}}}},
			{At: At{Scope: Project, Of: "claude-code", Dest: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{".mcp.json", "mcp.json"}}}, Label: ".claude"},
			{At: At{Scope: Project, Of: "codex", Dest: &Dest{Base: ProjectDir, Dir: []string{".codex"}, Files: []string{"config.toml"}}}, Label: ".codex"},
			{At: At{Scope: Project, Of: "gemini-cli"}, Label: ".gemini"},
			{At: At{Scope: Project, Of: "opencode"}, Label: "opencode.json"},
			{At: At{Scope: Project, Of: "cursor"}, Label: ".cursor"},
			{At: At{Scope: Project, Of: "vscode"}, Label: ".vscode"},
			{At: At{Scope: Project, Of: "claude-code", Dest: &Dest{Base: ProjectDir, Files: []string{"mcp.json"}}}, Label: "mcp.json"},
			{At: At{Scope: Project, Of: "claude-code"}, Label: ".mcp.json"},
		},
		Collapse: true,
		Lists:    []NameList{{At: At{Scope: User}, Path: []string{"disabledServers"}}},
	}
}
