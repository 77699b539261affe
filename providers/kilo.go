package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
)

// kiloClient is Kilo Code CLI.
var kiloClient = &Provider{
	// Kilo CLI 7.x is an opencode fork: opencode's entries and tools map. A project
	// file holding a {env:…} reference is skipped whole, so none is written there.
	Name: "kilo", Display: "Kilo Code CLI", DefaultScope: User,
	Order: 190, Aliases: []string{"kilo-code", "kilocode"},
	dialect: newOpencode,
	Project: &Dest{Base: ProjectDir, Files: []string{"kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc"}, NoRefs: true},
	User:    &Dest{Base: XDGConfig, Dir: []string{"kilo"}, Files: []string{"kilo.json", "kilo.jsonc"}},
	// Kilo also loads a project's opencode.json
	AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{"opencode.json"}}},
	Format:    format.JSONC, ServersKey: "mcp", Switch: "enabled", Refs: refBraceEnv,
	Remote: RemoteHTTPAndSSE, Deny: denyOpencode, Allow: allowOpencode, Binary: "kilo", Ephemeral: true, StandaloneEnv: "KILO_CONFIG",
	Sources: []string{"@kilocode/cli 7.7.7 embedded Kilo CLI Configuration Reference (bin/kilo)", "kilo.ai/docs/cli",
		"cloud.tencent.com/document/product/1823/130074 (Windows: ~/.config/kilo)", "kilo 7.7.7 tested (observe/OBSERVED.md)"},
	Conformance: true,
	Live:        kiloLive,
}

func init() { register(kiloClient) }

func kiloLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkGit},
			{At: At{Scope: Project, Of: "opencode", Dest: &Dest{Base: ProjectDir, Files: []string{"opencode.json"}}}, Walk: WalkGit, Label: "opencode.json"},
			{At: At{Scope: User}},
		},
		Merge:         true,
		DropsBadFiles: true,
	}
}
