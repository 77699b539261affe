//go:build conformance && unix

package conformance

import (
	"slices"
	"strings"
	"testing"
)

// Qoder CLI 1.1.52, user scope (~/.qoder/settings.json), project scope (.mcp.json, the
// file Claude Code and Copilot CLI read too; no approval needed for list/get) and local
// scope (<project>/.qoder/settings.local.json, Qoder's default and mcpwire's for it). Entry
// shape: {type: stdio, command, args, env, cwd} | {type: http|sse, url, headers},
// "disabled": true; references ${VAR} (and $VAR); no tool filter. Qoder writes
// $XDG_CONFIG_HOME/git/ignore and ~/.qoder/… on every run (the scratch HOME holds both).
//
// What Qoder prints (stdout, no colour; each command starts the whole CLI, 8-22 s):
//
//	qodercli mcp list       Configured MCP servers:
//	                        ✓ NAME: node /path/index.js stdio (stdio) - Connected · Direct MCP Server
//	                        ✓ NAME: URL (http|sse) - Connected · Direct MCP Server
//	                        ✗ NAME: URL (http) - Disconnected      ○ NAME: … - Disabled
//	qodercli mcp get NAME   NAME:\n  Scope: User config (…)|Project config (…)\n  Location: FILE\n
//	                        Status: ✓ Connected\n  Type: stdio|http|sse\n  Command: …\n  Args: …\n
//	                        Environment:\n    K=VALUE   or   URL: …\n  Headers:\n    H: VALUE
//
// get prints the references RESOLVED to their values (the driver compares them with the
// sentinels and never prints them: failure reports are redacted), except the env of a
// .mcp.json server, shown as written (${VAR}) though the server gets the value (seen
// with a stdio server that checks its environment). An unknown NAME: exit 0, `Server
// "NAME" not found in any settings.`
//
// spec: Q5 V3 V4
func TestQoder(t *testing.T) {
	t.Parallel()
	qoderCase.run(t)
}

var qoderCase = clientCase{
	provider: "qoder", client: "qoder",
	scopes:  []string{"user", "project", "local"},
	servers: (*scenario).confServers,
	files: func(s *scenario) []string {
		return []string{scopeFile(s, ".mcp.json", ".qoder/settings.local.json", ".qoder/settings.json")}
	},
	write:    injected("conf-sse"),
	byHand:   qoderByHand,
	driver:   qoderDriver,
	connects: true,
	hide:     "notes", off: "wd",
}

// qoderByHand writes the shapes Qoder 1.1.52 was seen to read (OBSERVED.md §6 and §1b,
// the shared .mcp.json shape).
func qoderByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		e := map[string]any{"url": w.url}
		if w.transport == "stdio" {
			e = stdioEntry(w)
		} else if len(w.headers) > 0 {
			e["headers"] = spelled(w.headers, ref.dollar)
		}
		e["type"] = w.transport
		if w.disabled {
			e["disabled"] = true
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"mcpServers": servers})
}

// qoderDriver: `qodercli mcp list` (every server with its transport and command line or
// URL, connected), then `qodercli mcp get NAME` for each server with references (scope,
// status, type, command and args or URL, and the references resolved).
func qoderDriver(s *scenario, want []wantServer) []step {
	steps := []step{func(c *checker) result {
		r := s.client(cl.qoder, "mcp", "list")
		checkMarkList(c, r.stdout, want, func(w wantServer) string {
			if w.disabled {
				return "○ Disabled"
			}
			return "✓ Connected · Direct MCP Server"
		})
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}}
	scope := map[string]string{"user": "User config", "project": "Project config", "local": "Local config"}[s.scope]
	for _, w := range want {
		if len(w.env) == 0 && len(w.headers) == 0 {
			continue
		}
		steps = append(steps, func(c *checker) result {
			r := s.client(cl.qoder, "mcp", "get", w.name)
			fields, sections := parseClaudeGet(r.stdout, w.name)
			if fields == nil {
				c.serverf(w.name, "qodercli mcp get: no %q block", w.name+":")
				return r
			}
			if !strings.HasPrefix(fields["Scope"], scope) {
				c.serverf(w.name, "Scope: %q, want %s…", fields["Scope"], scope)
			}
			c.serverEqual(w.name, "Status", fields["Status"], "✓ Connected")
			c.serverEqual(w.name, "Type", fields["Type"], w.transport)
			want := map[string][]string{}
			if w.transport == "stdio" {
				c.serverEqual(w.name, "Command", fields["Command"], w.command)
				c.serverEqual(w.name, "Args", fields["Args"], strings.Join(w.args, " "))
				env := resolved(w.env)
				if s.scope == "project" { // shown as written, though resolved when the server starts
					env = spelled(w.env, ref.dollar)
				}
				for k, v := range env {
					want["Environment"] = append(want["Environment"], k+"="+v)
				}
			} else {
				c.serverEqual(w.name, "URL", fields["URL"], w.url)
				for k, v := range resolved(w.headers) {
					want["Headers"] = append(want["Headers"], k+": "+v)
				}
			}
			for _, v := range want {
				slices.Sort(v)
			}
			c.serverEqual(w.name, "Environment and Headers (resolved)", sections, want)
			if r.exit != 0 {
				c.serverf(w.name, "qodercli mcp get: exit %d", r.exit)
			}
			return r
		})
	}
	return steps
}
