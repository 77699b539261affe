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
	// AdminAccess: one switch for all of MCP in the client's own enterprise policy
	// (VS Code's ChatMCP, the setting chat.mcp.access: "none", "registry" or "all");
	// the per-server lists it enforces are another client's file (GitHub Copilot's
	// managed-settings.json).
	AdminAccess
	// AdminNameAllow: an allow list of server names, [{"id": NAME}], in an
	// organisation's remote configuration rather than a file on the machine; no deny
	// list, and an empty list restricts nothing (Cline's allowedMCPServers).
	AdminNameAllow
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
	// NamesFoldCase is set when the client compares names with its lists without
	// case (Gemini CLI's mcp commands), so a server whose name differs from an allowed
	// one in case only passes.
	NamesFoldCase bool
	// OnlyManaged is the member that keeps users' own settings from widening the
	// allow list ("" when the client has none).
	OnlyManaged string
	// Servers, when set, are the files per system where the administrator's own
	// server list goes; the client then reads no other server (Claude Code's
	// managed-mcp.json). compile writes it when the policy pins its servers: every
	// allow rule names a registry server and nothing unlisted passes.
	Servers AdminPaths
	// Policy is the name of the client's enterprise policy (AdminAccess), and
	// PolicyKey the registry key (Windows) and PolicyDomain the preference domain of
	// a configuration profile (macOS) it is read from, where Paths has no file.
	Policy, PolicyKey, PolicyDomain string
	// Remote, when set, says where the file goes when it is no file on the machine
	// (Cline's remote configuration).
	Remote string
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

// Admin returns how the client reads an organisation's server policy, nil when it
// reads none mcpwire can write.
func (p *Provider) Admin() *AdminPolicy { return p.admin }
