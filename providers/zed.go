package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// zedClient is Zed.
var zedClient = &Provider{
	Name: "zed", Display: "Zed", DefaultScope: User,
	Order:   260,
	dialect: newPlain,
	Project: &Dest{Base: ProjectDir, Dir: []string{".zed"}, Files: []string{"settings.json"}},
	User: &Dest{Env: "FLATPAK_XDG_CONFIG_HOME", EnvDir: []string{"zed"}, Base: XDGConfig, Dir: []string{"zed"}, Files: []string{"settings.json"},
		OS: map[string]*Dest{
			"darwin":  {Base: Home, Dir: []string{".config", "zed"}, Files: []string{"settings.json"}},
			"windows": {Base: AppData, Dir: []string{"Zed"}, Files: []string{"settings.json"}},
		}},
	Format: format.JSONC, ServersKey: "context_servers", Switch: "enabled", Refs: refNone,
	Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"zed-industries/zed crates/paths/src/paths.rs", "zed-industries/zed crates/settings_content (ContextServerSettingsContent)", "zed.dev/docs/ai/mcp"},
	Live:    editorLive,
}

func init() { register(zedClient) }
