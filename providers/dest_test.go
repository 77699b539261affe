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

// TestDestinationsPerOS resolves the providers' files on Linux, macOS and Windows
// with each variable that moves them: the home directory, XDG_CONFIG_HOME, ~/Library/Application Support, %APPDATA% with
// its ~/AppData/Roaming fallback, and the clients' own CLAUDE_CONFIG_DIR,
// CODEX_HOME, GEMINI_CLI_HOME, GROK_HOME, PI_CODING_AGENT_DIR, VSCODE_APPDATA,
// KIMI_CODE_HOME, CRUSH_GLOBAL_CONFIG, Zed's FLATPAK_XDG_CONFIG_HOME (Linux only) and
// Cline's three (a file, then two directories, in that order). Visual Studio's user
// file resolves on Windows only; Zed's differs per system.
// The rules are pure data, so every OS is resolved whatever machine runs the test.
// Where every client's files are with nothing set is pinned in its golden
// (render/testdata/golden/<client>/, "destinations"), beside what it writes.
//
// spec: V1 V3 V6 V8 I1
func TestDestinationsPerOS(t *testing.T) {
	for _, c := range relocated {
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
