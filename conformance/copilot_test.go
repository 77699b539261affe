//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// GitHub Copilot CLI 1.0.102, user scope (~/.copilot/mcp-config.json) and project scope
// (.mcp.json, read only in a folder listed in ~/.copilot/config.json "trustedFolders").
// A server is disabled by its name in ~/.copilot/settings.json "disabledMcpServers" (a
// "disabled" member of the entry is ignored). Tool filter: "tools", an allowlist
// (["*"]: every tool); a denylist has no form.
//
// What Copilot prints (stdout; neither command connects to a server):
//
//	copilot mcp list --json      {"mcpServers": {NAME: {tools, type, command, args, env, cwd |
//	                             url, headers, source: "user"|"workspace", sourcePath, enabled}}}
//	copilot mcp get NAME --json  {NAME: {the same object}}; an unknown NAME: exit 1,
//	                             `Error: Server "NAME" not found.` on stderr
//
// References are printed as written (${VAR}); missing "tools" shows as ["*"].
//
// spec: Q5 V3 V4 F3
func TestCopilotCLI(t *testing.T) {
	t.Parallel()
	copilotCase.run(t)
}

var copilotCase = clientCase{
	provider: "copilot-cli", client: "copilot",
	scopes:  []string{"user", "project"},
	servers: (*scenario).confServers,
	files:   copilotFiles,
	write:   injected("conf-sse"),
	byHand:  copilotByHand,
	driver:  copilotDriver,
	hide:    "tickets", off: "legacy",
}

// copilotFiles trusts the project (as a person who said yes would have it; mcpwire must
// keep it) and names the files: the servers' file and settings.json (disabled servers).
func copilotFiles(s *scenario) []string {
	dir := filepath.Join(s.home, ".copilot")
	writeJSON(s.t, filepath.Join(dir, "config.json"), map[string]any{"trustedFolders": []string{s.proj}})
	return []string{projectOrUser(s, ".mcp.json", filepath.Join(".copilot", "mcp-config.json")), filepath.Join(dir, "settings.json")}
}

// copilotByHand writes the shapes Copilot CLI 1.0.102 was seen to read (OBSERVED.md §1):
// "type" stdio|http|sse, ${VAR} references, "tools" the allowlist or ["*"].
func copilotByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	var off []string
	for _, w := range want {
		var e map[string]any
		if w.transport == "stdio" {
			e = stdioEntry(w)
		} else {
			e = map[string]any{"url": w.url}
			if len(w.headers) > 0 {
				e["headers"] = spelled(w.headers, ref.dollar)
			}
		}
		e["type"] = w.transport
		e["tools"] = copilotTools(w)
		servers[w.name] = e
		if w.disabled {
			off = append(off, w.name)
		}
	}
	writeJSON(s.t, s.files[0], map[string]any{"mcpServers": servers})
	writeJSON(s.t, s.files[1], map[string]any{"disabledMcpServers": off})
}

// copilotTools is Copilot's "tools" for a server: the allowlist, else every tool.
func copilotTools(w wantServer) []string {
	if w.allow != nil {
		return w.allow
	}
	return []string{"*"}
}

type copilotEntry struct {
	Tools   []string          `json:"tools"`
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Source  string            `json:"source"`
	Enabled bool              `json:"enabled"`
}

// copilotDriver: `copilot mcp list --json`, then `copilot mcp get NAME --json` for each
// server.
func copilotDriver(s *scenario, want []wantServer) []step {
	source := map[string]string{"user": "user", "project": "workspace"}[s.scope]
	compare := func(c *checker, w wantServer, e copilotEntry) {
		typ := e.Type
		if typ == "local" || typ == "" && e.Command != "" { // Copilot's other name for stdio, and its default
			typ = "stdio"
		}
		c.serverEqual(w.name, "type", typ, w.transport)
		if w.transport == "stdio" {
			c.serverEqual(w.name, "command", e.Command, w.command)
			c.serverEqual(w.name, "args", e.Args, w.args)
			c.serverEqual(w.name, "cwd", e.Cwd, w.cwd)
			c.serverEqual(w.name, "env", e.Env, spelled(w.env, ref.dollar))
		} else {
			c.serverEqual(w.name, "url", e.URL, w.url)
			c.serverEqual(w.name, "headers", e.Headers, spelled(w.headers, ref.dollar))
		}
		c.serverEqual(w.name, "tools", e.Tools, copilotTools(w))
		c.serverEqual(w.name, "source", e.Source, source)
		c.serverEqual(w.name, "enabled", e.Enabled, !w.disabled)
	}
	steps := []step{func(c *checker) result {
		r := s.client(cl.copilot, "mcp", "list", "--json")
		var got struct {
			MCPServers map[string]copilotEntry `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			c.errorf("stdout is not {\"mcpServers\": …}: %v", err)
			return r
		}
		for _, w := range want {
			if e, ok := got.MCPServers[w.name]; !ok {
				c.serverf(w.name, "not listed")
			} else {
				compare(c, w, e)
			}
		}
		unexpected(c, got.MCPServers, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}}
	for _, w := range want {
		steps = append(steps, func(c *checker) result {
			r := s.client(cl.copilot, "mcp", "get", w.name, "--json")
			var got map[string]copilotEntry
			if r.exit != 0 {
				c.serverf(w.name, "copilot mcp get: exit %d", r.exit)
			} else if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				c.serverf(w.name, "copilot mcp get: stdout is not {%q: …}: %v", w.name, err)
			} else if e, ok := got[w.name]; !ok {
				c.serverf(w.name, "copilot mcp get: no %q in %s", w.name, fmt.Sprint(slices.Sorted(maps.Keys(got))))
			} else {
				compare(c, w, e)
			}
			return r
		})
	}
	return steps
}
