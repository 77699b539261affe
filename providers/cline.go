package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// clineClient is Cline.
var clineClient = &Provider{
	Name: "cline", Display: "Cline", DefaultScope: User,
	Order:   270,
	dialect: newCline,
	User: &Dest{Env: "CLINE_MCP_SETTINGS_PATH", EnvFile: true,
		More: []Relocation{{Env: "CLINE_DATA_DIR", Dir: []string{"settings"}}, {Env: "CLINE_DIR", Dir: []string{"data", "settings"}}},
		Base: Home, Dir: []string{".cline", "data", "settings"}, Files: []string{"cline_mcp_settings.json"}},
	Format: format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Refs: refNone,
	Types: &TypeNames{Stdio: "stdio", HTTP: "streamableHttp", SSE: "sse"}, Nested: "transport",
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Binary: "cline", Ephemeral: true,
	Sources: []string{"cline/cline sdk/packages/shared/src/storage/paths.ts", "cline/cline sdk/packages/core/src/extensions/mcp/config-loader.ts",
		"cline/cline apps/vscode/src/services/mcp/schemas.ts", "cline/cline apps/vscode/src/sdk/SdkController.ts",
		"cline 3.0.65 tested (conformance/cline_test.go)"},
	Conformance: true,
}

func init() { register(clineClient) }

// cline is the plain shape, for a client whose user file a variable names outright
// (CLINE_MCP_SETTINGS_PATH): a standalone file works (C5). Cline also reads a nested
// {transport:{type, …}} entry (what `cline mcp add` writes); mcpwire writes the flat
// one, which every Cline reader of the shared file accepts (docs/clients.md), and
// leaves nested entries it did not write alone.
type cline struct{ plain }

func newCline(p *Provider) Dialect { return cline{plainOf(p)} }

// Launch names the standalone file with that variable. Cline then reads only that
// file's servers, but mcpwire has not seen it run, so session does not use it (Exact
// is false).
func (d cline) Launch(out, _ string) (Launch, bool) {
	return Launch{Env: []string{d.p.User.Env, out}, Binary: d.p.Binary}, true
}
