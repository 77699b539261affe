package providers

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
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
		if p.Manual() {
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
		if p.Format == "" || p.ServersKey == "" || p.Refs.Style == "" || p.Remote == "" || p.Deny == "" || p.Allow == "" {
			t.Errorf("%s: incomplete entry %+v", p.Name, p)
		}
		for _, s := range p.Scopes() {
			d := p.Dest(s)
			if len(d.Files) == 0 {
				t.Errorf("%s %s: no file names", p.Name, s)
			}
			switch {
			case s == Project && d.Base != ProjectDir, s == User && d.Base == ProjectDir:
				t.Errorf("%s %s: base %s", p.Name, s, d.Base)
			case d.Nested() && d.Base == ProjectDir:
				t.Errorf("%s %s: a project file keyed by the project", p.Name, s)
			}
		}
		if p.NoEphemeral != "" && p.Ephemeral {
			t.Errorf("%s: a reason why standalone files do not work, and Ephemeral", p.Name)
		}
		if p.EntryName != "" && p.Format != format.TOML && p.Format != format.YAML {
			t.Errorf("%s: a list of servers in a %s file", p.Name, p.Format)
		}
		if p.Dialect().DenyRules() != nil && (p.Settings[Project] == nil || p.Settings[User] == nil) {
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
		if !slices.IsSorted(p.Aliases) {
			t.Errorf("%s: aliases %v not sorted", p.Name, p.Aliases)
		}
	}
	for _, p := range All() {
		for _, a := range p.Aliases {
			if _, dup := seen[a]; dup {
				t.Errorf("alias %q is also a name or another alias", a)
			}
			seen[a] = "alias"
			if got, ok := Normalize(a); !ok || got != p.Name {
				t.Errorf("Normalize(%q) = %q, %v", a, got, ok)
			}
		}
	}
	// V1: the list is in display order, each place once
	for i, p := range All() {
		if i > 0 && All()[i-1].Order >= p.Order {
			t.Errorf("%s: order %d, not after %s's %d", p.Name, p.Order, All()[i-1].Name, All()[i-1].Order)
		}
	}
	// V2: the aliases the spec names
	for a, n := range map[string]string{"claude": "claude-code", "openai": "codex", "agy": "antigravity", "oh-my-pi": "omp",
		"factory-ai": "factory", "cascade": "windsurf", "code": "vscode", "copilot": "copilot-cli",
		"cn": "continue-cli", "vibe": "mistral-vibe", "mistral": "mistral-vibe",
		"qwen": "qwen-code", "augment": "auggie", "kilocode": "kilo", "kilo-code": "kilo", "qodercli": "qoder", "qoder-cli": "qoder"} {
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
	for _, n := range []string{"codex", "windsurf", "factory", "warp", "claude-desktop", "copilot-cli", "qwen-code", "auggie", "amp", "kilo"} {
		if p, _ := Get(n); p.DefaultScope != User {
			t.Errorf("%s: default scope %s, want user", n, p.DefaultScope)
		}
	}
	// V6: Qoder's and Devin's own `mcp add` write their local file by default, and so
	// does mcpwire
	for _, n := range []string{"qoder", "devin"} {
		if p, _ := Get(n); p.DefaultScope != Local {
			t.Errorf("%s: default scope %s, want local", n, p.DefaultScope)
		}
	}
	// issue 27: devin is Devin Local, its own client, no longer an alias of windsurf
	if p, ok := Get("devin"); !ok || p.Name != "devin" {
		t.Errorf("devin names %v, want the provider devin", p)
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

// TestSourcesOfLocations: a location a client's file moves to is sourced: a packaged
// (Microsoft Store, MSIX) directory by a source naming MSIX, and VS Code's user
// directory, wherever a client relies on it (VSCODE_APPDATA), by VS Code's own code.
//
// spec: V8
func TestSourcesOfLocations(t *testing.T) {
	for _, p := range All() {
		src := strings.Join(p.Sources, "\n")
		for _, d := range p.dests() {
			if len(d.Packaged) > 0 && !strings.Contains(src, "MSIX") {
				t.Errorf("%s: a packaged (MSIX) location without a source naming it", p.Name)
			}
			if d.Env == "VSCODE_APPDATA" && !strings.Contains(src, "src/vs/platform/environment/node/userDataPath.js (VSCODE_APPDATA") {
				t.Errorf("%s: relocated by VSCODE_APPDATA without VS Code's userDataPath.js among its sources", p.Name)
			}
		}
	}
}
