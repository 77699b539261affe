//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// Amp 0.0.1790142911-g7618fb, user scope (~/.config/amp/settings.json) and workspace
// scope (<project>/.amp/settings.json), both under the flat key "amp.mcpServers". Entry
// shape: stdio {command, args, env}; remote {url, headers} (+ "transport": "sse" for
// SSE); references ${VAR}; tool filter includeTools (listed, its effect not seen
// offline). Amp has no cwd (server wd does not start) and no per-entry disable (a
// "disabled" member is listed and ignored), so its servers are conf-sse without wd.
// Workspace servers are "awaiting approval" until `amp mcp approve NAME`, which stores an
// opaque hash of the entry in the user settings ("amp.mcpTrustedServers").
//
// What Amp prints (stdout):
//
//	amp mcp list --json   [{name, type: "command"|"url", source: "global"|"workspace",
//	                      spec: the entry as written}]; it does not connect (stderr: "Could
//	                      not load MCP servers from Amp account: getaddrinfo ENOTFOUND …")
//	amp mcp doctor        User settings: …\nWorkspace settings: …\n\n then progress lines
//	                      "NAME (user settings|workspace: …): connecting...|reconnecting …|
//	                      connected (13 tools: …)|error - …|awaiting approval"; the last line
//	                      of a server is its state; exit 0 even when servers fail
//
// doctor and approve need AMP_API_KEY (any value): without it they start the browser
// login and wait for a pasted code.
//
// spec: Q5 V3 V4
func TestAmp(t *testing.T) {
	t.Parallel()
	ampCase.run(t)
}

var ampCase = clientCase{
	provider: "amp", client: "amp",
	scopes: []string{"user", "project"},
	servers: func(s *scenario) []wantServer {
		// mcpwire writes no includeTools for Amp: whether Amp applies it is unconfirmed
		return withoutFilters(without(s.confServers(), "wd"))
	},
	files: func(s *scenario) []string {
		return []string{projectOrUser(s, ".amp/settings.json", ".config/amp/settings.json")}
	},
	write:    injectedAfter("conf-sse", dropWd),
	byHand:   ampByHand,
	driver:   ampDriver,
	connects: true,
	hide:     "legacy", // Amp has no per-entry disable
}

// ampByHand writes the shapes Amp was seen to read (OBSERVED.md §4).
func ampByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		e := map[string]any{"url": w.url}
		if w.transport == "stdio" {
			e = stdioEntry(w)
		}
		if len(w.headers) > 0 {
			e["headers"] = spelled(w.headers, ref.dollar)
		}
		if w.transport == "sse" {
			e["transport"] = "sse"
		}
		if w.allow != nil {
			e["includeTools"] = w.allow
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"amp.mcpServers": servers})
}

type ampServer struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Source string `json:"source"`
	Spec   struct {
		Command      string            `json:"command"`
		Args         []string          `json:"args"`
		Env          map[string]string `json:"env"`
		URL          string            `json:"url"`
		Headers      map[string]string `json:"headers"`
		Transport    string            `json:"transport"`
		IncludeTools []string          `json:"includeTools"`
	} `json:"spec"`
}

// ampList runs `amp mcp list --json`.
func ampList(s *scenario, c *checker) (result, map[string]ampServer) {
	r := s.client(cl.amp, "mcp", "list", "--json")
	var got []ampServer
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		c.errorf("stdout is not a JSON array of servers: %v", err)
		return r, nil
	}
	if r.exit != 0 {
		c.errorf("exit %d", r.exit)
	}
	out := map[string]ampServer{}
	for _, g := range got {
		out[g.Name] = g
	}
	return r, out
}

// ampDoctorLine is one progress line of `amp mcp doctor`.
var ampDoctorLine = regexp.MustCompile(`^(\S+) \(([^)]*)\): (.*)$`)

// ampDriver: at workspace scope `amp mcp approve NAME` for each workspace server listed;
// `amp mcp list --json`; `amp mcp doctor`: every server connected.
func ampDriver(s *scenario, want []wantServer) []step {
	source := map[string]string{"user": "global", "project": "workspace"}[s.scope]
	key := func(args ...string) result {
		return runProcess(s.proj, append(s.clientEnv(), "AMP_API_KEY=dummy"), clientTimeout, cl.amp, args...)
	}
	var steps []step
	if s.scope == "project" {
		steps = append(steps, func(c *checker) result {
			r, listed := ampList(s, c)
			for _, w := range want {
				if g, ok := listed[w.name]; ok && g.Source == "workspace" {
					if a := key("mcp", "approve", w.name); a.exit != 0 || a.err != nil {
						c.serverf(w.name, "amp mcp approve: %s: %s", a.status(), strings.TrimSpace(a.stdout+a.stderr))
					}
				}
			}
			return r
		})
	}
	steps = append(steps, func(c *checker) result {
		r, listed := ampList(s, c)
		for _, w := range want {
			g, ok := listed[w.name]
			if !ok {
				c.serverf(w.name, "not listed")
				continue
			}
			c.serverEqual(w.name, "source", g.Source, source)
			if w.transport == "stdio" {
				c.serverEqual(w.name, "type", g.Type, "command")
				c.serverEqual(w.name, "command", g.Spec.Command, w.command)
				c.serverEqual(w.name, "args", g.Spec.Args, w.args)
				c.serverEqual(w.name, "env", g.Spec.Env, spelled(w.env, ref.dollar))
			} else {
				c.serverEqual(w.name, "type", g.Type, "url")
				c.serverEqual(w.name, "url", g.Spec.URL, w.url)
				c.serverEqual(w.name, "headers", g.Spec.Headers, spelled(w.headers, ref.dollar))
				c.serverEqual(w.name, "SSE transport", g.Spec.Transport == "sse", w.transport == "sse")
			}
			c.serverEqual(w.name, "includeTools", g.Spec.IncludeTools, w.allow)
		}
		unexpected(c, listed, want)
		return r
	})
	return append(steps, func(c *checker) result {
		r := key("mcp", "doctor")
		state := map[string]string{}
		for _, l := range strings.Split(stripANSI(r.stdout), "\n") {
			if m := ampDoctorLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				state[m[1]] = m[3] // the last line of a server is its state
			}
		}
		for _, w := range want {
			if st, ok := state[w.name]; !ok {
				c.serverf(w.name, "amp mcp doctor does not report it")
			} else if !strings.HasPrefix(st, "connected (") {
				c.serverf(w.name, "amp mcp doctor: %q, want connected", st)
			}
		}
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	})
}
