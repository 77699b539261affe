package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// lmStudioClient is LM Studio.
var lmStudioClient = &Provider{
	// mcp.json is in LM Studio's home: the directory ~/.lmstudio-home-pointer names,
	// else ~/.cache/lm-studio when it exists, else ~/.lmstudio (findLMStudioHome)
	Name: "lm-studio", Display: "LM Studio", DefaultScope: User,
	Order: 340, Aliases: []string{"lmstudio"},
	dialect: newPlain,
	User: &Dest{Base: Home, Dir: []string{".lmstudio"}, Files: []string{"mcp.json"},
		Pointer: []string{".lmstudio-home-pointer"}, Fallback: [][]string{{".cache", "lm-studio"}}},
	Format: format.JSON, StrictJSON: true, ServersKey: "mcpServers", Refs: refNone,
	Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"lmstudio-ai/docs 0_app/2_mcp/index.mdx", "lmstudio.ai/blog/lmstudio-v0.3.17 (mcp.json in ~/.lmstudio, %USERPROFILE%\\.lmstudio)",
		"lmstudio-ai/lmstudio-js packages/lms-common-server/src/findLMStudioHome.ts", "lmstudio-ai/lmstudio-bug-tracker#1371", "lmstudio-ai/lmstudio-bug-tracker#2410"},
	Live: lmStudioLive,
}

func init() { register(lmStudioClient) }

func lmStudioLive() *Live { return &Live{Launch: LaunchDesktop} }
