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

// Admin returns how the client reads an organisation's server policy, nil when it
// reads none mcpwire can write.
func (p *Provider) Admin() *AdminPolicy { return p.admin }
