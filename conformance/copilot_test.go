//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
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
	Path    string            `json:"sourcePath"`
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
		r, got, ok := copilotList(s, c)
		if !ok {
			return r
		}
		for _, w := range want {
			if e, ok := got[w.name]; !ok {
				c.serverf(w.name, "not listed")
			} else {
				compare(c, w, e)
			}
		}
		unexpected(c, got, want)
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

// TestCopilotGithubMCPJSON: Copilot CLI's other project file, .github/mcp.json, which
// it reads while no .mcp.json exists; mcpwire writes it (project scope) only in that
// case, and Copilot must list what it wrote there as workspace servers.
//
// spec: Q5 V1 V10
func TestCopilotGithubMCPJSON(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "copilot-cli", "copilot", "github")
	s.scope = "project"
	want := s.confServers()
	files := copilotFiles(s)
	gh := filepath.Join(s.proj, ".github", "mcp.json")
	writeJSON(t, gh, map[string]any{"mcpServers": map[string]any{}})
	s.files = append([]string{gh}, files[1:]...)
	injected("conf-sse")(s, want)
	var c checker
	if _, err := os.Stat(filepath.Join(s.proj, ".mcp.json")); err == nil {
		c.errorf("mcpwire created .mcp.json, which hides .github/mcp.json from Copilot")
	}
	s.report(result{label: "the project's files"}, &c)
	for _, st := range copilotDriver(s, want) {
		s.check(st)
	}
	// the servers come from that file (sourcePath), not from another .mcp.json
	s.check(func(c *checker) result {
		r, got, _ := copilotList(s, c)
		for _, w := range want {
			if e, ok := got[w.name]; ok {
				c.serverEqual(w.name, "sourcePath", e.Path, gh)
			}
		}
		return r
	})
}

// copilotList runs `copilot mcp list --json` and decodes its servers; false (with the
// problem recorded) when stdout is not {"mcpServers": …}.
func copilotList(s *scenario, c *checker) (result, map[string]copilotEntry, bool) {
	r := s.client(cl.copilot, "mcp", "list", "--json")
	var got struct {
		MCPServers map[string]copilotEntry `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		c.errorf("stdout is not {\"mcpServers\": …}: %v", err)
		return r, nil, false
	}
	return r, got.MCPServers, true
}
