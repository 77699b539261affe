//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Kilo CLI 7.7.7 (an opencode fork), user scope (~/.config/kilo/kilo.json) and project
// scope (<project>/kilo.json). Shape as opencode's: "mcp" map of {type: local, command:
// [program, args…], environment, enabled} | {type: remote, url, headers, oauth,
// enabled}; references {env:VAR}; tool filters as the top-level "tools" map
// ("<server>_<tool>": false|true, globs, the last match wins). Kilo drops "cwd" (server
// wd does not start), and skips a whole project file that holds any {env:…} reference
// ("environment references are not allowed in project config", in its log only), so its
// project servers have no references. Kilo adds "$schema" to the files it reads.
//
// What Kilo prints (stdout, ANSI colours even with NO_COLOR; stderr a lone colour reset):
//
//	kilo mcp list       ┌  MCP Servers
//	                    ●  ✓ NAME connected        (✗ NAME failed + reason, ○ NAME disabled)
//	                    │      node /path/index.js stdio   (or the URL)
//	                    └  5 server(s)
//	kilo debug config   the resolved configuration as JSON: references RESOLVED to their
//	                    values (the driver compares them and never prints them); "tools"
//	                    also turned into "permission" rules, in file order
//
// Every command waited up to 16 s at exit for its telemetry to reach the closed network:
// KILO_TELEMETRY_LEVEL=off (clientEnv) turns it off; a command then takes 5-10 s.
//
// spec: Q5 V3 V4 F3 F4
func TestKilo(t *testing.T) {
	t.Parallel()
	kiloCase.run(t)
}

var kiloCase = clientCase{
	provider: "kilo", client: "kilo",
	scopes: []string{"user", "project"},
	servers: func(s *scenario) []wantServer {
		ws := without(s.confServers(), "wd")
		if s.scope == "project" {
			return withoutRefs(ws)
		}
		return ws
	},
	files: func(s *scenario) []string {
		return []string{projectOrUser(s, "kilo.json", filepath.Join(".config", "kilo", "kilo.json"))}
	},
	write:    kiloInjected,
	byHand:   kiloByHand,
	driver:   kiloDriver,
	connects: true,
	hide:     "tickets", off: "everything",
}

// kiloInjected is mcpwire's inject of conf-sse without wd (Kilo drops cwd), at project
// scope also without references (Kilo skips a project file holding one, and mcpwire
// refuses to write one there).
func kiloInjected(s *scenario, want []wantServer) {
	if s.scope == "project" {
		injectedAfter("conf-sse", dropWd, dropTickets, dropNotes, dropStdioRef)(s, want)
		return
	}
	injectedAfter("conf-sse", dropWd)(s, want)
}

// kiloByHand writes the shapes Kilo 7.7.7 was seen to read (OBSERVED.md §5), the tools
// map in the order mcpwire writes opencode's: "<server>_*": false for each allowlist
// server, then the denied tools, then the allowed ones.
func kiloByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	var wild, deny, allow []string
	for _, w := range want {
		e := map[string]any{"type": "remote", "url": w.url, "oauth": false}
		if w.transport == "stdio" {
			e = map[string]any{"type": "local", "command": append([]string{w.command}, w.args...)}
			if len(w.env) > 0 {
				e["environment"] = spelled(w.env, ref.brace)
			}
		} else if len(w.headers) > 0 {
			e["headers"] = spelled(w.headers, ref.brace)
		}
		if w.disabled {
			e["enabled"] = false
		}
		servers[w.name] = e
		if w.allow != nil {
			wild = append(wild, fmt.Sprintf("%q: false", w.name+"_*"))
		}
		for _, t := range w.deny {
			deny = append(deny, fmt.Sprintf("%q: false", w.name+"_"+t))
		}
		for _, t := range w.allow {
			allow = append(allow, fmt.Sprintf("%q: true", w.name+"_"+t))
		}
	}
	b, err := json.MarshalIndent(servers, "  ", "  ")
	if err != nil {
		s.t.Fatal(err)
	}
	tools := strings.Join(slices.Concat(wild, deny, allow), ",\n    ")
	writeFile(s.t, s.files[0], fmt.Sprintf("{\n  \"mcp\": %s,\n  \"tools\": {\n    %s\n  }\n}\n", b, tools))
}

// kiloDriver: `kilo mcp list` (every server connected, with its command line or URL) and
// `kilo debug config` (the entries as parsed, the references resolved, and the tool
// filters as opencode-style permission rules).
func kiloDriver(s *scenario, want []wantServer) []step {
	list := func(c *checker) result {
		r := s.client(cl.kilo, "mcp", "list")
		got := parseBoxList(r.stdout)
		for _, w := range want {
			e, ok := got[w.name]
			if !ok {
				c.serverf(w.name, "not listed")
				continue
			}
			status := "✓ connected"
			if w.disabled {
				status = "○ disabled"
			}
			c.serverEqual(w.name, "status", e.mark+" "+e.status, status)
			if e.mark != "✗" { // a failed server shows its reason there
				c.serverEqual(w.name, "command/URL", e.detail, w.target())
			}
		}
		unexpected(c, got, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}
	config := func(c *checker) result {
		r := s.client(cl.kilo, "debug", "config")
		var cfg opencodeConfig
		if err := json.Unmarshal([]byte(r.stdout), &cfg); err != nil {
			c.errorf("stdout is not the JSON configuration: %v", err)
			return r
		}
		rules, err := orderedRules(cfg.Permission)
		if err != nil && slices.ContainsFunc(want, func(w wantServer) bool { return w.allow != nil || w.deny != nil }) {
			c.errorf("permission: %v", err)
		}
		for _, w := range want {
			e, ok := cfg.MCP[w.name]
			if !ok {
				c.serverf(w.name, "not in the configuration")
				continue
			}
			if w.transport == "stdio" {
				c.serverEqual(w.name, "type", e.Type, "local")
				c.serverEqual(w.name, "command", e.Command, append([]string{w.command}, w.args...))
				c.serverEqual(w.name, "environment (resolved)", e.Environment, resolved(w.env))
			} else {
				c.serverEqual(w.name, "type", e.Type, "remote")
				c.serverEqual(w.name, "url", e.URL, w.url)
				c.serverEqual(w.name, "headers (resolved)", e.Headers, resolved(w.headers))
			}
			c.serverEqual(w.name, "enabled", e.Enabled == nil || *e.Enabled, !w.disabled)
			for tool, action := range toolActions(w) {
				c.serverEqual(w.name, "permission for "+tool, evalRules(rules, tool), action)
			}
		}
		unexpected(c, cfg.MCP, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}
	return []step{list, config}
}

// toolActions is what opencode-style permission rules must make of a server's tools
// ("<server>_<tool>"): each denied tool denied, each allowed one allowed, and a tool
// on neither list denied when the server has an allowlist, else allowed.
func toolActions(w wantServer) map[string]string {
	out := map[string]string{w.name + "_not-listed-tool": "allow"}
	if w.allow != nil {
		out[w.name+"_not-listed-tool"] = "deny"
	}
	for _, t := range w.allow {
		out[w.name+"_"+t] = "allow"
	}
	for _, t := range w.deny {
		out[w.name+"_"+t] = "deny"
	}
	return out
}
