package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// mcpwireBin is the mcpwire command testscript.Main put on PATH (this test binary,
// dispatching on its name).
func mcpwireBin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("mcpwire")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// procEnv is the environment of an mcpwire process with HOME (and everything else
// per-user) inside home.
func procEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "AIWG_"), strings.HasPrefix(k, "CLAUDE"), k == "HOME", k == "XDG_CONFIG_HOME",
			k == "TMPDIR", k == "USERPROFILE", k == "APPDATA", k == "CODEX_HOME", k == "GROK_HOME", k == "PI_CODING_AGENT_DIR", k == "GEMINI_CLI_HOME":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "USERPROFILE="+home, "APPDATA="+filepath.Join(home, "AppData", "Roaming"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "TMPDIR="+os.TempDir())
}

// writeRegistry writes a registry with the servers s01…sNN into home/.aiwg.
func writeRegistry(t *testing.T, home string, n int, profiles string) {
	t.Helper()
	servers := map[string]any{}
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("s%02d", i)
		servers[name] = map[string]any{"type": "stdio", "command": name + "-mcp", "args": []string{"--n", strconv.Itoa(i)}}
	}
	b, _ := json.MarshalIndent(map[string]any{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": servers}, "", "  ")
	layer := filepath.Join(home, ".aiwg")
	if err := os.MkdirAll(layer, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(layer, "mcp-servers.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if profiles != "" {
		if err := os.WriteFile(filepath.Join(layer, "mcp-profiles.json"), []byte(profiles), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
