package write

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// compileReg is a registry of one layer holding the policy and three servers.
func compileReg(t *testing.T, policyJSON string) *registry.Registry {
	t.Helper()
	dir := t.TempDir()
	servers := `{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {
  "docs": {"type": "stdio", "command": "npx", "args": ["-y", "docs@1"]},
  "wrapped": {"type": "stdio", "command": "cmd", "args": ["/c", "npx", "-y", "w@1"]},
  "tracker": {"type": "http", "url": "https://tracker.example/mcp"}}}`
	for name, text := range map[string]string{"mcp-servers.json": servers, "mcp-policy.json": policyJSON} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg, err := registry.Open(fsys.NewOS(), layers.Config{Dirs: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

const policyHead = `{"apiVersion": "aiwg.io/v1", "kind": "McpServerPolicy", `

// spec: G3
func TestCompileFilesPerPolicy(t *testing.T) {
	for _, tc := range []struct {
		name, policy string
		want, not    []string // Rel paths written, and not
		warn         []string // regexps each some warning matches
	}{
		{"pinned by name", `"allowUnlisted": false, "allow": [{"name": "docs"}, {"name": "tracker"}]}`,
			[]string{"linux/etc/claude-code/managed-mcp.json", "windows/Program Files/ClaudeCode/managed-mcp.json", "cline/remote-config.json"},
			[]string{"linux/etc/vscode/policy.json"},
			[]string{`^Claude Code: the policy pins its servers`}},
		{"a name the registry lacks does not pin", `"allowUnlisted": false, "allow": [{"name": "docs"}, {"name": "other"}]}`,
			[]string{"linux/etc/claude-code/managed-settings.json"},
			[]string{"linux/etc/claude-code/managed-mcp.json"}, nil},
		{"unlisted allowed does not pin", `"allowUnlisted": true, "allow": [{"name": "docs"}], "deny": [{"name": "x"}]}`,
			nil, []string{"linux/etc/claude-code/managed-mcp.json", "cline/remote-config.json"},
			[]string{`^Cline: .* allowUnlisted true its deny rules cannot be written`}},
		{"nothing admitted", `"allowUnlisted": false}`,
			[]string{"linux/etc/vscode/policy.json", "darwin/vscode.mobileconfig", "windows/vscode-policy.reg", "cline/remote-config.json"}, nil,
			[]string{`^Cline: an empty allow list restricts nothing`}},
		{"a wrapped registry command", `"allowUnlisted": false, "allow": [{"name": "wrapped"}]}`,
			[]string{"linux/etc/codex/requirements.toml"}, nil,
			[]string{`^Codex CLI: matches the program exactly: server "wrapped" is admitted as command "cmd", and spelt "npx" elsewhere it is refused$`}},
		{"exact argv", `"allowUnlisted": false, "allow": [{"command": ["npx", "-y", "docs@1"]}], "deny": [{"command": ["bad"]}]}`,
			[]string{"linux/etc/github-copilot/managed-settings.json"}, nil,
			[]string{`^Claude Code: allow rule .* admits that exact argv only`, `^GitHub Copilot CLI: deny rule .* matches that exact argv only`,
				`^Codex CLI: matches a stdio server's program exactly: .* \(docs\)$`,
				`^Codex CLI: matches a name and an identity together: allow rule \{"command":\["npx","-y","docs@1"\]\} is written as the registry's servers it admits \(docs\); the same server under another name is refused$`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, warns, err := CompilePolicy(compileReg(t, policyHead+tc.policy))
			if err != nil {
				t.Fatal(err)
			}
			have := map[string]bool{}
			for _, f := range files {
				have[f.Rel] = true
			}
			for _, w := range tc.want {
				if !have[w] {
					t.Errorf("%s not compiled; have %v", w, have)
				}
			}
			for _, w := range tc.not {
				if have[w] {
					t.Errorf("%s compiled", w)
				}
			}
			for _, re := range tc.warn {
				if !matchesAny(regexp.MustCompile(re), warns) {
					t.Errorf("no warning matches %s in %q", re, warns)
				}
			}
		})
	}
}

func matchesAny(re *regexp.Regexp, lines []string) bool {
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// spec: G3
func TestRegFileIsUTF16(t *testing.T) {
	a := &providers.AdminPolicy{Policy: "P", PolicyKey: `HKEY_LOCAL_MACHINE\K`}
	got := regFile(a, "none")
	text := "\ufeffWindows Registry Editor Version 5.00\r\n\r\n[HKEY_LOCAL_MACHINE\\K]\r\n\"P\"=\"none\"\r\n"
	var want []byte
	for _, r := range text {
		want = append(want, byte(r), byte(r>>8))
	}
	if !bytes.Equal(got, want) {
		t.Errorf("regFile = %q, want %q", got, want)
	}
}

// spec: G3
func TestProfileUUIDStable(t *testing.T) {
	u := uuidOf("x")
	if u != uuidOf("x") || u == uuidOf("y") {
		t.Errorf("uuidOf not a function of its name: %s", u)
	}
	if !regexp.MustCompile(`^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$`).MatchString(u) {
		t.Errorf("uuidOf(x) = %s, not a version 5 UUID", u)
	}
}
