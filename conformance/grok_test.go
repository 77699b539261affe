//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Grok Build 1.0.41 (@xai-official/grok and its platform package, whose brotli-packed
// binary the install unpacks once), user scope (~/.grok/config.toml) and project scope
// (<project>/.grok/config.toml, started only in a trusted folder: `grok --trust mcp
// list` in it records the folder in ~/.grok/trusted_folders.toml, as a person who said
// yes has it; `grok --trust --version` records nothing).
// Entry shape: [mcp_servers.NAME] command, args, env | url, headers; enabled; references
// ${VAR}. Grok applies no cwd (doctor starts a server in the caller's folder) and
// connects a "type" = "sse" server with streamable HTTP (seen: `grok mcp add --transport
// sse` writes it, and doctor then fails "Cannot POST /sse" against server-everything's
// SSE transport); mcpwire refuses both, so the servers are conf without wd and legacy.
// mcpwire writes no tool filter for Grok (issue 27: disabled_mcp_tools).
//
// What Grok prints (stdout):
//
//	grok mcp list --json    [{name, command, args, env | url, headers, enabled, scope:
//	                        "user"|"project"}]: references RESOLVED to their values (the
//	                        driver compares them and never prints them); no connection
//	grok mcp doctor --json  {sources: [{path, status: {status: found|not_found,
//	                        server_count}}], servers: [{name, transport, target, source,
//	                        checks: [{label, passed, detail}], healthy}]}: every enabled
//	                        server started and its tools listed ("13 tools discovered");
//	                        a disabled one is not there; an untrusted project's: check
//	                        "folder untrusted"
//
// Grok also reads ~/.claude.json and .mcp.json (doctor lists them among its sources):
// neither exists in these scenarios.
//
// spec: Q5 V3 V4
func TestGrokBuild(t *testing.T) {
	t.Parallel()
	grokCase.run(t)
}

var grokCase = clientCase{
	provider: "grok-build", client: "grok",
	scopes: []string{"user", "project"},
	servers: func(s *scenario) []wantServer {
		return withoutFilters(without(s.confServers(), "wd", "legacy"))
	},
	files: func(s *scenario) []string {
		return []string{projectOrUser(s, ".grok/config.toml", ".grok/config.toml")}
	},
	write:    injectedAfter("conf", dropWd),
	byHand:   grokByHand,
	driver:   grokDriver,
	connects: true,
	traced:   true,
	hide:     "notes", off: "tickets",
}

// grokByHand writes the shapes Grok 1.0.41 documents and was seen to read (its bundled
// user guide, 07-mcp-servers.md).
func grokByHand(s *scenario, want []wantServer) {
	var b strings.Builder
	table := func(m map[string]string) string {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			kv = append(kv, fmt.Sprintf("%q = %q", k, m[k]))
		}
		return "{ " + strings.Join(kv, ", ") + " }"
	}
	for _, w := range want {
		fmt.Fprintf(&b, "[mcp_servers.%s]\n", w.name)
		if w.transport == "stdio" {
			args, _ := json.Marshal(w.args)
			fmt.Fprintf(&b, "command = %q\nargs = %s\n", w.command, args)
			if len(w.env) > 0 {
				fmt.Fprintf(&b, "env = %s\n", table(spelled(w.env, ref.dollar)))
			}
		} else {
			fmt.Fprintf(&b, "url = %q\n", w.url)
			if len(w.headers) > 0 {
				fmt.Fprintf(&b, "headers = %s\n", table(spelled(w.headers, ref.dollar)))
			}
		}
		if w.disabled {
			b.WriteString("enabled = false\n")
		}
		b.WriteString("\n")
	}
	writeFile(s.t, s.files[0], b.String())
}

type grokServer struct {
	Name    string            `json:"name"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Enabled *bool             `json:"enabled"`
	Scope   string            `json:"scope"`
}

type grokDoctor struct {
	Sources []struct {
		Path   string `json:"path"`
		Status struct {
			Status string `json:"status"`
		} `json:"status"`
	} `json:"sources"`
	Servers []struct {
		Name      string `json:"name"`
		Transport string `json:"transport"`
		Target    string `json:"target"`
		Checks    []struct {
			Label  string `json:"label"`
			Passed bool   `json:"passed"`
			Detail string `json:"detail"`
		} `json:"checks"`
		Healthy bool `json:"healthy"`
	} `json:"servers"`
}

// grokDriver: at project scope `grok --trust mcp list` in the project (the trust a
// person grants); `grok mcp list --json` (every server with its command, args and
// environment or URL and headers, the references resolved, enabled, scope); `grok mcp
// doctor --json` (the file found, every enabled server started with its tools listed,
// and the servers saw Grok: the stdio one's environment, the HTTP ones' Authorization).
func grokDriver(s *scenario, want []wantServer) []step {
	var steps []step
	if s.scope == "project" {
		steps = append(steps, func(c *checker) result {
			r := s.client(cl.grok, "--trust", "mcp", "list")
			if r.exit != 0 {
				c.errorf("grok --trust: exit %d", r.exit)
			}
			if _, err := os.Stat(filepath.Join(s.home, ".grok", "trusted_folders.toml")); err != nil {
				c.errorf("grok --trust recorded no trust: %v", err)
			}
			return r
		})
	}
	list := func(c *checker) result {
		r := s.client(cl.grok, "mcp", "list", "--json")
		var got []grokServer
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			c.errorf("stdout is not a JSON array of servers: %v", err)
			return r
		}
		listed := map[string]grokServer{}
		for _, g := range got {
			listed[g.Name] = g
		}
		for _, w := range want {
			g, ok := listed[w.name]
			if !ok {
				c.serverf(w.name, "not listed")
				continue
			}
			if w.transport == "stdio" {
				c.serverEqual(w.name, "command", g.Command, w.command)
				c.serverEqual(w.name, "args", g.Args, w.args)
				c.serverEqual(w.name, "env (resolved)", g.Env, resolved(w.env))
			} else {
				c.serverEqual(w.name, "url", g.URL, w.url)
				c.serverEqual(w.name, "headers (resolved)", g.Headers, resolved(w.headers))
			}
			c.serverEqual(w.name, "enabled", g.Enabled == nil || *g.Enabled, !w.disabled)
			c.serverEqual(w.name, "scope", g.Scope, s.scope)
		}
		unexpected(c, listed, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}
	doctor := func(c *checker) result {
		s.forget()
		r := s.client(cl.grok, "mcp", "doctor", "--json")
		var d grokDoctor
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
			c.errorf("stdout is not doctor's JSON: %v", err)
			return r
		}
		file := s.files[0]
		if s.scope == "user" {
			file = "~/" + filepath.ToSlash(strings.TrimPrefix(file, s.home+"/"))
		}
		found := false
		for _, src := range d.Sources {
			found = found || (src.Path == file && src.Status.Status == "found")
		}
		if !found {
			c.errorf("doctor's sources do not list %s as found", file)
		}
		checked := map[string]bool{}
		for _, g := range d.Servers {
			checked[g.Name] = true
			w, ok := findServer(want, g.Name)
			if !ok {
				continue
			}
			if w.disabled {
				c.serverf(w.name, "checked, though disabled")
				continue
			}
			c.serverEqual(w.name, "transport", g.Transport, w.transport)
			c.serverEqual(w.name, "target", g.Target, w.target())
			var failed, tools []string
			for _, ch := range g.Checks {
				if !ch.Passed {
					failed = append(failed, ch.Label+": "+ch.Detail)
				}
				if strings.HasSuffix(ch.Label, " tools discovered") {
					tools = append(tools, ch.Label)
				}
			}
			if !g.Healthy || len(failed) > 0 || len(tools) == 0 {
				c.serverf(w.name, "not healthy: failed %v, %v", failed, tools)
			}
		}
		for _, w := range want {
			if !w.disabled && !checked[w.name] {
				c.serverf(w.name, "not checked by doctor")
			}
			s.reached(c, w)
		}
		unexpected(c, checked, want)
		if r.exit != 0 {
			c.errorf("exit %d", r.exit)
		}
		return r
	}
	return append(steps, list, doctor)
}

// findServer is the wanted server of that name.
func findServer(want []wantServer, name string) (wantServer, bool) {
	i := slices.IndexFunc(want, func(w wantServer) bool { return w.name == name })
	if i < 0 {
		return wantServer{}, false
	}
	return want[i], true
}
