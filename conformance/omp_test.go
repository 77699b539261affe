//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// oh-my-pi (omp) 18.2.3, run by Bun 1.4.5 (the package is TypeScript for Bun; 18.3.4 and
// 18.2.9 do not install: they pin an @oh-my-pi/omp-stats that is not published), user
// scope (~/.omp/agent/mcp.json) and project scope (<project>/.omp/mcp.json, found from
// the working directory: omp runs in the project folder here). Entry shape: {command,
// args, env, cwd} | {type: http|sse, url, headers}, "enabled"; references ${VAR}; no tool
// filter in 18.2.3: mcpwire writes newer releases' enabledTools/disabledTools (issue 27),
// which 18.2.3's loader ignores, keeping the server: every tool is offered, as want says.
//
// omp has no command that lists servers (its TUI has /mcp). The driver runs, under Bun,
// a script that calls the package's own loader and connection manager, as omp does when
// it starts: loadAllMCPConfigs(cwd) (src/mcp/config.ts) for every server with its
// source file, the references resolved, and MCPManager.discoverAndConnect (src/mcp/
// manager.ts) for each server's connection and tools (mcp__SERVER_TOOL). A disabled
// server is left out by the loader. The servers are traced too (trace_test.go).
//
// spec: Q5 V3 V4
func TestOhMyPi(t *testing.T) {
	t.Parallel()
	ompCase.run(t)
}

var ompCase = clientCase{
	provider: "omp", client: "omp",
	scopes:  []string{"user", "project"},
	servers: func(s *scenario) []wantServer { return withoutFilters(s.confServers()) },
	files: func(s *scenario) []string {
		return []string{projectOrUser(s, ".omp/mcp.json", ".omp/agent/mcp.json")}
	},
	write:    injected("conf-sse"),
	byHand:   ompByHand,
	driver:   ompDriver,
	connects: true,
	traced:   true,
	hide:     "legacy", off: "notes",
}

// ompByHand writes the shapes omp 18.2.3 documents and was seen to load
// (provider-audit-turn3.md, Part 2).
func ompByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		e := map[string]any{"type": w.transport, "url": w.url}
		if w.transport == "stdio" {
			e = stdioEntry(w)
		} else if len(w.headers) > 0 {
			e["headers"] = spelled(w.headers, ref.dollar)
		}
		if w.disabled {
			e["enabled"] = false
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"mcpServers": servers})
}

// ompScript loads and connects as omp does (argv: the package folder, the working
// directory) and prints {configs, sources, status, tools}.
const ompScript = `const [pkg, cwd] = process.argv.slice(2);
const { loadAllMCPConfigs } = await import(pkg + "/src/mcp/config.ts");
const { MCPManager } = await import(pkg + "/src/mcp/manager.ts");
const loaded = await loadAllMCPConfigs(cwd);
const names = Object.keys(loaded.configs);
const status = {};
let settled;
const all = new Promise(resolve => (settled = resolve));
const check = () => { if (names.every(n => status[n])) settled(); };
const manager = new MCPManager(cwd);
await manager.discoverAndConnect({
  onStatus: e => {
    if (e.type === "connected") status[e.serverName] = "connected";
    if (e.type === "failed") status[e.serverName] = "failed: " + e.error;
    check();
  },
});
check();
await Promise.race([all, Bun.sleep(120000)]);
const tools = manager.getTools().map(t => t.name);
console.log(JSON.stringify({ configs: loaded.configs, sources: loaded.sources, status, tools }));
process.exit(0);
`

type ompLoaded struct {
	Configs map[string]struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
		Cwd     string            `json:"cwd"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	} `json:"configs"`
	Sources map[string]struct {
		Path  string `json:"path"`
		Level string `json:"level"`
	} `json:"sources"`
	Status map[string]string `json:"status"`
	Tools  []string          `json:"tools"`
}

// ompDriver: omp's loader must return every enabled server from the file mcpwire wrote,
// with its transport, command, args, cwd and environment or URL and headers (references
// resolved), none disabled; its manager must connect each one and list its tools; and
// the servers were reached as written.
func ompDriver(s *scenario, want []wantServer) []step {
	script := filepath.Join(s.root, "omp-load.ts")
	writeFile(s.t, script, ompScript)
	return []step{func(c *checker) result {
		s.forget()
		r := s.client(cl.bun, script, cl.omp, s.proj)
		var got ompLoaded
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			c.errorf("the loader printed no JSON: %v", err)
			return r
		}
		tools := map[string][]string{}
		for _, t := range got.Tools {
			rest, ok := strings.CutPrefix(t, "mcp__")
			for _, w := range want {
				if tool, found := strings.CutPrefix(rest, w.name+"_"); ok && found {
					tools[w.name] = append(tools[w.name], tool)
				}
			}
		}
		for _, w := range want {
			e, ok := got.Configs[w.name]
			switch {
			case w.disabled && ok:
				c.serverf(w.name, "loaded, though disabled")
			case w.disabled:
			case !ok:
				c.serverf(w.name, "not loaded")
			default:
				c.serverEqual(w.name, "type", e.Type, w.transport)
				if w.transport == "stdio" {
					c.serverEqual(w.name, "command", e.Command, w.command)
					c.serverEqual(w.name, "args", e.Args, w.args)
					c.serverEqual(w.name, "cwd", e.Cwd, w.cwd)
					c.serverEqual(w.name, "env (resolved)", e.Env, resolved(w.env))
				} else {
					c.serverEqual(w.name, "url", e.URL, w.url)
					c.serverEqual(w.name, "headers (resolved)", e.Headers, resolved(w.headers))
				}
				c.serverEqual(w.name, "source", got.Sources[w.name].Path, s.files[0])
				c.serverEqual(w.name, "level", got.Sources[w.name].Level, s.scope)
				c.serverEqual(w.name, "connection", got.Status[w.name], "connected")
			}
			s.reached(c, w)
		}
		checkTools(c, tools, want)
		unexpected(c, got.Configs, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}}
}
