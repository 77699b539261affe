//go:build conformance && unix

package conformance

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Factory droid 0.225.2 (its platform package @factory/cli-linux-x64: the wrapper
// @factory/cli 0.225.1 pins platform packages the registry does not have), user scope
// (~/.factory/mcp.json) and project scope (<project>/.factory/mcp.json, read without a
// trust step). Entry shape: {type: stdio, command, args, env} | {type: http, url,
// headers} | {type: sse, url, headers}, "disabled", "disabledTools" (a denylist; no
// allowlist); references ${VAR}. mcpwire writes no cwd (droid has none), so its servers
// are conf-sse without wd, and without the allowlists; the SSE server (legacy) is
// listed as sse, connected, with its tools (issue 27: mcpwire refused SSE for Factory
// before). droid writes cache, certs, logs and telemetry under ~/.factory on every
// run (the scratch HOME holds them).
//
// What droid prints (stdout; "Connecting to configured MCP servers…" on stderr):
//
//	droid mcp list                 Configured MCP servers:
//	                                 NAME  stdio|http|sse  connected|disabled|failed: …  [user|project]
//	droid exec -m custom:MODEL     … MCP
//	       --list-tools              • NAME___TOOL ([MCP] NAME:TOOL) - status: allowed
//
// list connects to every server (so the servers see droid); --list-tools needs a model,
// a customModels entry of ~/.factory/settings.json (pointed at the loopback model, which
// it does not call), and lists each server's tools after disabledTools.
//
// spec: Q5 V3 V4 F3
func TestFactory(t *testing.T) {
	t.Parallel()
	factoryCase.run(t)
}

var factoryCase = clientCase{
	provider: "factory", client: "droid",
	scopes: []string{"user", "project"},
	servers: func(s *scenario) []wantServer {
		return withoutAllow(without(s.confServers(), "wd"))
	},
	files:    factoryFiles,
	write:    injectedAfter("conf-sse", dropWd),
	byHand:   factoryByHand,
	driver:   factoryDriver,
	connects: true,
	traced:   true,
	hide:     "tickets", off: "everything",
}

// factoryFiles names the servers' file and seeds ~/.factory/settings.json with a custom
// model on the loopback model (--list-tools needs one).
func factoryFiles(s *scenario) []string {
	settings := filepath.Join(s.home, ".factory", "settings.json")
	writeJSON(s.t, settings, map[string]any{"customModels": []any{map[string]any{
		"model": modelName, "displayName": "conformance", "baseUrl": s.modelURL(), "apiKey": "conformance",
		"provider": "generic-chat-completion-api", "maxOutputTokens": 1000}}})
	return []string{projectOrUser(s, ".factory/mcp.json", ".factory/mcp.json"), settings}
}

// withoutAllow drops every tool allowlist (for a client that has none).
func withoutAllow(ws []wantServer) []wantServer {
	out := withoutFilters(ws)
	for i := range out {
		out[i].deny = ws[i].deny
	}
	return out
}

// factoryByHand writes the shapes droid 0.225.2 was seen to read
// (provider-audit-turn3.md, Part 2).
func factoryByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		e := map[string]any{"type": w.transport, "url": w.url}
		if w.transport == "stdio" {
			e = stdioEntry(w)
			e["type"] = "stdio"
		} else if len(w.headers) > 0 {
			e["headers"] = spelled(w.headers, ref.dollar)
		}
		e["disabled"] = w.disabled
		if len(w.deny) > 0 {
			e["disabledTools"] = w.deny
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"mcpServers": servers})
}

var (
	droidListLine = regexp.MustCompile(`^(\S+)\s+(stdio|http|sse)\s+(.*?)\s+\[(\w+)\]$`)
	droidToolLine = regexp.MustCompile(`^• (\S+?)___(\S+) \(`)
)

// factoryDriver: `droid mcp list` (every server with its transport, status and scope;
// the servers must have seen droid: the stdio one's environment with the reference's
// value, the HTTP ones' Authorization), then `droid exec --list-tools` (each server's
// tools, without the denied ones; none of a disabled server).
func factoryDriver(s *scenario, want []wantServer) []step {
	list := func(c *checker) result {
		s.forget()
		r := s.client(cl.droid, "mcp", "list")
		got := map[string][]string{}
		for _, l := range strings.Split(r.stdout, "\n") {
			if m := droidListLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				got[m[1]] = m
			}
		}
		for _, w := range want {
			m, ok := got[w.name]
			if !ok {
				c.serverf(w.name, "not listed")
				continue
			}
			status := "connected"
			if w.disabled {
				status = "disabled"
			}
			c.serverEqual(w.name, "transport", m[2], w.transport)
			c.serverEqual(w.name, "status", m[3], status)
			c.serverEqual(w.name, "scope", m[4], s.scope)
			s.reached(c, w)
		}
		unexpected(c, got, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}
	tools := func(c *checker) result {
		r := s.client(cl.droid, "exec", "-m", "custom:"+modelName, "--list-tools")
		got := map[string][]string{}
		mcp := false
		for _, l := range strings.Split(r.stdout, "\n") {
			l = strings.TrimSpace(l)
			if l == "MCP" {
				mcp = true
				continue
			}
			if m := droidToolLine.FindStringSubmatch(l); mcp && m != nil {
				got[m[1]] = append(got[m[1]], m[2])
			}
		}
		if !mcp {
			c.errorf("no MCP section in the tool list")
		}
		checkTools(c, got, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}
	return []step{list, tools}
}

// checkTools checks the tools a client offers, per server: server-everything's (get-sum
// stands for them) for every enabled server, none of the denied ones, only the allowed
// ones under an allowlist, none of a disabled server, and no server that was not written.
func checkTools(c *checker, got map[string][]string, want []wantServer) {
	for _, w := range want {
		tools := got[w.name]
		if w.disabled {
			if len(tools) > 0 {
				c.serverf(w.name, "offers %d tools, though disabled", len(tools))
			}
			continue
		}
		probe := "get-sum"
		if w.allow != nil {
			probe = w.allow[0]
		}
		if !containsTool(tools, probe) {
			c.serverf(w.name, "does not offer %s (tools: %v)", probe, tools)
		}
		for _, d := range w.deny {
			if containsTool(tools, d) {
				c.serverf(w.name, "offers %s, which is denied", d)
			}
		}
		if w.allow != nil && containsTool(tools, "echo") {
			c.serverf(w.name, "offers echo, which its allowlist leaves out")
		}
	}
	unexpected(c, got, want)
}

// containsTool matches a tool name as the clients spell it: as served (get-sum), or with
// dashes made underscores (oh-my-pi's get_sum).
func containsTool(tools []string, name string) bool {
	for _, t := range tools {
		if t == name || t == strings.ReplaceAll(name, "-", "_") {
			return true
		}
	}
	return false
}
