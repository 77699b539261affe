//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"testing"
)

// auggie (Augment CLI) 0.36.0, user scope (~/.augment/settings.json), project scope
// (<project>/.augment/settings.json) and local scope (<project>/.augment/settings.local.json). It also merges the machine's managed file
// /etc/augment/settings.json, which no variable moves: the driver fails when it exists.
// Entry shape: {type: stdio|http|sse, command, args, env | url, headers, disabled}; one
// entry it rejects (type "streamable-http" or "local", args a string, …) drops every
// server of that file, silently. It has no cwd and no tool filter, and sends header
// references unresolved, so its servers are profile conf-sse without wd and without
// header references.
//
// What auggie prints (stdout; two warnings on stderr, "Could not fetch tenant/user MCP
// server configurations"; the command does not connect):
//
//	auggie mcp list --json   {"servers": [{name, transport: stdio|http|sse, command (command
//	                         and args joined by spaces) | url, enabled, source}]}
//
// "source" is "user" for project servers too, and no env or headers are shown.
//
// spec: Q5 V3
func TestAuggie(t *testing.T) {
	t.Parallel()
	auggieCase.run(t)
}

var auggieCase = clientCase{
	provider: "auggie", client: "auggie",
	scopes: []string{"user", "project", "local"},
	servers: func(s *scenario) []wantServer {
		return withoutHeaders(without(s.confServers(), "wd"))
	},
	files: func(s *scenario) []string {
		return []string{scopeFile(s, ".augment/settings.json", ".augment/settings.local.json", ".augment/settings.json")}
	},
	// auggie sends headers as written: mcpwire refuses header references for it
	write:  injectedAfter("conf-sse", dropWd, dropTickets, dropNotes),
	byHand: auggieByHand,
	driver: auggieDriver,
	hide:   "everything", off: "legacy",
}

// auggieByHand writes the shapes auggie 0.36.0 was seen to read (OBSERVED.md §3).
func auggieByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		e := map[string]any{"url": w.url}
		if w.transport == "stdio" {
			e = stdioEntry(w)
		}
		e["type"] = w.transport
		if w.disabled {
			e["disabled"] = true
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"mcpServers": servers})
}

// auggieDriver: /etc/augment/settings.json must not exist, then `auggie mcp list --json`.
func auggieDriver(s *scenario, want []wantServer) []step {
	return []step{func(c *checker) result {
		if !absent(c, "/etc/augment/settings.json", "auggie") {
			return result{label: "auggie's managed settings file"}
		}
		r := s.client(cl.auggie, "mcp", "list", "--json")
		var got struct {
			Servers []struct {
				Name      string `json:"name"`
				Transport string `json:"transport"`
				Command   string `json:"command"`
				URL       string `json:"url"`
				Enabled   bool   `json:"enabled"`
			} `json:"servers"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			c.errorf("stdout is not {\"servers\": […]}: %v", err)
			return r
		}
		listed := map[string]bool{}
		for _, g := range got.Servers {
			listed[g.Name] = true
			for _, w := range want {
				if w.name != g.Name {
					continue
				}
				c.serverEqual(w.name, "transport", g.Transport, w.transport)
				if w.transport == "stdio" {
					c.serverEqual(w.name, "command", g.Command, w.commandLine())
				} else {
					c.serverEqual(w.name, "url", g.URL, w.url)
				}
				c.serverEqual(w.name, "enabled", g.Enabled, !w.disabled)
			}
		}
		for _, w := range want {
			if !listed[w.name] {
				c.serverf(w.name, "not listed")
			}
		}
		unexpected(c, listed, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}}
}
