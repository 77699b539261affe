package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
)

// table lists every provider in display order (V1, V3). Each entry names its sources
// (public documentation addresses and repository paths, which `mcpwire providers`
// prints; docs/clients.md and docs/installable-clients.md have the decisions) and
// whether the conformance suite checks it against the real client.
var table = []*Provider{
	{
		Name: "claude-code", Display: "Claude Code", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json"}},
		// local (V11): the project's own servers in ~/.claude.json, keyed by the project's
		// absolute path (the git root, else the working directory)
		Local:  &Dest{Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}, Servers: []string{"projects", ProjectKey, "mcpServers"}},
		User:   &Dest{Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}},
		Format: format.JSON, ServersKey: "mcpServers", Shape: ShapeClaude, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, Deny: DenyClaudeSettings, Allow: AllowRefused,
		Binary: "claude", Ephemeral: true, ReservedRefs: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "NPM_TOKEN"}, HeadersHelper: true,
		Settings: map[Scope]*Dest{
			Project: {Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
			Local:   {Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
			User:    {Env: "CLAUDE_CONFIG_DIR", Base: Home, Dir: []string{".claude"}, Files: []string{"settings.json"}},
		},
		Install: &Install{Legacy: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
			Inside: []string{"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_DESKTOP_APP_VERSION"}},
		Sources: []string{"code.claude.com/docs/en/mcp", "code.claude.com/docs/en/permissions", "code.claude.com/docs/en/settings",
			"github.com/anthropics/claude-code/issues/48448", "claude 2.1.328 tested: local scope keyed by the git root (research/clients-facts.md)",
			"FunplayAI/funplay-cocos-mcp#22 (Windows: projects keys with forward slashes)"},
		Conformance: true,
		// code.claude.com/docs/en/mcp, "Scope hierarchy and precedence"
		Precedence: []Scope{Local, Project, User},
		Live:       claudeLive,
	},
	{
		Name: "claude-desktop", Display: "Claude Desktop", DefaultScope: User,
		// The Microsoft Store (MSIX) build reads a virtualised copy in its package
		// directory when one exists there; the classic %APPDATA% file otherwise.
		User: &Dest{Base: AppData, Dir: []string{"Claude"}, Files: []string{"claude_desktop_config.json"},
			Packaged: []Packaged{{GOOS: "windows", Base: LocalAppData, Parent: []string{"Packages"}, Pattern: "Claude_*",
				Sub: []string{"LocalCache", "Roaming", "Claude"}}}},
		Format: format.JSON, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
		Install: &Install{OneFile: true, Restart: "quit it completely, then reopen", BareDefault: true,
			Legacy: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}}},
		Sources: []string{"modelcontextprotocol/modelcontextprotocol docs/docs/develop/connect-local-servers.mdx",
			"support.claude.com/en/articles/11503834",
			"anthropics/claude-code#26073 (Windows MSIX build reads %LOCALAPPDATA%\\Packages\\Claude_<id>\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json)",
			"anthropics/claude-code#25579 (MSIX: the documented %APPDATA%\\Claude file is not read)"},
		Live: claudeDesktopLive,
	},
	{
		Name: "codex", Display: "Codex CLI", DefaultScope: User,
		User:   &Dest{Env: "CODEX_HOME", Base: Home, Dir: []string{".codex"}, Files: []string{"config.toml"}},
		Format: format.TOML, ServersKey: "mcp_servers", Switch: "enabled", Shape: ShapeCodex, Refs: RefNames,
		Remote: RemoteHTTP, CwdKey: "cwd", Deny: DenyCodex, Allow: AllowCodex, Binary: "codex", Ephemeral: true,
		SecretEnvArgs: []string{"-c", "features.shell_snapshot=false"},
		Sources:       []string{"openai/codex codex-rs/config/src/mcp_types.rs", "openai/codex docs/config.md", "developers.openai.com/codex/config-reference"},
		Conformance:   true,
		Live:          codexLive,
	},
	{
		Name: "cursor", Display: "Cursor", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".cursor"}, Files: []string{"mcp.json"}},
		Format:  format.JSON, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefDollarEnv,
		Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Ephemeral: true, WorkspaceVar: "${workspaceFolder}", HomeVar: "${userHome}",
		Sources: []string{"cursor.com/docs/context/mcp", "docs.cursor.com/context/model-context-protocol"},
		Live:    editorLive,
	},
	{
		Name: "windsurf", Display: "Windsurf", DefaultScope: User,
		User:   &Dest{Base: Home, Dir: []string{".codeium", "windsurf"}, Files: []string{"mcp_config.json"}},
		Format: format.JSON, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, URLKey: "serverUrl", Refs: RefDollarEnv,
		Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, Ephemeral: true,
		Sources: []string{"docs.windsurf.com/windsurf/cascade/mcp", "dyoshikawa/rulesync src/features/mcp/windsurf-mcp.ts"},
		Live:    editorLive,
	},
	{
		Name: "vscode", Display: "VS Code", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".vscode"}, Files: []string{"mcp.json"}},
		User:    &Dest{Env: "VSCODE_APPDATA", EnvDir: []string{"Code", "User"}, Base: AppData, Dir: []string{"Code", "User"}, Files: []string{"mcp.json"}},
		Format:  format.JSONC, ServersKey: "servers", Shape: ShapeVSCode, Refs: RefDollarEnv, Prompts: true,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Ephemeral: true, WorkspaceVar: "${workspaceFolder}", HomeVar: "${userHome}",
		// VS Code's Copilot harness (2026-11) also reads the portable mcpServers files:
		// the workspace .mcp.json and Copilot's ~/.copilot/mcp-config.json (copilot-cli's
		// files); its own mcp.json stays read, called a "Local configuration"
		AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}, {Env: "COPILOT_HOME", Base: Home, Dir: []string{".copilot"}, Files: []string{"mcp-config.json"}}},
		Sources: []string{"microsoft/vscode-docs docs/copilot/reference/mcp-configuration.md",
			"microsoft/vscode-docs docs/agents/reference/mcp-configuration.md (2026-11-25: portable mcpServers in .mcp.json and ~/.copilot/mcp-config.json (COPILOT_HOME) for the Copilot harness)",
			vscodeUserData},
		Live: editorLive,
	},
	{
		Name: "opencode", Display: "opencode", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Files: []string{"opencode.json", "opencode.jsonc"}},
		User:    &Dest{Base: XDGConfig, Dir: []string{"opencode"}, Files: []string{"opencode.json", "opencode.jsonc"}},
		Format:  format.JSONC, ServersKey: "mcp", Switch: "enabled", Shape: ShapeOpencode, Refs: RefBraceEnv,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyOpencode, Allow: AllowOpencode, Binary: "opencode", Ephemeral: true, StandaloneEnv: "OPENCODE_CONFIG",
		Sources:     []string{"anomalyco/opencode packages/web/src/content/docs/mcp-servers.mdx", "anomalyco/opencode packages/web/src/content/docs/config.mdx"},
		Conformance: true,
		Live:        opencodeLive,
	},
	{
		Name: "factory", Display: "Factory Droid", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".factory"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".factory"}, Files: []string{"mcp.json"}},
		Format:  format.JSON, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapeFactory, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, Ephemeral: true, UnionDisabled: true, DisableWhole: true,
		Sources: []string{"Factory-AI/factory docs/cli/configuration/mcp.mdx", "docs.factory.ai/user-guides/factory-bridge/model-context-protocol",
			"droid 0.225.2 tested, SSE included (conformance/factory_test.go; droid mcp add --type sse)"},
		Conformance: true,
		Live:        factoryLive,
	},
	{
		Name: "antigravity", Display: "Google Antigravity", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".agents"}, Files: []string{"mcp_config.json"}},
		User:    &Dest{Base: Home, Dir: []string{".gemini", "config"}, Files: []string{"mcp_config.json"}},
		Format:  format.JSON, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, URLKey: "serverUrl", Refs: RefNone,
		Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, UnionDisabled: true, DisableWhole: true, Owner: OwnerKeepExisting,
		Sources: []string{"dyoshikawa/rulesync src/features/mcp/antigravity-mcp.ts", "dyoshikawa/rulesync src/constants/antigravity-paths.ts"},
	},
	{
		Name: "warp", Display: "Warp", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".warp"}, Files: []string{".mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".warp"}, Files: []string{".mcp.json"}},
		Format:  format.JSON, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteHTTPAndSSE, CwdKey: "working_directory", Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"docs.warp.dev/agents/capabilities/mcp", "dyoshikawa/rulesync src/features/mcp/warp-mcp.ts"},
	},
	{
		Name: "omp", Display: "oh-my-pi", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".omp"}, Files: []string{"mcp.json"}, FromCwd: true},
		User:    &Dest{Env: "PI_CODING_AGENT_DIR", Base: Home, Dir: []string{".omp", "agent"}, Files: []string{"mcp.json"}},
		Format:  format.JSON, ServersKey: "mcpServers", Switch: "enabled", Shape: ShapeOMP, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyOMP, Allow: AllowOMP, DisableWhole: true, Owner: OwnerStrict,
		Sources: []string{"can1357/oh-my-pi docs/mcp-config.md (enabledTools, disabledTools: names or globs)",
			"@oh-my-pi/pi-coding-agent 18.2.3 loader tested (conformance/omp_test.go; no filters yet, unknown members ignored)"},
		Conformance: true,
		Live:        ompLive,
	},
	{
		Name: "grok-build", Display: "Grok Build", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".grok"}, Files: []string{"config.toml"}},
		User:    &Dest{Env: "GROK_HOME", Base: Home, Dir: []string{".grok"}, Files: []string{"config.toml"}},
		// Grok Build also reads Claude Code's and Cursor's files (grok mcp doctor lists
		// them as sources; its user guide 07-mcp-servers.md)
		AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}, {Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}},
			{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}}, {Base: Home, Dir: []string{".cursor"}, Files: []string{"mcp.json"}}},
		Format: format.TOML, ServersKey: "mcp_servers", Switch: "enabled", Shape: ShapeGrok, Refs: RefDollar,
		Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone, Owner: OwnerMarkers,
		ProjectNote: "Grok Build starts a project's servers only in a folder you trust (grok --trust, kept in ~/.grok/trusted_folders.toml)",
		Sources: []string{"docs.x.ai/build/features/mcp-servers", "docs.x.ai/build/settings/reference",
			"grok 1.0.41 tested (conformance/grok_test.go)",
			"@xai-official/grok 1.0.41 user-guide/07-mcp-servers.md (compat sources .mcp.json, ~/.claude.json, .cursor/mcp.json, ~/.cursor/mcp.json; trust) and 26-config-reference.md"},
		Conformance: true,
		Live:        grokLive,
	},
	{
		Name: "gemini-cli", Display: "Gemini CLI", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".gemini"}, Files: []string{"settings.json"}},
		User:    &Dest{Env: "GEMINI_CLI_HOME", EnvDir: []string{".gemini"}, Base: Home, Dir: []string{".gemini"}, Files: []string{"settings.json"}},
		Format:  format.JSONC, ServersKey: "mcpServers", Shape: ShapeGemini, Refs: RefDollar, Reads: []string{policy.StyleBareDollar},
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyGemini, Allow: AllowGemini, Ephemeral: true,
		Sources:     []string{"google-gemini/gemini-cli docs/tools/mcp-server.md", "google-gemini/gemini-cli docs/reference/configuration.md"},
		Conformance: true,
		Live:        geminiLive,
	},
	{
		Name: "runwield", Display: "RunWield", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".wld"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".wld"}, Files: []string{"mcp.json"}},
		Format:  format.JSONC, ServersKey: "mcpServers", Switch: "enabled", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone, PrivateMode: true, GitIgnored: true,
		Sources: []string{"gandazgul/runwield docs/mcp.md", "gandazgul/runwield docs/settings.md"},
	},
	{
		// The project file is .mcp.json, read by Claude Code and Qoder too (V10): entries
		// there take the spelling all of them accept. .github/mcp.json is written only
		// when it exists and .mcp.json does not (any .mcp.json hides it from Copilot).
		Name: "copilot-cli", Display: "GitHub Copilot CLI", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json", ".github/mcp.json"}, Strict: true},
		User:    &Dest{Env: "COPILOT_HOME", Base: Home, Dir: []string{".copilot"}, Files: []string{"mcp-config.json"}},
		Format:  format.JSONC, ServersKey: "mcpServers", Shape: ShapeCopilot, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowTools, Binary: "copilot", Ephemeral: true,
		ProjectNote: "GitHub Copilot CLI loads project servers only in a folder you trust (it asks when started there; trustedFolders in ~/.copilot/config.json), and any .mcp.json between the working directory and the git root hides .github/mcp.json",
		Sources: []string{"docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers",
			"docs.github.com/en/copilot/reference/copilot-cli-reference/cli-config-dir-reference",
			"docs.github.com/en/copilot/reference/copilot-cli-reference/cli-command-reference",
			"copilot 1.0.102 tested (research/clients-facts.md, observe/OBSERVED.md)"},
		Conformance: true,
		Live:        copilotLive,
	},
	{
		Name: "qwen-code", Display: "Qwen Code", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".qwen"}, Files: []string{"settings.json"}, NoTrailingComma: true, FromCwd: true},
		User:    &Dest{Env: "QWEN_HOME", Base: Home, Dir: []string{".qwen"}, Files: []string{"settings.json"}, NoTrailingComma: true},
		// Qwen Code 0.21+ also reads the project's .mcp.json (without expanding references)
		AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}},
		Format:    format.JSONC, ServersKey: "mcpServers", Shape: ShapeQwen, Refs: RefDollar, Reads: []string{policy.StyleBareDollar},
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyGemini, Allow: AllowGemini, Binary: "qwen", Ephemeral: true,
		ProjectNote: "Qwen Code 0.24+ starts a project's servers after qwen mcp approve NAME, again after each change of the entry",
		Sources: []string{"QwenLM/qwen-code docs/users/features/mcp.md", "QwenLM/qwen-code docs/users/configuration/settings.md",
			"@qwen-code/qwen-code 0.24.4 bundle (Storage.getGlobalQwenDir, createTransport, loadAndMigrate)",
			"qwen 0.24.4 tested (observe/OBSERVED.md)"},
		Conformance: true,
		Live:        qwenLive,
	},
	{
		Name: "auggie", Display: "Augment (auggie)", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".augment"}, Files: []string{"settings.json"}},
		Local:   &Dest{Base: ProjectDir, Dir: []string{".augment"}, Files: []string{"settings.local.json"}},
		User:    &Dest{Base: Home, Dir: []string{".augment"}, Files: []string{"settings.json"}},
		Format:  format.JSONC, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapeAuggie, Refs: RefDollar, LiteralHeaders: true,
		Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Binary: "auggie", Ephemeral: true,
		Sources: []string{"@augmentcode/auggie 0.36.0 bundle augment.mjs (SettingsManager, MCP server schema, --mcp-config)",
			"auggie 0.36.0 tested (observe/OBSERVED.md)"},
		Conformance: true,
		Live:        auggieLive,
	},
	{
		Name: "amp", Display: "Amp", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".amp"}, Files: []string{"settings.json", "settings.jsonc"}},
		User:    &Dest{Env: "AMP_SETTINGS_FILE", EnvFile: true, Base: XDGConfig, Dir: []string{"amp"}, Files: []string{"settings.json", "settings.jsonc"}},
		Format:  format.JSONC, ServersKey: "amp.mcpServers", Shape: ShapeAmp, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone, Binary: "amp", Ephemeral: true,
		ProjectNote: "Amp starts workspace servers after amp mcp approve NAME",
		Sources: []string{"ampcode.com/manual (settings files, amp.mcpServers)", "amp --help, amp mcp add --help",
			"amp 0.0.1790142911-g7618fb tested (observe/OBSERVED.md)"},
		Conformance: true,
		Live:        ampLive,
	},
	{
		// Kilo CLI 7.x is an opencode fork: opencode's entries and tools map. A project
		// file holding a {env:…} reference is skipped whole, so none is written there.
		Name: "kilo", Display: "Kilo Code CLI", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Files: []string{"kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc"}, NoRefs: true},
		User:    &Dest{Base: XDGConfig, Dir: []string{"kilo"}, Files: []string{"kilo.json", "kilo.jsonc"}},
		// Kilo also loads a project's opencode.json
		AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{"opencode.json"}}},
		Format:    format.JSONC, ServersKey: "mcp", Switch: "enabled", Shape: ShapeOpencode, Refs: RefBraceEnv,
		Remote: RemoteHTTPAndSSE, Deny: DenyOpencode, Allow: AllowOpencode, Binary: "kilo", Ephemeral: true, StandaloneEnv: "KILO_CONFIG",
		Sources: []string{"@kilocode/cli 7.7.7 embedded Kilo CLI Configuration Reference (bin/kilo)", "kilo.ai/docs/cli",
			"cloud.tencent.com/document/product/1823/130074 (Windows: ~/.config/kilo)", "kilo 7.7.7 tested (observe/OBSERVED.md)"},
		Conformance: true,
		Live:        kiloLive,
	},
	{
		Name: "qoder", Display: "Qoder CLI", DefaultScope: Local,
		Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json"}, NoTrailingComma: true},
		Local:   &Dest{Base: ProjectDir, Dir: []string{".qoder"}, Files: []string{"settings.local.json"}, NoTrailingComma: true},
		User:    &Dest{Env: "QODER_CONFIG_DIR", Base: Home, Dir: []string{".qoder"}, Files: []string{"settings.json"}, NoTrailingComma: true},
		Format:  format.JSONC, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapeQoder, Refs: RefDollar,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Binary: "qodercli",
		Sources: []string{"@qoder-ai/qodercli 1.1.52 bundle qodercli.js (config directory, settings files, MCP schema)",
			"qodercli 1.1.52 tested (observe/OBSERVED.md)"},
		Conformance: true,
		Live:        qoderLive,
	},
	// YAML and [[mcp_servers]] clients (issue 13, part C).
	{
		Name: "goose", Display: "Goose", DefaultScope: User,
		// etcetera's app strategy: XDG on Linux and macOS, %APPDATA%\Block\goose\config
		// on Windows; GOOSE_PATH_ROOT (absolute) moves it to $GOOSE_PATH_ROOT/config
		User: &Dest{Env: "GOOSE_PATH_ROOT", EnvDir: []string{"config"}, Base: XDGConfig, Dir: []string{"goose"}, Files: []string{"config.yaml"},
			OS: map[string]*Dest{"windows": {Env: "GOOSE_PATH_ROOT", EnvDir: []string{"config"}, Base: AppData, Dir: []string{"Block", "goose", "config"}, Files: []string{"config.yaml"}}}},
		Format: format.YAML, ServersKey: "extensions", Switch: "enabled", Shape: ShapeGoose, Refs: RefEnvKeys,
		Remote: RemoteHTTP, Deny: DenyGoose, Allow: AllowGoose, DisableWhole: true, Binary: "goose",
		Sources: []string{"aaif-goose/goose documentation/docs/guides/config-files.md", "aaif-goose/goose crates/goose/src/agents/extension.rs",
			"aaif-goose/goose crates/goose/src/config/extensions.rs", "block/goose crates/goose/src/config/paths.rs"},
	},
	{
		Name: "continue", Display: "Continue", DefaultScope: User,
		// a block file of mcpwire's in the workspace (the IDE extension reads every
		// *.yaml there; Continue CLI does not); the user file is Continue's config.yaml,
		// shared with Continue CLI, never created beside a config.json, which Continue
		// reads while config.yaml is missing
		Project: &Dest{Base: ProjectDir, Dir: []string{".continue", "mcpServers"}, Files: []string{"mcpwire.yaml"}},
		User:    continueUser(),
		Format:  format.YAML, ServersKey: "mcpServers", EntryName: "name", Shape: ShapeContinue, Refs: RefSecrets,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone,
		NoEphemeral: continueNoEphemeral,
		ProjectNote: "the Continue IDE extension reads .continue/mcpServers/; Continue CLI (cn) does not: it reads servers from ~/.continue/config.yaml only (mcpwire inject --provider cn)",
		Sources: []string{"continuedev/continue docs/customize/deep-dives/mcp.mdx", "continuedev/continue packages/config-yaml/src/schemas/mcp/index.ts",
			"continuedev/continue core/util/paths.ts", "continuedev/continue core/config/yaml/LocalPlatformClient.ts",
			"cn 1.5.47 tested: project blocks not read (conformance/continue_test.go TestContinueCLIProjectBlocks)"},
	},
	{
		// Continue's CLI, cn: the user file only (its src/configLoader.ts); it reads no
		// server file in a project
		Name: "continue-cli", Display: "Continue CLI", DefaultScope: User,
		User:   continueUser(),
		Absent: map[Scope]string{Project: "Continue CLI (cn) reads servers from ~/.continue/config.yaml (or cn --config FILE) only; the project's .continue/mcpServers/ blocks are read by Continue's IDE extension (--provider continue --scope project)"},
		Format: format.YAML, ServersKey: "mcpServers", EntryName: "name", Shape: ShapeContinue, Refs: RefSecrets,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone,
		NoEphemeral: continueNoEphemeral,
		Sources: []string{"continuedev/continue extensions/cli/src/configLoader.ts", "continuedev/continue docs/cli/configuration.mdx (cn --config)",
			"cn 1.5.47 tested: --config replaces the configuration (docs/inject.md)",
			"cn 1.5.47 tested: user scope; project blocks not read (conformance/continue_test.go)"},
		Conformance: true,
	},
	{
		Name: "mistral-vibe", Display: "Mistral Vibe", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".vibe"}, Files: []string{"config.toml"}},
		User:    &Dest{Env: "VIBE_HOME", Base: Home, Dir: []string{".vibe"}, Files: []string{"config.toml"}},
		Format:  format.TOML, ServersKey: "mcp_servers", EntryName: "name", Switch: "disabled", Shape: ShapeVibe, Refs: RefAPIKeyEnv,
		Remote: RemoteHTTP, CwdKey: "cwd", Deny: DenyVibe, Allow: AllowNone, DisableWhole: true, Binary: "vibe",
		ProjectNote: "Mistral Vibe reads .vibe/config.toml only in a folder you trust: it asks when it starts there, and keeps the answer in its trusted_folders.toml",
		Sources: []string{"mistralai/mistral-vibe vibe/core/config/models.py", "mistralai/mistral-vibe vibe/core/config/vibe_schema.py",
			"mistralai/mistral-vibe vibe/core/config/layers/project.py", "mistralai/mistral-vibe vibe/core/paths/_vibe_home.py"},
	},
	// Clients checked by their documents and sources only (issue 13, part B): none of
	// them installs here. The facts and their sources are in docs/clients.md.
	{
		Name: "kiro", Display: "Kiro", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".kiro", "settings"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".kiro", "settings"}, Files: []string{"mcp.json"}},
		Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, Refs: RefDollar,
		Remote: RemoteHTTP, Deny: DenyDisabledTools, Allow: AllowNone, DisableWhole: true,
		Sources: []string{"kiro.dev/docs/mcp/configuration", "kiro.dev/docs/cli/mcp/configuration", "kiro.dev/docs/cli/chat/configuration"},
	},
	{
		Name: "kimi-code", Display: "Kimi Code", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".kimi-code"}, Files: []string{"mcp.json"}, FromCwd: true},
		User:    &Dest{Env: "KIMI_CODE_HOME", Base: Home, Dir: []string{".kimi-code"}, Files: []string{"mcp.json"}},
		// Kimi Code also reads <git root>/.mcp.json, between its user and project files
		AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}},
		Format:    format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "enabled", Shape: ShapeKimi, Refs: RefBearerVar,
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyKimi, Allow: AllowKimi, DisableWhole: true,
		Sources: []string{"MoonshotAI/kimi-code docs/en/customization/mcp.md", "MoonshotAI/kimi-code packages/agent-core-v2/src/mcpCore/config-schema.ts",
			"MoonshotAI/kimi-code packages/agent-core-v2/src/app/mcpConfig/configLoader.ts"},
	},
	{
		Name: "zed", Display: "Zed", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".zed"}, Files: []string{"settings.json"}},
		User: &Dest{Env: "FLATPAK_XDG_CONFIG_HOME", EnvDir: []string{"zed"}, Base: XDGConfig, Dir: []string{"zed"}, Files: []string{"settings.json"},
			OS: map[string]*Dest{
				"darwin":  {Base: Home, Dir: []string{".config", "zed"}, Files: []string{"settings.json"}},
				"windows": {Base: AppData, Dir: []string{"Zed"}, Files: []string{"settings.json"}},
			}},
		Format: format.JSONC, ServersKey: "context_servers", Switch: "enabled", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"zed-industries/zed crates/paths/src/paths.rs", "zed-industries/zed crates/settings_content (ContextServerSettingsContent)", "zed.dev/docs/ai/mcp"},
		Live:    editorLive,
	},
	{
		Name: "cline", Display: "Cline", DefaultScope: User,
		User: &Dest{Env: "CLINE_MCP_SETTINGS_PATH", EnvFile: true,
			More: []Relocation{{Env: "CLINE_DATA_DIR", Dir: []string{"settings"}}, {Env: "CLINE_DIR", Dir: []string{"data", "settings"}}},
			Base: Home, Dir: []string{".cline", "data", "settings"}, Files: []string{"cline_mcp_settings.json"}},
		Format: format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, Refs: RefNone,
		Types: &TypeNames{Stdio: "stdio", HTTP: "streamableHttp", SSE: "sse"}, Nested: "transport",
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Binary: "cline", Ephemeral: true,
		Sources: []string{"cline/cline sdk/packages/shared/src/storage/paths.ts", "cline/cline sdk/packages/core/src/extensions/mcp/config-loader.ts",
			"cline/cline apps/vscode/src/services/mcp/schemas.ts", "cline/cline apps/vscode/src/sdk/SdkController.ts",
			"cline 3.0.65 tested (conformance/cline_test.go)"},
		Conformance: true,
	},
	{
		Name: "roo-code", Display: "Roo Code", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".roo"}, Files: []string{"mcp.json"}},
		User:    &Dest{Env: "VSCODE_APPDATA", EnvDir: rooSettings, Base: AppData, Dir: rooSettings, Files: []string{"mcp_settings.json"}},
		Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, Refs: RefDollarEnv,
		Types:  &TypeNames{HTTP: "streamable-http", SSE: "sse"},
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyDisabledTools, Allow: AllowNone, DisableWhole: true, WorkspaceVar: "${workspaceFolder}",
		Sources: []string{"RooCodeInc/Roo-Code src/services/mcp/McpHub.ts", "RooCodeInc/Roo-Code src/utils/globalContext.ts", "RooCodeInc/Roo-Code src/utils/config.ts",
			"microsoft/vscode src/vs/workbench/api/common/extHostStoragePaths.ts (globalStorage folder: the extension id in lower case)", vscodeUserData},
	},
	{
		Name: "zoo-code", Display: "Zoo Code", DefaultScope: Project,
		// .roo/mcp.json is read only while .zoo/mcp.json is absent
		Project: &Dest{Base: ProjectDir, Files: []string{".zoo/mcp.json", ".roo/mcp.json"}},
		Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Switch: "disabled", Shape: ShapePlain, Refs: RefDollarEnv,
		Types:  &TypeNames{HTTP: "streamable-http", SSE: "sse"},
		Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyDisabledTools, Allow: AllowNone, DisableWhole: true, WorkspaceVar: "${workspaceFolder}",
		Sources: []string{"Zoo-Code-Org/Zoo-Code src/services/mcp/__tests__/McpHub.zooMigration.spec.ts", "Zoo-Code-Org/Zoo-Code src/services/mcp/McpHub.ts"},
	},
	{
		// <solution>/.vs/mcp.json is per user and per solution (Visual Studio's own
		// .gitignore ignores .vs/): a local file, not a committed one. The committed
		// <solution>/.mcp.json is Claude Code's and Copilot CLI's (mcpServers), which
		// Visual Studio reads too, so it has no project scope in mcpwire.
		Name: "visual-studio", Display: "Visual Studio", DefaultScope: Local,
		Local: &Dest{Base: ProjectDir, Dir: []string{".vs"}, Files: []string{"mcp.json"}},
		User:  &Dest{Base: Home, Files: []string{".mcp.json"}, Only: "windows"},
		// Visual Studio also reads <solution>/.mcp.json, .vscode/mcp.json and
		// .cursor/mcp.json, after its own files
		AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}, {Base: ProjectDir, Dir: []string{".vscode"}, Files: []string{"mcp.json"}},
			{Base: ProjectDir, Dir: []string{".cursor"}, Files: []string{"mcp.json"}}},
		Format: format.JSON, StrictJSON: true, ServersKey: "servers", Shape: ShapeVSCode, Refs: RefNone, Prompts: true,
		Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"MicrosoftDocs/visualstudio-docs docs/ide/mcp-servers.md (file locations: .vs\\mcp.json per user and solution)",
			"github/gitignore VisualStudio.gitignore (.vs/)"},
	},
	{
		Name: "trae", Display: "Trae", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Dir: []string{".trae"}, Files: []string{"mcp.json"}},
		Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"volcengine.com/docs/86677/2137601 (TRAE: 添加 MCP Server, 项目级 MCP Server)"},
	},
	{
		Name: "crush", Display: "Crush", DefaultScope: Project,
		Project: &Dest{Base: ProjectDir, Files: []string{".crush.json", "crush.json"}},
		User:    &Dest{Env: "CRUSH_GLOBAL_CONFIG", Base: XDGConfig, Dir: []string{"crush"}, Files: []string{"crush.json"}},
		Format:  format.JSON, StrictJSON: true, ServersKey: "mcp", Switch: "disabled", Shape: ShapeCrush, Refs: RefDollar, Reads: []string{policy.StyleBareDollar},
		Types:  &TypeNames{Stdio: "stdio", HTTP: "http", SSE: "sse"},
		Remote: RemoteHTTPAndSSE, Deny: DenyCrush, Allow: AllowCrush, DisableWhole: true,
		Sources: []string{"charmbracelet/crush internal/config/load.go", "charmbracelet/crush internal/config/config.go", "charmbracelet/crush internal/config/resolve.go",
			"charmbracelet/crush internal/agent/tools/mcp/tools.go", "charmbracelet/crush README.md"},
	},
	{
		Name: "junie", Display: "JetBrains Junie", DefaultScope: User,
		Project: &Dest{Base: ProjectDir, Dir: []string{".junie", "mcp"}, Files: []string{"mcp.json"}},
		User:    &Dest{Base: Home, Dir: []string{".junie", "mcp"}, Files: []string{"mcp.json"}},
		Format:  format.JSON, StrictJSON: true, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"jetbrains.com/help/junie/model-context-protocol-mcp.html", "JetBrains/junie-github-action src/mcp/prepare-mcp-config.ts",
			"laravel/boost src/Install/Agents/PhpStormJunie.php", "laravel/boost#200"},
	},
	{
		// mcp.json is in LM Studio's home: the directory ~/.lmstudio-home-pointer names,
		// else ~/.cache/lm-studio when it exists, else ~/.lmstudio (findLMStudioHome)
		Name: "lm-studio", Display: "LM Studio", DefaultScope: User,
		User: &Dest{Base: Home, Dir: []string{".lmstudio"}, Files: []string{"mcp.json"},
			Pointer: []string{".lmstudio-home-pointer"}, Fallback: [][]string{{".cache", "lm-studio"}}},
		Format: format.JSON, StrictJSON: true, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefNone,
		Remote: RemoteHTTP, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"lmstudio-ai/docs 0_app/2_mcp/index.mdx", "lmstudio.ai/blog/lmstudio-v0.3.17 (mcp.json in ~/.lmstudio, %USERPROFILE%\\.lmstudio)",
			"lmstudio-ai/lmstudio-js packages/lms-common-server/src/findLMStudioHome.ts", "lmstudio-ai/lmstudio-bug-tracker#1371", "lmstudio-ai/lmstudio-bug-tracker#2410"},
		Live: lmStudioLive,
	},
	{
		// Devin Local (its CLI and Desktop, which replaced Windsurf's Cascade): since
		// v3000.3 its servers live in mcp_config.json files beside its config.json, whose
		// mcpServers it moves there when it starts (docs/clients.md). The local file is
		// the person's own, git-ignored; its own `devin mcp add` writes there by default.
		Name: "devin", Display: "Devin Local", DefaultScope: Local,
		Project: &Dest{Base: ProjectDir, Dir: []string{".devin"}, Files: []string{"mcp_config.json"}},
		Local:   &Dest{Base: ProjectDir, Dir: []string{".devin"}, Files: []string{"mcp_config.local.json"}},
		User: &Dest{Base: Home, Dir: []string{".config", "devin"}, Files: []string{"mcp_config.json"},
			OS: map[string]*Dest{"windows": {Base: AppData, Dir: []string{"devin"}, Files: []string{"mcp_config.json"}}}},
		Format: format.JSONC, ServersKey: "mcpServers", Shape: ShapePlain, Refs: RefDollarEnv, Reads: []string{policy.StyleDollar},
		Types:  &TypeNames{Key: "transport", HTTP: "http", SSE: "sse"},
		Remote: RemoteHTTPAndSSE, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"docs.devin.ai/cli/extensibility/mcp/configuration (url, transport http|sse, headers; devin mcp add -s local|project|user)",
			"docs.devin.ai/cli/extensibility/configuration (~/.config/devin/config.json; %APPDATA%\\devin\\config.json on Windows; JSON with comments)",
			"docs.devin.ai/cli/changelog/stable (CLI v3000.3.22: MCP servers in dedicated config files, config.json mcpServers migrated at start)",
			"dyoshikawa/rulesync src/constants/devin-paths.ts, src/features/mcp/devin-mcp.ts (mcp_config.json, mcp_config.local.json)",
			"upstash/context7#3090 (devin 3000.6.2 reads .devin/mcp_config.json {transport: http, url})",
			"awslabs/aidlc-workflows#996 (devin 3000.6-3000.10: ${env:VAR} and ${VAR} resolved in headers)"},
	},
	{
		Name: "chatgpt-desktop", Display: "ChatGPT Desktop", DefaultScope: User,
		Shape: ShapeManual, Refs: RefNone, Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
		Sources: []string{"a server's setup guide: Settings → Connectors → Advanced → Developer mode (shared/seeds/001)"},
	},
}

// vscodeUserData is the source of VS Code's user directory: VSCODE_APPDATA, else
// %APPDATA% (else %USERPROFILE%\AppData\Roaming) on Windows, ~/Library/Application
// Support on macOS, $XDG_CONFIG_HOME (else ~/.config) on Linux, then the product name.
const vscodeUserData = "microsoft/vscode src/vs/platform/environment/node/userDataPath.js (VSCODE_APPDATA, then the per-OS application-data directory)"

// continueUser is Continue's user file, config.yaml, which its IDE extension and its
// CLI read (V10), never created beside a config.json, which Continue reads while
// config.yaml is missing.
func continueUser() *Dest {
	return &Dest{Env: "CONTINUE_GLOBAL_DIR", Base: Home, Dir: []string{".continue"}, Files: []string{"config.yaml"}, Yields: []string{"config.json"}}
}

// continueNoEphemeral says why Continue gets no standalone file.
const continueNoEphemeral = "cn --config FILE loads a file in place of Continue's whole configuration, models included, so a file holding only servers leaves cn without a model"

// rooSettings is Roo Code's settings directory under the VS Code user directory:
// globalStorage/<extension id in lower case>/settings.
var rooSettings = []string{"Code", "User", "globalStorage", "rooveterinaryinc.roo-cline", "settings"}
