//go:build conformance && unix

package conformance

import (
	"testing"
)

// Qwen Code 0.24.4 (the newest release; its package asks for Node 22, npm warns
// EBADENGINE, and these commands run on Node 20), user scope (~/.qwen/settings.json)
// and project scope (<project>/.qwen/settings.json, read from the project folder itself,
// not from a subfolder). Project servers wait for approval ("Pending approval", not
// connected) until `qwen mcp approve`, which binds the approval to the entry's hash in
// ~/.qwen/mcpApprovals.json. Entry shape: stdio {command, args, env, cwd}; streamable
// HTTP {httpUrl, headers}; SSE {url, headers} (a "type" member is ignored: "url" is
// always SSE); filters includeTools/excludeTools. "$version": 4 keeps Qwen from
// rewriting the file.
//
// What Qwen prints (stdout, ANSI colours even with NO_COLOR; it connects to every server,
// one after another, 5 s timeout each):
//
//	qwen mcp list   Configured MCP servers:
//	                ✓ NAME: node /path/index.js stdio (stdio) - Connected
//	                ✓ NAME: URL (http) - Connected           (✗ … - Disconnected)
//	                ● NAME: URL (sse) - Pending approval      (a project server not approved)
//
// There is no `get` and no --json; the list shows neither env, headers, filters nor
// disabled state, so the references are proven by what the HTTP servers received.
//
// spec: Q5 V3 V4
func TestQwenCode(t *testing.T) {
	t.Parallel()
	qwenCase.run(t)
}

var qwenCase = clientCase{
	provider: "qwen-code", client: "qwen",
	scopes:  []string{"user", "project"},
	servers: (*scenario).confServers,
	files: func(s *scenario) []string {
		return []string{projectOrUser(s, ".qwen/settings.json", ".qwen/settings.json")}
	},
	write:    injected("conf-sse"),
	byHand:   qwenByHand,
	driver:   qwenDriver,
	connects: true,
	hide:     "notes", // Qwen shows no disabled state
}

// qwenByHand writes the shapes Qwen Code 0.24.4 was seen to read (OBSERVED.md §2).
func qwenByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		var e map[string]any
		switch w.transport {
		case "stdio":
			e = stdioEntry(w)
		case "http":
			e = map[string]any{"httpUrl": w.url}
		default:
			e = map[string]any{"url": w.url}
		}
		if len(w.headers) > 0 {
			e["headers"] = spelled(w.headers, ref.dollar)
		}
		if w.allow != nil {
			e["includeTools"] = w.allow
		}
		if w.deny != nil {
			e["excludeTools"] = w.deny
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"$version": 4, "mcpServers": servers})
}

// qwenDriver: at project scope `qwen mcp approve --all` (what a person who says yes does),
// then `qwen mcp list`: every server listed with its transport and command line or URL,
// and connected.
func qwenDriver(s *scenario, want []wantServer) []step {
	var steps []step
	if s.scope == "project" {
		steps = append(steps, func(c *checker) result {
			r := s.client(cl.qwen, "mcp", "approve", "--all")
			if r.exit != 0 {
				c.errorf("qwen mcp approve --all: exit %d", r.exit)
			}
			return r
		})
	}
	return append(steps, func(c *checker) result {
		r := s.client(cl.qwen, "mcp", "list")
		checkMarkList(c, stripANSI(r.stdout), want, func(wantServer) string { return "✓ Connected" })
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	})
}
