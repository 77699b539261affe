package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
)

// hostileFiles are a cloned project's files and a layer whose names, commands,
// arguments, descriptions and profile descriptions hold escape sequences and
// newlines (K4).
var hostileFiles = map[string]string{
	"proj/.mcp.json": `{"mcpServers": {
		"x\n  fs  owned": {"command": "ok"},
		"\u001b[2J\u001b[Hclear": {"command": "\u001b]0;pwned\u0007", "args": ["\u009b31m", "\r\n"]},
		"up\u001b[1A\u001b[2K": {"command": "ok", "env": {"GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnopqrstuvwxyz"}}
	}}`,
	"proj/.cursor/mcp.json":                  `{"mcpServers": {"a\u202eb": {"url": "https://x.example/\u001b[8m", "headers": {"X-\u001b": "v"}}}}`,
	"proj/.continue/mcpServers/mcpwire.yaml": "name: x\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: \"y\\e[2J\"\n    command: \"\\a\"\n",
	"layer/mcp-servers.json": `{"servers": {"srv": {"command": "\u001b[2Jnpx", "args": ["-y\u001b[8m", "two\nlines"], "description": "a\u0007b\nc\u007f\u0085",
		"cwd": "/tmp/\u001b[1A", "env": {"MODE": "\u001b[31m"}, "plainEnv": ["MODE"]}}}`,
	"layer/mcp-profiles.json": `{"profiles": {"p": {"servers": ["srv"], "description": "x\u001b[2Jy\nz"}}}`,
}

// Every text output of every command that shows what a file holds is free of control
// characters but for line feeds and tabs (a file's own, in a diff): a value from a file
// can neither drive the terminal nor start a line of its own. --json output is valid
// JSON holding the values exactly. This is the proof that all output goes through
// internal/termtext: Main puts its Writer in front of both streams, and the values
// are quoted where they are printed.
//
// spec: K4
func TestNoControlCharactersFromFiles(t *testing.T) {
	root := t.TempDir()
	fixtures.WriteFiles(t, root, hostileFiles)
	proj := filepath.Join(root, "proj")
	vars := map[string]string{"AIWG_CONFIG": filepath.Join(root, "layer")}
	for _, args := range [][]string{
		{"status"}, {"status", "--json"}, {"status", "--check"},
		{"audit"}, {"audit", "--json"},
		{"import", "--from", "all", "--dry-run"}, {"import", "--from", "claude-code", "--scope", "project", "--dry-run", "--json"},
		{"import", "--from", "continue", "--scope", "project", "--dry-run"},
		{"server", "list"}, {"server", "list", "--json"}, {"server", "show", "srv"}, {"server", "show", "srv", "--json"},
		{"layers"}, {"layers", "--json"}, {"profile", "list"}, {"profile", "show", "p"},
		{"inject", "--provider", "cursor", "--scope", "user", "--servers", "srv", "--dry-run"},
		{"inject", "--provider", "continue", "--scope", "user", "--servers", "srv", "--dry-run"},
		{"inject", "--provider", "codex", "--scope", "user", "--servers", "srv", "--dry-run"},
		{"inject", "--provider", "claude-code", "--scope", "project", "--servers", "srv", "--dry-run"},
		{"inject", "--provider", "cursor", "--scope", "project", "--profile", "p", "--check"},
		{"uninject", "--provider", "cursor", "--scope", "project", "--servers", "srv", "--dry-run"},
		{"inject", "--ephemeral", "--provider", "claude-code", "--profile", "p", "--dry-run"},
		{"session", "--provider", "claude-code", "--profile", "p", "--dry-run"},
		{"install", "cursor", "--dry-run"},
	} {
		env, out, errb := testEnv(t, vars)
		env.Cwd = proj
		if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		Main(args, env)
		asJSON := args[len(args)-1] == "--json"
		for name, b := range map[string]*bytes.Buffer{"stdout": out, "stderr": errb} {
			if i := bytes.IndexFunc(b.Bytes(), func(r rune) bool {
				// a tab of a file's line in a diff moves the cursor as a tab does; the
				// exact JSON holds a right-to-left override as the file has it
				return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e && !(asJSON && name == "stdout")
			}); i >= 0 {
				t.Errorf("%q: %s holds %q: %q", args, name, b.Bytes()[i:min(i+4, b.Len())], b)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(line, "  fs  owned") || strings.HasPrefix(line, "lines") || line == "z" || line == "c" {
					t.Errorf("%q: %s has a line that a file forged: %q", args, name, line)
				}
			}
		}
		if asJSON && out.Len() > 0 && !json.Valid(out.Bytes()) {
			t.Errorf("%q: stdout is not JSON: %s", args, out)
		}
		if strings.Join(args, " ") == "server show srv --json" {
			var v struct{ Description string }
			if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.Description != "a\u0007b\nc\u007f\u0085" {
				t.Errorf("%q: description %q, want it exact (%v)", args, v.Description, err)
			}
		}
	}
}
