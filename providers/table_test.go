package providers

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// spec: V1 V2 V3 V6 (table invariants)
func TestTableInvariants(t *testing.T) {
	seen := map[string]string{}
	for _, p := range All() {
		if p.Name == "" || p.Display == "" {
			t.Errorf("%+v: no name or display name", p)
		}
		if prev, dup := seen[p.Name]; dup {
			t.Errorf("name %q used twice (%s)", p.Name, prev)
		}
		seen[p.Name] = "provider"
		if got, ok := Get(p.Name); !ok || got != p {
			t.Errorf("Get(%q) does not return the provider", p.Name)
		}
		if p.Shape == ShapeManual {
			if p.Project != nil || p.User != nil {
				t.Errorf("%s: the manual provider has a destination", p.Name)
			}
			continue
		}
		if p.Project == nil && p.User == nil {
			t.Errorf("%s: no destination and not the manual provider", p.Name)
		}
		if p.Dest(p.DefaultScope) == nil {
			t.Errorf("%s: the default scope %q has no destination (V6)", p.Name, p.DefaultScope)
		}
		if p.Format == "" || p.ServersKey == "" || p.Refs == "" || p.Remote == "" || p.Deny == "" || p.Allow == "" {
			t.Errorf("%s: incomplete entry %+v", p.Name, p)
		}
		for _, s := range p.Scopes() {
			d := p.Dest(s)
			if len(d.Files) == 0 {
				t.Errorf("%s %s: no file names", p.Name, s)
			}
			if (s == Project) != (d.Base == ProjectDir) {
				t.Errorf("%s %s: base %s", p.Name, s, d.Base)
			}
		}
		if (p.Format == TOML) != (p.Shape == ShapeCodex || p.Shape == ShapeGrok) {
			t.Errorf("%s: format %s with shape %s", p.Name, p.Format, p.Shape)
		}
		if p.Deny == DenyClaudeSettings && (p.Settings[Project] == nil || p.Settings[User] == nil) {
			t.Errorf("%s: deny rules in settings, but no settings file per scope", p.Name)
		}
		if p.DisableWhole && p.Switch == "" {
			t.Errorf("%s: SERVER__* switches the server off, but it has no switch", p.Name)
		}
		if len(p.Sources) == 0 {
			t.Errorf("%s: no sources (V8)", p.Name)
		}
		if in := p.Install; in != nil && in.Legacy != nil && (in.Legacy.Base != ProjectDir || len(in.Legacy.Files) == 0) {
			t.Errorf("%s: the legacy file must be a project file", p.Name)
		}
	}
	for a, n := range aliases {
		if _, dup := seen[a]; dup {
			t.Errorf("alias %q is also a name or another alias", a)
		}
		seen[a] = "alias"
		if _, ok := lookup(n); !ok {
			t.Errorf("alias %q names unknown provider %q", a, n)
		}
		if got, ok := Normalize(a); !ok || got != n {
			t.Errorf("Normalize(%q) = %q, %v", a, got, ok)
		}
		if !slices.Contains(Aliases(n), a) {
			t.Errorf("Aliases(%q) lacks %q", n, a)
		}
	}
	// V2: the aliases the spec names
	for a, n := range map[string]string{"claude": "claude-code", "openai": "codex", "agy": "antigravity", "oh-my-pi": "omp",
		"factory-ai": "factory", "devin": "windsurf", "cascade": "windsurf", "code": "vscode", "copilot": "copilot-cli"} {
		if p, ok := Get(a); !ok || p.Name != n {
			t.Errorf("alias %s does not name %s", a, n)
		}
	}
	for _, bad := range []string{"", "*", "Claude", "claude-code ", "codex2"} {
		if _, ok := Get(bad); ok {
			t.Errorf("Get(%q) succeeded", bad)
		}
	}
	// V3: the core set, in order, then the others
	core := []string{"claude-code", "claude-desktop", "codex", "cursor", "windsurf", "vscode", "opencode",
		"factory", "antigravity", "warp", "omp", "grok-build", "gemini-cli"}
	if names := Names(); !slices.Equal(names[:len(core)], core) {
		t.Errorf("names %v, want the core set first: %v", names, core)
	}
	// V6: default scopes
	for _, n := range []string{"claude-code", "cursor", "vscode", "opencode", "gemini-cli", "omp", "grok-build", "antigravity"} {
		if p, _ := Get(n); p.DefaultScope != Project {
			t.Errorf("%s: default scope %s, want project", n, p.DefaultScope)
		}
	}
	for _, n := range []string{"codex", "windsurf", "factory", "warp", "claude-desktop"} {
		if p, _ := Get(n); p.DefaultScope != User {
			t.Errorf("%s: default scope %s, want user", n, p.DefaultScope)
		}
	}
}

// spec: I3 (install without a target: deprecated, and which client it picks)
func TestBareTarget(t *testing.T) {
	env := func(k, v string) func(string) string {
		return func(x string) string {
			if x == k {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		user      bool
		getenv    func(string) string
		name, why string
	}{
		{false, env("", ""), "claude-desktop", "no Claude Code environment found"},
		{true, env("", ""), "claude-code", "--scope user"},
		{false, env("CLAUDECODE", "1"), "claude-code", "CLAUDECODE is set"},
		{true, env("CLAUDE_CODE_ENTRYPOINT", "cli"), "claude-code", "CLAUDE_CODE_ENTRYPOINT is set"},
	} {
		if name, why := BareTarget(tc.user, tc.getenv); name != tc.name || why != tc.why {
			t.Errorf("BareTarget(%v) = %s, %s; want %s, %s", tc.user, name, why, tc.name, tc.why)
		}
	}
}

// spec: V1 V3 I1 (paths per scope and OS, with the variables that relocate them)
func TestDestinationPaths(t *testing.T) {
	const (
		home    = "/home/u"
		project = "/work/repo"
	)
	type env map[string]string
	tests := []struct {
		provider string
		scope    Scope
		goos     string
		env      env
		want     []string // candidates, "" = refused
		vars     []string
	}{
		// Claude Code
		{"claude-code", Project, "linux", nil, []string{project + "/.mcp.json"}, nil},
		{"claude-code", User, "linux", nil, []string{home + "/.claude.json"}, []string{"CLAUDE_CONFIG_DIR"}},
		{"claude-code", User, "darwin", env{"CLAUDE_CONFIG_DIR": "/cc"}, []string{"/cc/.claude.json"}, []string{"CLAUDE_CONFIG_DIR"}},
		// Claude Desktop: per OS, %APPDATA% with its ~/AppData/Roaming fallback
		{"claude-desktop", User, "linux", nil, []string{home + "/.config/Claude/claude_desktop_config.json"}, []string{"XDG_CONFIG_HOME"}},
		{"claude-desktop", User, "linux", env{"XDG_CONFIG_HOME": "/xdg"}, []string{"/xdg/Claude/claude_desktop_config.json"}, nil},
		{"claude-desktop", User, "darwin", env{"XDG_CONFIG_HOME": "/xdg", "APPDATA": "/ad"}, []string{home + "/Library/Application Support/Claude/claude_desktop_config.json"}, []string{}},
		{"claude-desktop", User, "windows", env{"APPDATA": "/roaming"}, []string{"/roaming/Claude/claude_desktop_config.json"}, []string{"APPDATA"}},
		{"claude-desktop", User, "windows", nil, []string{home + "/AppData/Roaming/Claude/claude_desktop_config.json"}, nil},
		// Codex and CODEX_HOME
		{"codex", User, "linux", nil, []string{home + "/.codex/config.toml"}, []string{"CODEX_HOME"}},
		{"codex", User, "windows", env{"CODEX_HOME": "/cx"}, []string{"/cx/config.toml"}, nil},
		{"codex", User, "linux", env{"CODEX_HOME": "relative"}, []string{""}, nil},
		{"codex", User, "linux", env{"CODEX_HOME": "/"}, []string{""}, nil},
		{"codex", User, "linux", env{"CODEX_HOME": "  "}, []string{home + "/.codex/config.toml"}, nil},
		// VS Code user directory per OS
		{"vscode", Project, "linux", nil, []string{project + "/.vscode/mcp.json"}, nil},
		{"vscode", User, "linux", nil, []string{home + "/.config/Code/User/mcp.json"}, []string{"XDG_CONFIG_HOME"}},
		{"vscode", User, "darwin", nil, []string{home + "/Library/Application Support/Code/User/mcp.json"}, []string{}},
		{"vscode", User, "windows", env{"APPDATA": "/roaming"}, []string{"/roaming/Code/User/mcp.json"}, []string{"APPDATA"}},
		// opencode: XDG on every OS, .json before .jsonc
		{"opencode", Project, "linux", nil, []string{project + "/opencode.json", project + "/opencode.jsonc"}, nil},
		{"opencode", User, "linux", env{"XDG_CONFIG_HOME": "/xdg"}, []string{"/xdg/opencode/opencode.json", "/xdg/opencode/opencode.jsonc"}, []string{"XDG_CONFIG_HOME"}},
		{"opencode", User, "darwin", nil, []string{home + "/.config/opencode/opencode.json", home + "/.config/opencode/opencode.jsonc"}, []string{"XDG_CONFIG_HOME"}},
		{"opencode", User, "windows", env{"XDG_CONFIG_HOME": "relative"}, []string{home + "/.config/opencode/opencode.json", home + "/.config/opencode/opencode.jsonc"}, nil},
		// the others
		{"cursor", Project, "linux", nil, []string{project + "/.cursor/mcp.json"}, nil},
		{"cursor", User, "windows", nil, []string{home + "/.cursor/mcp.json"}, []string{}},
		{"windsurf", User, "darwin", nil, []string{home + "/.codeium/windsurf/mcp_config.json"}, []string{}},
		{"factory", Project, "linux", nil, []string{project + "/.factory/mcp.json"}, nil},
		{"factory", User, "linux", nil, []string{home + "/.factory/mcp.json"}, nil},
		{"antigravity", Project, "linux", nil, []string{project + "/.agents/mcp_config.json"}, nil},
		{"antigravity", User, "linux", nil, []string{home + "/.gemini/config/mcp_config.json"}, nil},
		{"warp", User, "linux", nil, []string{home + "/.warp/.mcp.json"}, nil},
		{"omp", Project, "linux", nil, []string{project + "/.omp/mcp.json"}, nil},
		{"omp", User, "linux", nil, []string{home + "/.omp/agent/mcp.json"}, []string{"PI_CODING_AGENT_DIR"}},
		{"omp", User, "linux", env{"PI_CODING_AGENT_DIR": "/pi"}, []string{"/pi/mcp.json"}, nil},
		{"grok-build", Project, "linux", nil, []string{project + "/.grok/config.toml"}, nil},
		{"grok-build", User, "linux", nil, []string{home + "/.grok/config.toml"}, []string{"GROK_HOME"}},
		{"grok-build", User, "linux", env{"GROK_HOME": "/g"}, []string{"/g/config.toml"}, nil},
		{"gemini-cli", Project, "linux", nil, []string{project + "/.gemini/settings.json"}, nil},
		{"gemini-cli", User, "linux", nil, []string{home + "/.gemini/settings.json"}, []string{"GEMINI_CLI_HOME"}},
		{"gemini-cli", User, "linux", env{"GEMINI_CLI_HOME": "/gh"}, []string{"/gh/.gemini/settings.json"}, nil},
	}
	for _, tt := range tests {
		name := tt.provider + "/" + string(tt.scope) + "/" + tt.goos
		t.Run(name, func(t *testing.T) {
			p, ok := Get(tt.provider)
			if !ok {
				t.Fatalf("no provider %s", tt.provider)
			}
			d := p.Dest(tt.scope)
			if d == nil {
				t.Fatalf("no %s destination", tt.scope)
			}
			in := PathEnv{GOOS: tt.goos, Home: home, Project: project, Getenv: func(k string) string { return tt.env[k] }}
			got, err := d.Candidates(in)
			if tt.want[0] == "" {
				if err == nil {
					t.Fatalf("resolved to %v; want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				got[i] = filepath.ToSlash(got[i])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("candidates %v, want %v", got, tt.want)
			}
			if tt.vars != nil {
				if vars := d.Variables(tt.goos); !slices.Equal(vars, tt.vars) && !(len(vars) == 0 && len(tt.vars) == 0) {
					t.Errorf("variables %v, want %v", vars, tt.vars)
				}
			}
		})
	}
	// without a home directory or project, resolving fails instead of guessing
	p, _ := Get("codex")
	if _, err := p.User.Candidates(PathEnv{GOOS: "linux"}); err == nil || !strings.Contains(err.Error(), "HOME") {
		t.Errorf("no home: %v", err)
	}
	p, _ = Get("cursor")
	if _, err := p.Project.Candidates(PathEnv{GOOS: "linux", Home: home}); err == nil {
		t.Error("no project: resolved")
	}
}
