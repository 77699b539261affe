package providers

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// testRoot is an absolute root on the machine running the test, so that variables
// set to paths under it pass the absolute-path check on every OS.
func testRoot() string {
	if runtime.GOOS == "windows" {
		return `C:\`
	}
	return "/"
}

// expand turns a slash-separated template into a path: "~" is the home directory,
// "P" the project, "X" $XDG_CONFIG_HOME, "A" %APPDATA%, "L" %LOCALAPPDATA%, "R" the
// client's relocation variable; anything else is under testRoot.
func expand(tmpl string) string {
	root := testRoot()
	first, rest, _ := strings.Cut(tmpl, "/")
	base := map[string]string{
		"~": filepath.Join(root, "home", "u"), "P": filepath.Join(root, "work", "repo"),
		"X": filepath.Join(root, "xdg"), "A": filepath.Join(root, "roaming"),
		"L": filepath.Join(root, "local"), "R": filepath.Join(root, "reloc"),
	}[first]
	if base == "" {
		return filepath.Join(root, filepath.FromSlash(tmpl))
	}
	return filepath.Join(base, filepath.FromSlash(rest))
}

// osEnv is an environment given as NAME=TEMPLATE pairs (see expand).
func osEnv(goos string, pairs ...string) PathEnv {
	vars := map[string]string{}
	for _, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		if v != "" && !strings.HasPrefix(v, " ") && v != "relative" {
			v = expand(v)
		}
		vars[k] = v
	}
	return PathEnv{GOOS: goos, Home: expand("~"), Project: expand("P"), Getenv: func(k string) string { return vars[k] }}
}

// destCase is one destination on one OS in one environment.
type destCase struct {
	goos, dest string   // dest: "provider/scope", or "provider/scope/settings"
	env        []string // NAME=TEMPLATE
	want       []string // candidate templates; nil: resolving fails
}

// defaults is every destination on every OS with nothing set but the home directory
// (the completeness check below fails when a provider or scope has no row).
var defaults = []destCase{
	// Linux: XDG for the app-data clients
	{"linux", "claude-code/project", nil, []string{"P/.mcp.json"}},
	{"linux", "claude-code/project/settings", nil, []string{"P/.claude/settings.local.json"}},
	{"linux", "claude-code/user", nil, []string{"~/.claude.json"}},
	{"linux", "claude-code/user/settings", nil, []string{"~/.claude/settings.json"}},
	{"linux", "claude-desktop/user", nil, []string{"~/.config/Claude/claude_desktop_config.json"}},
	{"linux", "codex/user", nil, []string{"~/.codex/config.toml"}},
	{"linux", "copilot-cli/user", nil, []string{"~/.copilot/mcp-config.json"}},
	{"linux", "claude-code/local", nil, []string{"~/.claude.json"}},
	{"linux", "claude-code/local/settings", nil, []string{"P/.claude/settings.local.json"}},
	{"linux", "copilot-cli/project", nil, []string{"P/.mcp.json", "P/.github/mcp.json"}},
	{"linux", "qwen-code/project", nil, []string{"P/.qwen/settings.json"}},
	{"linux", "qwen-code/user", nil, []string{"~/.qwen/settings.json"}},
	{"linux", "auggie/project", nil, []string{"P/.augment/settings.json"}},
	{"linux", "auggie/local", nil, []string{"P/.augment/settings.local.json"}},
	{"linux", "auggie/user", nil, []string{"~/.augment/settings.json"}},
	{"linux", "amp/project", nil, []string{"P/.amp/settings.json", "P/.amp/settings.jsonc"}},
	{"linux", "amp/user", nil, []string{"~/.config/amp/settings.json", "~/.config/amp/settings.jsonc"}},
	{"linux", "kilo/project", nil, []string{"P/kilo.json", "P/kilo.jsonc", "P/.kilo/kilo.json", "P/.kilo/kilo.jsonc"}},
	{"linux", "kilo/user", nil, []string{"~/.config/kilo/kilo.json", "~/.config/kilo/kilo.jsonc"}},
	{"linux", "qoder/project", nil, []string{"P/.mcp.json"}},
	{"linux", "qoder/local", nil, []string{"P/.qoder/settings.local.json"}},
	{"linux", "qoder/user", nil, []string{"~/.qoder/settings.json"}},
	{"linux", "cursor/project", nil, []string{"P/.cursor/mcp.json"}},
	{"linux", "cursor/user", nil, []string{"~/.cursor/mcp.json"}},
	{"linux", "windsurf/user", nil, []string{"~/.codeium/windsurf/mcp_config.json"}},
	{"linux", "devin/project", nil, []string{"P/.devin/mcp_config.json"}},
	{"linux", "devin/local", nil, []string{"P/.devin/mcp_config.local.json"}},
	{"linux", "devin/user", nil, []string{"~/.config/devin/mcp_config.json"}},
	{"linux", "vscode/project", nil, []string{"P/.vscode/mcp.json"}},
	{"linux", "vscode/user", nil, []string{"~/.config/Code/User/mcp.json"}},
	{"linux", "opencode/project", nil, []string{"P/opencode.json", "P/opencode.jsonc"}},
	{"linux", "opencode/user", nil, []string{"~/.config/opencode/opencode.json", "~/.config/opencode/opencode.jsonc"}},
	{"linux", "factory/project", nil, []string{"P/.factory/mcp.json"}},
	{"linux", "factory/user", nil, []string{"~/.factory/mcp.json"}},
	{"linux", "antigravity/project", nil, []string{"P/.agents/mcp_config.json"}},
	{"linux", "antigravity/user", nil, []string{"~/.gemini/config/mcp_config.json"}},
	{"linux", "warp/project", nil, []string{"P/.warp/.mcp.json"}},
	{"linux", "warp/user", nil, []string{"~/.warp/.mcp.json"}},
	{"linux", "omp/project", nil, []string{"P/.omp/mcp.json"}},
	{"linux", "omp/user", nil, []string{"~/.omp/agent/mcp.json"}},
	{"linux", "grok-build/project", nil, []string{"P/.grok/config.toml"}},
	{"linux", "grok-build/user", nil, []string{"~/.grok/config.toml"}},
	{"linux", "gemini-cli/project", nil, []string{"P/.gemini/settings.json"}},
	{"linux", "gemini-cli/user", nil, []string{"~/.gemini/settings.json"}},
	{"linux", "runwield/project", nil, []string{"P/.wld/mcp.json"}},
	{"linux", "runwield/user", nil, []string{"~/.wld/mcp.json"}},
	{"linux", "goose/user", nil, []string{"~/.config/goose/config.yaml"}},
	{"linux", "continue/project", nil, []string{"P/.continue/mcpServers/mcpwire.yaml"}},
	{"linux", "continue/user", nil, []string{"~/.continue/config.yaml"}},
	{"linux", "continue-cli/user", nil, []string{"~/.continue/config.yaml"}},
	{"linux", "mistral-vibe/project", nil, []string{"P/.vibe/config.toml"}},
	{"linux", "mistral-vibe/user", nil, []string{"~/.vibe/config.toml"}},
	{"linux", "kiro/project", nil, []string{"P/.kiro/settings/mcp.json"}},
	{"linux", "kiro/user", nil, []string{"~/.kiro/settings/mcp.json"}},
	{"linux", "kimi-code/project", nil, []string{"P/.kimi-code/mcp.json"}},
	{"linux", "kimi-code/user", nil, []string{"~/.kimi-code/mcp.json"}},
	{"linux", "zed/project", nil, []string{"P/.zed/settings.json"}},
	{"linux", "zed/user", nil, []string{"~/.config/zed/settings.json"}},
	{"linux", "cline/user", nil, []string{"~/.cline/data/settings/cline_mcp_settings.json"}},
	{"linux", "roo-code/project", nil, []string{"P/.roo/mcp.json"}},
	{"linux", "roo-code/user", nil, []string{"~/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"}},
	{"linux", "zoo-code/project", nil, []string{"P/.zoo/mcp.json", "P/.roo/mcp.json"}},
	{"linux", "visual-studio/local", nil, []string{"P/.vs/mcp.json"}},
	{"linux", "visual-studio/user", nil, nil},
	{"linux", "trae/project", nil, []string{"P/.trae/mcp.json"}},
	{"linux", "crush/project", nil, []string{"P/.crush.json", "P/crush.json"}},
	{"linux", "crush/user", nil, []string{"~/.config/crush/crush.json"}},
	{"linux", "junie/project", nil, []string{"P/.junie/mcp/mcp.json"}},
	{"linux", "junie/user", nil, []string{"~/.junie/mcp/mcp.json"}},
	{"linux", "lm-studio/user", nil, []string{"~/.lmstudio/mcp.json"}},
	// macOS: ~/Library/Application Support for the app-data clients; opencode keeps ~/.config
	{"darwin", "claude-code/project", nil, []string{"P/.mcp.json"}},
	{"darwin", "claude-code/project/settings", nil, []string{"P/.claude/settings.local.json"}},
	{"darwin", "claude-code/user", nil, []string{"~/.claude.json"}},
	{"darwin", "claude-code/user/settings", nil, []string{"~/.claude/settings.json"}},
	{"darwin", "claude-desktop/user", nil, []string{"~/Library/Application Support/Claude/claude_desktop_config.json"}},
	{"darwin", "codex/user", nil, []string{"~/.codex/config.toml"}},
	{"darwin", "copilot-cli/user", nil, []string{"~/.copilot/mcp-config.json"}},
	{"darwin", "claude-code/local", nil, []string{"~/.claude.json"}},
	{"darwin", "claude-code/local/settings", nil, []string{"P/.claude/settings.local.json"}},
	{"darwin", "copilot-cli/project", nil, []string{"P/.mcp.json", "P/.github/mcp.json"}},
	{"darwin", "qwen-code/project", nil, []string{"P/.qwen/settings.json"}},
	{"darwin", "qwen-code/user", nil, []string{"~/.qwen/settings.json"}},
	{"darwin", "auggie/project", nil, []string{"P/.augment/settings.json"}},
	{"darwin", "auggie/local", nil, []string{"P/.augment/settings.local.json"}},
	{"darwin", "auggie/user", nil, []string{"~/.augment/settings.json"}},
	{"darwin", "amp/project", nil, []string{"P/.amp/settings.json", "P/.amp/settings.jsonc"}},
	{"darwin", "amp/user", nil, []string{"~/.config/amp/settings.json", "~/.config/amp/settings.jsonc"}},
	{"darwin", "kilo/project", nil, []string{"P/kilo.json", "P/kilo.jsonc", "P/.kilo/kilo.json", "P/.kilo/kilo.jsonc"}},
	{"darwin", "kilo/user", nil, []string{"~/.config/kilo/kilo.json", "~/.config/kilo/kilo.jsonc"}},
	{"darwin", "qoder/project", nil, []string{"P/.mcp.json"}},
	{"darwin", "qoder/local", nil, []string{"P/.qoder/settings.local.json"}},
	{"darwin", "qoder/user", nil, []string{"~/.qoder/settings.json"}},
	{"darwin", "cursor/project", nil, []string{"P/.cursor/mcp.json"}},
	{"darwin", "cursor/user", nil, []string{"~/.cursor/mcp.json"}},
	{"darwin", "windsurf/user", nil, []string{"~/.codeium/windsurf/mcp_config.json"}},
	{"darwin", "devin/project", nil, []string{"P/.devin/mcp_config.json"}},
	{"darwin", "devin/local", nil, []string{"P/.devin/mcp_config.local.json"}},
	{"darwin", "devin/user", nil, []string{"~/.config/devin/mcp_config.json"}},
	{"darwin", "vscode/project", nil, []string{"P/.vscode/mcp.json"}},
	{"darwin", "vscode/user", nil, []string{"~/Library/Application Support/Code/User/mcp.json"}},
	{"darwin", "opencode/project", nil, []string{"P/opencode.json", "P/opencode.jsonc"}},
	{"darwin", "opencode/user", nil, []string{"~/.config/opencode/opencode.json", "~/.config/opencode/opencode.jsonc"}},
	{"darwin", "factory/project", nil, []string{"P/.factory/mcp.json"}},
	{"darwin", "factory/user", nil, []string{"~/.factory/mcp.json"}},
	{"darwin", "antigravity/project", nil, []string{"P/.agents/mcp_config.json"}},
	{"darwin", "antigravity/user", nil, []string{"~/.gemini/config/mcp_config.json"}},
	{"darwin", "warp/project", nil, []string{"P/.warp/.mcp.json"}},
	{"darwin", "warp/user", nil, []string{"~/.warp/.mcp.json"}},
	{"darwin", "omp/project", nil, []string{"P/.omp/mcp.json"}},
	{"darwin", "omp/user", nil, []string{"~/.omp/agent/mcp.json"}},
	{"darwin", "grok-build/project", nil, []string{"P/.grok/config.toml"}},
	{"darwin", "grok-build/user", nil, []string{"~/.grok/config.toml"}},
	{"darwin", "gemini-cli/project", nil, []string{"P/.gemini/settings.json"}},
	{"darwin", "gemini-cli/user", nil, []string{"~/.gemini/settings.json"}},
	{"darwin", "runwield/project", nil, []string{"P/.wld/mcp.json"}},
	{"darwin", "runwield/user", nil, []string{"~/.wld/mcp.json"}},
	{"darwin", "goose/user", nil, []string{"~/.config/goose/config.yaml"}},
	{"darwin", "continue/project", nil, []string{"P/.continue/mcpServers/mcpwire.yaml"}},
	{"darwin", "continue/user", nil, []string{"~/.continue/config.yaml"}},
	{"darwin", "continue-cli/user", nil, []string{"~/.continue/config.yaml"}},
	{"darwin", "mistral-vibe/project", nil, []string{"P/.vibe/config.toml"}},
	{"darwin", "mistral-vibe/user", nil, []string{"~/.vibe/config.toml"}},
	{"darwin", "kiro/project", nil, []string{"P/.kiro/settings/mcp.json"}},
	{"darwin", "kiro/user", nil, []string{"~/.kiro/settings/mcp.json"}},
	{"darwin", "kimi-code/project", nil, []string{"P/.kimi-code/mcp.json"}},
	{"darwin", "kimi-code/user", nil, []string{"~/.kimi-code/mcp.json"}},
	{"darwin", "zed/project", nil, []string{"P/.zed/settings.json"}},
	{"darwin", "zed/user", nil, []string{"~/.config/zed/settings.json"}},
	{"darwin", "cline/user", nil, []string{"~/.cline/data/settings/cline_mcp_settings.json"}},
	{"darwin", "roo-code/project", nil, []string{"P/.roo/mcp.json"}},
	{"darwin", "roo-code/user", nil, []string{"~/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"}},
	{"darwin", "zoo-code/project", nil, []string{"P/.zoo/mcp.json", "P/.roo/mcp.json"}},
	{"darwin", "visual-studio/local", nil, []string{"P/.vs/mcp.json"}},
	{"darwin", "visual-studio/user", nil, nil},
	{"darwin", "trae/project", nil, []string{"P/.trae/mcp.json"}},
	{"darwin", "crush/project", nil, []string{"P/.crush.json", "P/crush.json"}},
	{"darwin", "crush/user", nil, []string{"~/.config/crush/crush.json"}},
	{"darwin", "junie/project", nil, []string{"P/.junie/mcp/mcp.json"}},
	{"darwin", "junie/user", nil, []string{"~/.junie/mcp/mcp.json"}},
	{"darwin", "lm-studio/user", nil, []string{"~/.lmstudio/mcp.json"}},
	// Windows: %USERPROFILE% is the home; app data in ~/AppData/Roaming when APPDATA is unset
	{"windows", "claude-code/project", nil, []string{"P/.mcp.json"}},
	{"windows", "claude-code/project/settings", nil, []string{"P/.claude/settings.local.json"}},
	{"windows", "claude-code/user", nil, []string{"~/.claude.json"}},
	{"windows", "claude-code/user/settings", nil, []string{"~/.claude/settings.json"}},
	{"windows", "claude-desktop/user", nil, []string{"~/AppData/Roaming/Claude/claude_desktop_config.json"}},
	{"windows", "codex/user", nil, []string{"~/.codex/config.toml"}},
	{"windows", "copilot-cli/user", nil, []string{"~/.copilot/mcp-config.json"}},
	{"windows", "claude-code/local", nil, []string{"~/.claude.json"}},
	{"windows", "claude-code/local/settings", nil, []string{"P/.claude/settings.local.json"}},
	{"windows", "copilot-cli/project", nil, []string{"P/.mcp.json", "P/.github/mcp.json"}},
	{"windows", "qwen-code/project", nil, []string{"P/.qwen/settings.json"}},
	{"windows", "qwen-code/user", nil, []string{"~/.qwen/settings.json"}},
	{"windows", "auggie/project", nil, []string{"P/.augment/settings.json"}},
	{"windows", "auggie/local", nil, []string{"P/.augment/settings.local.json"}},
	{"windows", "auggie/user", nil, []string{"~/.augment/settings.json"}},
	{"windows", "amp/project", nil, []string{"P/.amp/settings.json", "P/.amp/settings.jsonc"}},
	{"windows", "amp/user", nil, []string{"~/.config/amp/settings.json", "~/.config/amp/settings.jsonc"}},
	{"windows", "kilo/project", nil, []string{"P/kilo.json", "P/kilo.jsonc", "P/.kilo/kilo.json", "P/.kilo/kilo.jsonc"}},
	{"windows", "kilo/user", nil, []string{"~/.config/kilo/kilo.json", "~/.config/kilo/kilo.jsonc"}},
	{"windows", "qoder/project", nil, []string{"P/.mcp.json"}},
	{"windows", "qoder/local", nil, []string{"P/.qoder/settings.local.json"}},
	{"windows", "qoder/user", nil, []string{"~/.qoder/settings.json"}},
	{"windows", "cursor/project", nil, []string{"P/.cursor/mcp.json"}},
	{"windows", "cursor/user", nil, []string{"~/.cursor/mcp.json"}},
	{"windows", "windsurf/user", nil, []string{"~/.codeium/windsurf/mcp_config.json"}},
	{"windows", "devin/project", nil, []string{"P/.devin/mcp_config.json"}},
	{"windows", "devin/local", nil, []string{"P/.devin/mcp_config.local.json"}},
	{"windows", "devin/user", nil, []string{"~/AppData/Roaming/devin/mcp_config.json"}},
	{"windows", "vscode/project", nil, []string{"P/.vscode/mcp.json"}},
	{"windows", "vscode/user", nil, []string{"~/AppData/Roaming/Code/User/mcp.json"}},
	{"windows", "opencode/project", nil, []string{"P/opencode.json", "P/opencode.jsonc"}},
	{"windows", "opencode/user", nil, []string{"~/.config/opencode/opencode.json", "~/.config/opencode/opencode.jsonc"}},
	{"windows", "factory/project", nil, []string{"P/.factory/mcp.json"}},
	{"windows", "factory/user", nil, []string{"~/.factory/mcp.json"}},
	{"windows", "antigravity/project", nil, []string{"P/.agents/mcp_config.json"}},
	{"windows", "antigravity/user", nil, []string{"~/.gemini/config/mcp_config.json"}},
	{"windows", "warp/project", nil, []string{"P/.warp/.mcp.json"}},
	{"windows", "warp/user", nil, []string{"~/.warp/.mcp.json"}},
	{"windows", "omp/project", nil, []string{"P/.omp/mcp.json"}},
	{"windows", "omp/user", nil, []string{"~/.omp/agent/mcp.json"}},
	{"windows", "grok-build/project", nil, []string{"P/.grok/config.toml"}},
	{"windows", "grok-build/user", nil, []string{"~/.grok/config.toml"}},
	{"windows", "gemini-cli/project", nil, []string{"P/.gemini/settings.json"}},
	{"windows", "gemini-cli/user", nil, []string{"~/.gemini/settings.json"}},
	{"windows", "runwield/project", nil, []string{"P/.wld/mcp.json"}},
	{"windows", "runwield/user", nil, []string{"~/.wld/mcp.json"}},
	{"windows", "goose/user", nil, []string{"~/AppData/Roaming/Block/goose/config/config.yaml"}},
	{"windows", "continue/project", nil, []string{"P/.continue/mcpServers/mcpwire.yaml"}},
	{"windows", "continue/user", nil, []string{"~/.continue/config.yaml"}},
	{"windows", "continue-cli/user", nil, []string{"~/.continue/config.yaml"}},
	{"windows", "mistral-vibe/project", nil, []string{"P/.vibe/config.toml"}},
	{"windows", "mistral-vibe/user", nil, []string{"~/.vibe/config.toml"}},
	{"windows", "kiro/project", nil, []string{"P/.kiro/settings/mcp.json"}},
	{"windows", "kiro/user", nil, []string{"~/.kiro/settings/mcp.json"}},
	{"windows", "kimi-code/project", nil, []string{"P/.kimi-code/mcp.json"}},
	{"windows", "kimi-code/user", nil, []string{"~/.kimi-code/mcp.json"}},
	{"windows", "zed/project", nil, []string{"P/.zed/settings.json"}},
	{"windows", "zed/user", nil, []string{"~/AppData/Roaming/Zed/settings.json"}},
	{"windows", "cline/user", nil, []string{"~/.cline/data/settings/cline_mcp_settings.json"}},
	{"windows", "roo-code/project", nil, []string{"P/.roo/mcp.json"}},
	{"windows", "roo-code/user", nil, []string{"~/AppData/Roaming/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"}},
	{"windows", "zoo-code/project", nil, []string{"P/.zoo/mcp.json", "P/.roo/mcp.json"}},
	{"windows", "visual-studio/local", nil, []string{"P/.vs/mcp.json"}},
	{"windows", "visual-studio/user", nil, []string{"~/.mcp.json"}},
	{"windows", "trae/project", nil, []string{"P/.trae/mcp.json"}},
	{"windows", "crush/project", nil, []string{"P/.crush.json", "P/crush.json"}},
	{"windows", "crush/user", nil, []string{"~/.config/crush/crush.json"}},
	{"windows", "junie/project", nil, []string{"P/.junie/mcp/mcp.json"}},
	{"windows", "junie/user", nil, []string{"~/.junie/mcp/mcp.json"}},
	{"windows", "lm-studio/user", nil, []string{"~/.lmstudio/mcp.json"}},
}

// relocated is the base directories' and the clients' own variables, per OS: each
// moves exactly the files it names and is ignored where the client does not read it.
var relocated = []destCase{
	// XDG_CONFIG_HOME: Linux app data, and opencode on every OS
	{"linux", "claude-desktop/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/Claude/claude_desktop_config.json"}},
	{"linux", "vscode/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/Code/User/mcp.json"}},
	{"linux", "opencode/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/opencode/opencode.json", "X/opencode/opencode.jsonc"}},
	{"linux", "vscode/user", []string{"XDG_CONFIG_HOME=relative"}, []string{"~/.config/Code/User/mcp.json"}},
	{"linux", "claude-desktop/user", []string{"APPDATA=A", "LOCALAPPDATA=L"}, []string{"~/.config/Claude/claude_desktop_config.json"}},
	{"darwin", "claude-desktop/user", []string{"XDG_CONFIG_HOME=X", "APPDATA=A"}, []string{"~/Library/Application Support/Claude/claude_desktop_config.json"}},
	{"darwin", "vscode/user", []string{"XDG_CONFIG_HOME=X"}, []string{"~/Library/Application Support/Code/User/mcp.json"}},
	{"darwin", "opencode/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/opencode/opencode.json", "X/opencode/opencode.jsonc"}},
	{"windows", "opencode/user", []string{"XDG_CONFIG_HOME=X", "APPDATA=A"}, []string{"X/opencode/opencode.json", "X/opencode/opencode.jsonc"}},
	// %APPDATA% on Windows only; empty is unset
	{"windows", "claude-desktop/user", []string{"APPDATA=A", "XDG_CONFIG_HOME=X"}, []string{"A/Claude/claude_desktop_config.json"}},
	{"windows", "claude-desktop/user", []string{"APPDATA="}, []string{"~/AppData/Roaming/Claude/claude_desktop_config.json"}},
	{"windows", "vscode/user", []string{"APPDATA=A"}, []string{"A/Code/User/mcp.json"}},
	{"windows", "cursor/user", []string{"APPDATA=A", "LOCALAPPDATA=L"}, []string{"~/.cursor/mcp.json"}},
	// the clients' own variables, on every OS
	{"linux", "claude-code/user", []string{"CLAUDE_CONFIG_DIR=R"}, []string{"R/.claude.json"}},
	{"darwin", "claude-code/user/settings", []string{"CLAUDE_CONFIG_DIR=R"}, []string{"R/settings.json"}},
	{"windows", "claude-code/user", []string{"CLAUDE_CONFIG_DIR=R"}, []string{"R/.claude.json"}},
	{"windows", "claude-code/project", []string{"CLAUDE_CONFIG_DIR=R"}, []string{"P/.mcp.json"}},
	{"linux", "codex/user", []string{"CODEX_HOME=R"}, []string{"R/config.toml"}},
	{"darwin", "codex/user", []string{"CODEX_HOME=R"}, []string{"R/config.toml"}},
	{"windows", "codex/user", []string{"CODEX_HOME=R"}, []string{"R/config.toml"}},
	{"linux", "copilot-cli/user", []string{"COPILOT_HOME=R", "XDG_CONFIG_HOME=X"}, []string{"R/mcp-config.json"}},
	{"windows", "copilot-cli/user", []string{"COPILOT_HOME=R"}, []string{"R/mcp-config.json"}},
	{"linux", "claude-code/local", []string{"CLAUDE_CONFIG_DIR=R"}, []string{"R/.claude.json"}},
	{"windows", "claude-code/local/settings", []string{"CLAUDE_CONFIG_DIR=R"}, []string{"P/.claude/settings.local.json"}},
	{"linux", "copilot-cli/project", []string{"COPILOT_HOME=R"}, []string{"P/.mcp.json", "P/.github/mcp.json"}},
	{"linux", "qwen-code/user", []string{"QWEN_HOME=R"}, []string{"R/settings.json"}},
	{"windows", "qwen-code/user", []string{"QWEN_HOME=R"}, []string{"R/settings.json"}},
	{"darwin", "qwen-code/project", []string{"QWEN_HOME=R"}, []string{"P/.qwen/settings.json"}},
	{"linux", "qwen-code/user", []string{"QWEN_HOME=relative"}, nil},
	{"linux", "auggie/user", []string{"XDG_CONFIG_HOME=X"}, []string{"~/.augment/settings.json"}},
	{"linux", "amp/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/amp/settings.json", "X/amp/settings.jsonc"}},
	{"windows", "amp/user", []string{"XDG_CONFIG_HOME=X", "APPDATA=A"}, []string{"X/amp/settings.json", "X/amp/settings.jsonc"}},
	{"linux", "amp/user", []string{"AMP_SETTINGS_FILE=R/amp.json", "XDG_CONFIG_HOME=X"}, []string{"R/amp.json"}},
	{"darwin", "amp/user", []string{"AMP_SETTINGS_FILE=R/s.jsonc"}, []string{"R/s.jsonc"}},
	{"linux", "amp/user", []string{"AMP_SETTINGS_FILE=relative"}, nil},
	{"linux", "amp/project", []string{"AMP_SETTINGS_FILE=R/amp.json"}, []string{"P/.amp/settings.json", "P/.amp/settings.jsonc"}},
	{"linux", "kilo/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/kilo/kilo.json", "X/kilo/kilo.jsonc"}},
	{"windows", "kilo/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/kilo/kilo.json", "X/kilo/kilo.jsonc"}},
	{"linux", "qoder/user", []string{"QODER_CONFIG_DIR=R"}, []string{"R/settings.json"}},
	{"windows", "qoder/user", []string{"QODER_CONFIG_DIR=R"}, []string{"R/settings.json"}},
	{"linux", "qoder/local", []string{"QODER_CONFIG_DIR=R"}, []string{"P/.qoder/settings.local.json"}},
	{"linux", "codex/user", []string{"CODEX_HOME=relative"}, nil},
	{"linux", "codex/user", []string{"CODEX_HOME=/"}, nil},
	{"linux", "codex/user", []string{"CODEX_HOME=  "}, []string{"~/.codex/config.toml"}},
	{"linux", "gemini-cli/user", []string{"GEMINI_CLI_HOME=R"}, []string{"R/.gemini/settings.json"}},
	{"windows", "gemini-cli/user", []string{"GEMINI_CLI_HOME=R"}, []string{"R/.gemini/settings.json"}},
	{"darwin", "gemini-cli/project", []string{"GEMINI_CLI_HOME=R"}, []string{"P/.gemini/settings.json"}},
	{"linux", "grok-build/user", []string{"GROK_HOME=R"}, []string{"R/config.toml"}},
	{"windows", "grok-build/user", []string{"GROK_HOME=R"}, []string{"R/config.toml"}},
	{"linux", "omp/user", []string{"PI_CODING_AGENT_DIR=R"}, []string{"R/mcp.json"}},
	{"darwin", "omp/user", []string{"PI_CODING_AGENT_DIR=R"}, []string{"R/mcp.json"}},
	{"linux", "vscode/user", []string{"VSCODE_APPDATA=R", "XDG_CONFIG_HOME=X"}, []string{"R/Code/User/mcp.json"}},
	{"darwin", "vscode/user", []string{"VSCODE_APPDATA=R"}, []string{"R/Code/User/mcp.json"}},
	{"windows", "vscode/user", []string{"VSCODE_APPDATA=R", "APPDATA=A"}, []string{"R/Code/User/mcp.json"}},
	{"windows", "vscode/project", []string{"VSCODE_APPDATA=R"}, []string{"P/.vscode/mcp.json"}},
	// Goose: XDG on Linux and macOS (etcetera's app strategy), %APPDATA% on Windows;
	// GOOSE_PATH_ROOT everywhere, and only when absolute
	{"linux", "goose/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/goose/config.yaml"}},
	{"darwin", "goose/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/goose/config.yaml"}},
	{"windows", "goose/user", []string{"APPDATA=A", "XDG_CONFIG_HOME=X"}, []string{"A/Block/goose/config/config.yaml"}},
	{"linux", "goose/user", []string{"GOOSE_PATH_ROOT=R", "XDG_CONFIG_HOME=X"}, []string{"R/config/config.yaml"}},
	{"windows", "goose/user", []string{"GOOSE_PATH_ROOT=R", "APPDATA=A"}, []string{"R/config/config.yaml"}},
	{"darwin", "goose/user", []string{"GOOSE_PATH_ROOT=relative"}, nil},
	{"linux", "continue/user", []string{"CONTINUE_GLOBAL_DIR=R"}, []string{"R/config.yaml"}},
	{"linux", "continue-cli/user", []string{"CONTINUE_GLOBAL_DIR=R"}, []string{"R/config.yaml"}},
	{"windows", "continue/user", []string{"CONTINUE_GLOBAL_DIR=R"}, []string{"R/config.yaml"}},
	{"darwin", "continue/project", []string{"CONTINUE_GLOBAL_DIR=R"}, []string{"P/.continue/mcpServers/mcpwire.yaml"}},
	{"linux", "mistral-vibe/user", []string{"VIBE_HOME=R"}, []string{"R/config.toml"}},
	{"windows", "mistral-vibe/user", []string{"VIBE_HOME=R"}, []string{"R/config.toml"}},
	{"linux", "mistral-vibe/project", []string{"VIBE_HOME=R"}, []string{"P/.vibe/config.toml"}},
	// issue 13, part B: Kimi Code, Zed, Cline, Roo Code, Crush
	{"linux", "kimi-code/user", []string{"KIMI_CODE_HOME=R"}, []string{"R/mcp.json"}},
	{"windows", "kimi-code/project", []string{"KIMI_CODE_HOME=R"}, []string{"P/.kimi-code/mcp.json"}},
	{"linux", "zed/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/zed/settings.json"}},
	{"linux", "zed/user", []string{"FLATPAK_XDG_CONFIG_HOME=R", "XDG_CONFIG_HOME=X"}, []string{"R/zed/settings.json"}},
	{"darwin", "zed/user", []string{"XDG_CONFIG_HOME=X", "FLATPAK_XDG_CONFIG_HOME=R"}, []string{"~/.config/zed/settings.json"}},
	{"windows", "zed/user", []string{"APPDATA=A", "XDG_CONFIG_HOME=X"}, []string{"A/Zed/settings.json"}},
	{"linux", "cline/user", []string{"CLINE_MCP_SETTINGS_PATH=R/mine.json", "CLINE_DATA_DIR=X"}, []string{"R/mine.json"}},
	{"windows", "cline/user", []string{"CLINE_DATA_DIR=R", "CLINE_DIR=X"}, []string{"R/settings/cline_mcp_settings.json"}},
	{"darwin", "cline/user", []string{"CLINE_DIR=R"}, []string{"R/data/settings/cline_mcp_settings.json"}},
	{"linux", "cline/user", []string{"CLINE_MCP_SETTINGS_PATH=relative"}, nil},
	{"linux", "cline/user", []string{"CLINE_DIR=  "}, []string{"~/.cline/data/settings/cline_mcp_settings.json"}},
	{"windows", "roo-code/user", []string{"APPDATA=A"}, []string{"A/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"}},
	{"linux", "roo-code/user", []string{"VSCODE_APPDATA=R", "XDG_CONFIG_HOME=X"}, []string{"R/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"}},
	{"linux", "crush/user", []string{"XDG_CONFIG_HOME=X"}, []string{"X/crush/crush.json"}},
	{"windows", "crush/user", []string{"CRUSH_GLOBAL_CONFIG=R", "APPDATA=A"}, []string{"R/crush.json"}},
	{"windows", "crush/user", []string{"APPDATA=A"}, []string{"~/.config/crush/crush.json"}},
	{"windows", "visual-studio/user", []string{"XDG_CONFIG_HOME=X", "APPDATA=A"}, []string{"~/.mcp.json"}},
}

// lookupDest finds "provider/scope[/settings]".
func lookupDest(t *testing.T, key string) *Dest {
	t.Helper()
	parts := strings.Split(key, "/")
	p, ok := Get(parts[0])
	if !ok {
		t.Fatalf("no provider %s", parts[0])
	}
	d := p.Dest(Scope(parts[1]))
	if len(parts) == 3 {
		d = p.Settings[Scope(parts[1])]
	}
	if d == nil {
		t.Fatalf("%s: no destination", key)
	}
	return d
}

// TestDestinationsPerOS resolves every provider's files for every scope on Linux,
// macOS and Windows, with nothing set and with each variable that moves them: the
// home directory, XDG_CONFIG_HOME, ~/Library/Application Support, %APPDATA% with
// its ~/AppData/Roaming fallback, and the clients' own CLAUDE_CONFIG_DIR,
// CODEX_HOME, GEMINI_CLI_HOME, GROK_HOME, PI_CODING_AGENT_DIR, VSCODE_APPDATA,
// KIMI_CODE_HOME, CRUSH_GLOBAL_CONFIG, Zed's FLATPAK_XDG_CONFIG_HOME (Linux only) and
// Cline's three (a file, then two directories, in that order). Visual Studio's user
// file resolves on Windows only; Zed's differs per system.
// The rules are pure data, so every OS is resolved whatever machine runs the test.
//
// spec: V1 V3 V6 V8 I1
func TestDestinationsPerOS(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range append(slices.Clone(defaults), relocated...) {
		if c.env == nil {
			covered[c.goos+" "+c.dest] = true
		}
		t.Run(fmt.Sprintf("%s/%s/%s", c.goos, c.dest, strings.Join(c.env, ",")), func(t *testing.T) {
			got, err := lookupDest(t, c.dest).Candidates(osEnv(c.goos, c.env...))
			if c.want == nil {
				if err == nil {
					t.Fatalf("resolved to %q; want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range c.want {
				want = append(want, expand(w))
			}
			if !slices.Equal(got, want) {
				t.Errorf("candidates %q, want %q", got, want)
			}
		})
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, p := range All() {
			for _, s := range p.Scopes() {
				for _, key := range []string{p.Name + "/" + string(s), p.Name + "/" + string(s) + "/settings"} {
					if strings.HasSuffix(key, "/settings") && p.Settings[s] == nil {
						continue
					}
					if !covered[goos+" "+key] {
						t.Errorf("%s on %s: no row in the defaults table", key, goos)
					}
				}
			}
		}
	}
}

// TestDestinationVariables pins, per OS, the variables `mcpwire providers` names
// for each relocatable file, in the order they are consulted (V1).
//
// spec: V1
func TestDestinationVariables(t *testing.T) {
	cases := []struct {
		goos, dest string
		want       []string
	}{
		{"linux", "claude-code/user", []string{"CLAUDE_CONFIG_DIR"}},
		{"windows", "claude-code/user/settings", []string{"CLAUDE_CONFIG_DIR"}},
		{"linux", "claude-desktop/user", []string{"XDG_CONFIG_HOME"}},
		{"darwin", "claude-desktop/user", nil},
		{"windows", "claude-desktop/user", []string{"LOCALAPPDATA", "APPDATA"}},
		{"linux", "codex/user", []string{"CODEX_HOME"}},
		{"linux", "vscode/user", []string{"VSCODE_APPDATA", "XDG_CONFIG_HOME"}},
		{"darwin", "vscode/user", []string{"VSCODE_APPDATA"}},
		{"windows", "vscode/user", []string{"VSCODE_APPDATA", "APPDATA"}},
		{"darwin", "opencode/user", []string{"XDG_CONFIG_HOME"}},
		{"windows", "opencode/user", []string{"XDG_CONFIG_HOME"}},
		{"windows", "omp/user", []string{"PI_CODING_AGENT_DIR"}},
		{"darwin", "grok-build/user", []string{"GROK_HOME"}},
		{"windows", "gemini-cli/user", []string{"GEMINI_CLI_HOME"}},
		{"windows", "cursor/user", nil},
		{"linux", "cursor/project", nil},
		{"linux", "claude-code/local", []string{"CLAUDE_CONFIG_DIR"}},
		{"windows", "qwen-code/user", []string{"QWEN_HOME"}},
		{"linux", "amp/user", []string{"AMP_SETTINGS_FILE", "XDG_CONFIG_HOME"}},
		{"windows", "kilo/user", []string{"XDG_CONFIG_HOME"}},
		{"darwin", "qoder/user", []string{"QODER_CONFIG_DIR"}},
		{"linux", "auggie/local", nil},
		{"linux", "goose/user", []string{"GOOSE_PATH_ROOT", "XDG_CONFIG_HOME"}},
		{"darwin", "goose/user", []string{"GOOSE_PATH_ROOT", "XDG_CONFIG_HOME"}},
		{"windows", "goose/user", []string{"GOOSE_PATH_ROOT", "APPDATA"}},
		{"windows", "continue/user", []string{"CONTINUE_GLOBAL_DIR"}},
		{"darwin", "mistral-vibe/user", []string{"VIBE_HOME"}},
		{"linux", "zed/user", []string{"FLATPAK_XDG_CONFIG_HOME", "XDG_CONFIG_HOME"}},
		{"darwin", "zed/user", nil},
		{"windows", "zed/user", []string{"APPDATA"}},
		{"linux", "cline/user", []string{"CLINE_MCP_SETTINGS_PATH", "CLINE_DATA_DIR", "CLINE_DIR"}},
		{"windows", "kimi-code/user", []string{"KIMI_CODE_HOME"}},
		{"darwin", "crush/user", []string{"CRUSH_GLOBAL_CONFIG", "XDG_CONFIG_HOME"}},
		{"windows", "roo-code/user", []string{"VSCODE_APPDATA", "APPDATA"}},
		{"windows", "visual-studio/user", nil},
	}
	for _, c := range cases {
		if got := lookupDest(t, c.dest).Variables(c.goos); !slices.Equal(got, c.want) {
			t.Errorf("%s on %s: variables %q, want %q", c.dest, c.goos, got, c.want)
		}
	}
}

// TestDestinationMovedBy: the variable that decides a destination's directory here,
// as Directory reads them — the client's own variable first, when set (even to a
// value Directory refuses), then the base directory's when set and used (a relative
// XDG_CONFIG_HOME is not); none when the file is where it is by default.
//
// spec: V1
func TestDestinationMovedBy(t *testing.T) {
	cases := []struct {
		goos, dest string
		env        []string
		want       string
	}{
		{"linux", "codex/user", nil, ""},
		{"linux", "codex/user", []string{"CODEX_HOME=R"}, "CODEX_HOME"},
		{"linux", "codex/user", []string{"CODEX_HOME=relative"}, "CODEX_HOME"},
		{"linux", "vscode/user", []string{"XDG_CONFIG_HOME=R"}, "XDG_CONFIG_HOME"},
		{"linux", "vscode/user", []string{"XDG_CONFIG_HOME=relative"}, ""},
		{"linux", "vscode/user", []string{"VSCODE_APPDATA=R", "XDG_CONFIG_HOME=R"}, "VSCODE_APPDATA"},
		{"darwin", "vscode/user", []string{"XDG_CONFIG_HOME=R"}, ""},
		{"darwin", "goose/user", []string{"XDG_CONFIG_HOME=R"}, "XDG_CONFIG_HOME"},
		{"windows", "goose/user", []string{"APPDATA=R"}, "APPDATA"},
		{"windows", "goose/user", []string{"GOOSE_PATH_ROOT=R", "APPDATA=R"}, "GOOSE_PATH_ROOT"},
		{"windows", "claude-desktop/user", []string{"APPDATA=R"}, "APPDATA"},
		{"linux", "claude-desktop/user", []string{"APPDATA=R"}, ""},
		{"linux", "cursor/project", []string{"XDG_CONFIG_HOME=R"}, ""},
		{"linux", "cline/user", []string{"CLINE_DIR=R"}, "CLINE_DIR"},
	}
	for _, c := range cases {
		if got := lookupDest(t, c.dest).MovedBy(osEnv(c.goos, c.env...)); got != c.want {
			t.Errorf("%s on %s with %v: moved by %q, want %q", c.dest, c.goos, c.env, got, c.want)
		}
	}
}

// TestClaudeDesktopPackaged: on Windows the Microsoft Store (MSIX) build's copy,
// %LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\…, is a candidate
// before the classic %APPDATA% file (the caller uses it only where it exists);
// LOCALAPPDATA falls back to ~/AppData/Local; other systems have none.
//
// spec: I1 V1
func TestClaudeDesktopPackaged(t *testing.T) {
	d := lookupDest(t, "claude-desktop/user")
	const file = "claude_desktop_config.json"
	for _, c := range []struct {
		goos string
		env  []string
		dir  string // "" = no packaged candidate
	}{
		{"windows", []string{"LOCALAPPDATA=L"}, "L/Packages"},
		{"windows", nil, "~/AppData/Local/Packages"},
		{"windows", []string{"LOCALAPPDATA=", "APPDATA=A"}, "~/AppData/Local/Packages"},
		{"linux", []string{"LOCALAPPDATA=L"}, ""},
		{"darwin", []string{"LOCALAPPDATA=L"}, ""},
	} {
		globs, err := d.Globs(osEnv(c.goos, c.env...))
		if err != nil {
			t.Fatal(err)
		}
		if c.dir == "" {
			if len(globs) != 0 {
				t.Errorf("%s: packaged candidates %v, want none", c.goos, globs)
			}
			continue
		}
		want := Glob{Dir: expand(c.dir), Pattern: "Claude_*", Rest: []string{"LocalCache", "Roaming", "Claude", file}}
		if len(globs) != 1 || globs[0].Dir != want.Dir || globs[0].Pattern != want.Pattern || !slices.Equal(globs[0].Rest, want.Rest) {
			t.Errorf("%s %v: globs %+v, want [%+v]", c.goos, c.env, globs, want)
		}
	}
	g := Glob{Dir: expand("L/Packages"), Pattern: "Claude_*", Rest: []string{"LocalCache", "Roaming", "Claude", file}}
	if got, want := g.String(), expand("L/Packages/Claude_*/LocalCache/Roaming/Claude/"+file); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	for path, want := range map[string]bool{
		expand("L/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/" + file): true,
		expand("L/Packages/Claude_/LocalCache/Roaming/Claude/" + file):              true,
		expand("L/Packages/Other_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/" + file):  false,
		expand("L/Packages/Claude_x/LocalCache/Roaming/Claude/other.json"):          false,
		expand("L/Packages/Claude_x/y/LocalCache/Roaming/Claude/" + file):           false,
		expand("L/Packages/Claude_x/../Claude_y/LocalCache/Roaming/Claude/" + file): true,
		expand("A/Claude/" + file): false,
	} {
		if got := g.Matches(path); got != want {
			t.Errorf("Matches(%s) = %v, want %v", path, got, want)
		}
	}
	// a relocation variable turns packaged candidates off (none has one today: a
	// Dest built here shows the rule)
	withEnv := &Dest{Env: "OWN_DIR", Base: AppData, Files: []string{file}, Packaged: d.Packaged}
	if globs, _ := withEnv.Globs(osEnv("windows", "OWN_DIR=R")); len(globs) != 0 {
		t.Errorf("packaged candidates %v with the relocation variable set", globs)
	}
	if globs, _ := withEnv.Globs(osEnv("windows")); len(globs) != 1 {
		t.Errorf("packaged candidates %v without the relocation variable", globs)
	}
}

// TestPointed: LM Studio's file is in the directory ~/.lmstudio-home-pointer names,
// else ~/.cache/lm-studio when it exists: providers says where to look (the caller
// reads), on every system; a destination without a pointer has none.
//
// spec: V1 V8
func TestPointed(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		pointer, fallback, ok := lookupDest(t, "lm-studio/user").Pointed(osEnv(goos))
		if !ok || pointer != expand("~/.lmstudio-home-pointer") || !slices.Equal(fallback, []string{expand("~/.cache/lm-studio")}) {
			t.Errorf("%s: %q %q %v", goos, pointer, fallback, ok)
		}
	}
	if _, _, ok := lookupDest(t, "cursor/user").Pointed(osEnv("linux")); ok {
		t.Error("cursor has no pointer file")
	}
}
