package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// testEnv is an Env over a temporary HOME with the given variables.
func testEnv(t *testing.T, vars map[string]string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	var stdout, stderr bytes.Buffer
	return &Env{
		Getenv: func(k string) string { return vars[k] },
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
		FS:     fsys.NewOS(),
		Home:   home,
		Cwd:    home,
	}, &stdout, &stderr
}

// layeredEnv writes three layers org:team:me under a temporary root.
func layeredEnv(t *testing.T, files map[string]string) (vars map[string]string, root string) {
	t.Helper()
	root = t.TempDir()
	fixtures.WriteFiles(t, root, files)
	dirs := []string{filepath.Join(root, "org"), filepath.Join(root, "team"), filepath.Join(root, "me")}
	for _, d := range dirs[:2] {
		if err := os.MkdirAll(d, 0o755); err != nil { // lower layers must exist (L13)
			t.Fatal(err)
		}
	}
	return map[string]string{"AIWG_CONFIG_LAYERS": strings.Join(dirs, string(filepath.ListSeparator))}, root
}

var cmdFiles = map[string]string{
	"org/mcp-servers.json": `{"credentialPolicy": "references", "servers": {
		"docs": {"command": "docs-mcp", "args": ["--token=SECRETVALUE1"], "env": {"API_KEY": "SECRETVALUE2"}},
		"web": {"url": "https://user:SECRETVALUE3@h.example/mcp", "headers": {"X-Key": "SECRETVALUE4"}, "headerEnv": {"Authorization": "TOKEN"}}
	}}`,
	"org/mcp-profiles.json": `{"profiles": {"base": {"servers": ["docs"], "providerOverrides": {"*": {"toolDeny": ["docs__drop"]}}}}}`,
	"me/mcp-profiles.json":  `{"profiles": {"mine": {"extends": ["base"], "servers": ["web"]}}}`,
}

// spec: §0 (exit codes 0/1/2, error format)
func TestExitCodes(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string // a part of stderr
	}{
		{[]string{"version"}, 0, ""},
		{[]string{"server", "list"}, 0, ""},
		// usage errors: 2
		{[]string{"bogus"}, 2, `mcpwire: error: unknown command "bogus"`},
		{[]string{"server", "bogus"}, 2, `unknown command "bogus" for "server"`},
		{[]string{"server", "add"}, 2, "needs a server NAME"},
		{[]string{"server", "add", "a", "b", "--command", "x"}, 2, "server add: extra arguments: put the command after --"},
		{[]string{"server", "add", "x", "--command", "c", "--bogus"}, 2, "bogus"},
		{[]string{"server", "add", "x", "--env", "NOEQUALS", "--command", "c"}, 2, `--env: a value is not KEY=VALUE`},
		{[]string{"server", "list", "extra"}, 2, "takes no arguments"},
		{[]string{"server", "show"}, 2, "needs a server NAME"},
		{[]string{"server", "remove", "a", "b"}, 2, "server remove takes a server NAME; extra arguments: b"},
		{[]string{"profile", "add", "p", "--provider", "nope"}, 2, "unknown provider \"nope\"\nmcpwire: hint: one of: *, claude-code"},
		{[]string{"profile", "edit", "base", "--provider", "nope", "--tool-deny", "docs__x"}, 2, `unknown provider "nope"`},
		{[]string{"profile", "show"}, 2, "needs a profile NAME"},
		{[]string{"profile", "import"}, 2, "needs a FILE"},
		{[]string{"profile", "export", "a", "b"}, 2, "too many arguments"},
		{[]string{"credential-policy", "LITERAL"}, 2, `invalid credential policy "LITERAL"`},
		{[]string{"credential-policy", "none", "extra"}, 2, "too many arguments"},
		{[]string{"layers", "x"}, 2, "takes no arguments"},
		{[]string{"version", "x"}, 2, "takes no arguments"},
		{[]string{"completion", "tcsh"}, 2, `unknown command "tcsh" for "completion"`},
		{[]string{"--config-dir"}, 2, "flag needs an argument"},
		// refusals and failures: 1
		{[]string{"server", "add", "bad!", "--command", "x"}, 1, `mcpwire: error: server "bad!": invalid server name "bad!"`},
		{[]string{"server", "add", "s", "--type", "websocket", "--url", "https://h"}, 1, `type: unknown type "websocket"`},
		{[]string{"server", "add", "s", "--type", "stdio"}, 1, `server "s": type: a stdio server needs a command`},
		{[]string{"server", "add", "s", "--url", "relative/mcp"}, 1, `server "s": url: must be an absolute http:// or https:// URL`},
		{[]string{"server", "add", "s", "--command", "c", "--env-from", "A=not-valid"}, 1, `server "s": envFrom.A: not a valid variable name`},
		{[]string{"server", "add", "s", "--url", "https://h", "--header-env", "Authorization=1TOKEN"}, 1, `headerEnv.Authorization: not a valid variable name`},
		{[]string{"server", "add", "docs", "--command", "x"}, 1, "already exists in a lower configuration layer"},
		{[]string{"server", "remove", "docs"}, 1, "is defined in a lower configuration layer"},
		{[]string{"server", "show", "nope"}, 1, `server "nope" not found`},
		{[]string{"server", "update", "docs"}, 1, "mcpwire: error: no updates provided\nmcpwire: hint: give at least one of"},
		{[]string{"profile", "add", "Bad"}, 1, `invalid profile name "Bad"`},
		{[]string{"profile", "add", "default"}, 1, "reserved"},
		{[]string{"profile", "add", "p", "--extends", "ghost"}, 1, `Profile "p" extends "ghost", which is not defined in any configuration layer.`},
		{[]string{"profile", "remove", "base"}, 1, "lower configuration layer"},
		{[]string{"profile", "import", "missing.json"}, 1, "missing.json"},
		{[]string{"credential-policy", "literal"}, 1, "cannot relax the credential policy"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			vars, root := layeredEnv(t, cmdFiles)
			env, stdout, stderr := testEnv(t, vars)
			before := fixtures.Tree(t, root)
			code := Main(tt.args, env)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if tt.code != 0 {
				if !strings.HasPrefix(stderr.String(), "mcpwire: error: ") || !strings.Contains(stderr.String(), tt.stderr) {
					t.Fatalf("stderr %q, want %q", stderr, tt.stderr)
				}
				if line := strings.SplitN(stderr.String(), "\n", 2)[0]; strings.HasSuffix(line, ".") && !strings.Contains(line, "configuration layer.") {
					t.Errorf("error ends with a period: %q", line)
				}
				if after := fixtures.Tree(t, root); !maps.Equal(before, after) {
					t.Error("a refused command changed the layer files")
				}
			}
			if tt.code == 2 && !strings.Contains(stderr.String(), "mcpwire: hint: run 'mcpwire help'") {
				t.Errorf("usage error without the usage hint: %q", stderr)
			}
		})
	}
}

// spec: §0 R8 L3 (--json: one document on stdout and nothing else there)
func TestJSONReadCommands(t *testing.T) {
	tests := []struct {
		args  []string
		check func(t *testing.T, doc any, root string)
	}{
		{[]string{"server", "list", "--json"}, func(t *testing.T, doc any, root string) {
			list := doc.([]any)
			if len(list) != 2 || list[0].(map[string]any)["layer"] != filepath.Join(root, "org/mcp-servers.json") {
				t.Errorf("%v", list)
			}
		}},
		{[]string{"server", "show", "web", "--json"}, func(t *testing.T, doc any, root string) {
			m := doc.(map[string]any)
			if m["url"] != "https://REDACTED@h.example/mcp" || m["headerKeys"].([]any)[0] != "X-Key" {
				t.Errorf("%v", m)
			}
		}},
		{[]string{"profile", "list", "--json"}, func(t *testing.T, doc any, root string) {
			if len(doc.([]any)) != 2 {
				t.Errorf("%v", doc)
			}
		}},
		{[]string{"profile", "show", "mine", "--json"}, func(t *testing.T, doc any, root string) {
			m := doc.(map[string]any)
			if m["layer"] != filepath.Join(root, "me/mcp-profiles.json") || m["name"] != "mine" {
				t.Errorf("%v", m)
			}
		}},
		{[]string{"profile", "show", "mine", "--resolved", "--json"}, func(t *testing.T, doc any, root string) {
			m := doc.(map[string]any)
			servers := m["servers"].([]any)
			if len(servers) != 2 || servers[0] != "docs" || servers[1] != "web" {
				t.Errorf("%v", m)
			}
		}},
		{[]string{"layers", "--json"}, func(t *testing.T, doc any, root string) {
			m := doc.(map[string]any)
			if m["writeLayer"] != filepath.Join(root, "me") || m["floor"].(map[string]any)["file"] != filepath.Join(root, "org/mcp-servers.json") {
				t.Errorf("%v", m)
			}
		}},
		{[]string{"credential-policy", "--json"}, func(t *testing.T, doc any, root string) {
			m := doc.(map[string]any)
			if m["policy"] != "references" || m["effective"] != "references" {
				t.Errorf("%v", m)
			}
		}},
		{[]string{"version", "--json"}, func(t *testing.T, doc any, root string) {
			if doc.(map[string]any)["version"] == "" {
				t.Errorf("%v", doc)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			vars, root := layeredEnv(t, cmdFiles)
			env, stdout, stderr := testEnv(t, vars)
			if code := Main(tt.args, env); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
			var doc any
			if err := dec.Decode(&doc); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
			}
			if dec.More() {
				t.Fatalf("more than one JSON document:\n%s", stdout)
			}
			if strings.Contains(stdout.String()+stderr.String(), "SECRETVALUE") {
				t.Fatalf("a credential value was printed:\n%s%s", stdout, stderr)
			}
			tt.check(t, doc, root)
		})
	}
}

// spec: R8
func TestOutputNeverShowsCredentials(t *testing.T) {
	for _, args := range [][]string{
		{"server", "list"}, {"server", "list", "--json"}, {"server", "show", "docs"}, {"server", "show", "docs", "--json"},
		{"server", "show", "web"}, {"server", "show", "web", "--json"}, {"layers"}, {"layers", "--json"},
		{"profile", "show", "mine", "--resolved"}, {"profile", "export"},
		{"server", "update", "web", "--description", "x"}, {"server", "update", "docs", "--env", "API_KEY=SECRETVALUE9"},
		{"server", "add", "n", "--url", "https://u:SECRETVALUE8@h/", "--header", "A=SECRETVALUE7"},
		{"server", "add", "bad!", "--url", "https://u:SECRETVALUE8@h/"},
		{"server", "add", "n", "--url", "ftp://u:SECRETVALUE8@h/"},
		{"server", "add", "n", "--command", "x", "--env", "=SECRETVALUE6"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			vars, _ := layeredEnv(t, cmdFiles)
			vars["AIWG_MCP_CREDENTIAL_POLICY"] = "literal"
			env, stdout, stderr := testEnv(t, vars)
			Main(args, env)
			if out := stdout.String() + stderr.String(); strings.Contains(out, "SECRETVALUE") {
				t.Fatalf("a credential value was printed:\n%s", out)
			}
		})
	}
}
