//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Cline CLI 3.0.65, user scope (~/.cline/data/settings/cline_mcp_settings.json; Cline has
// no project file). Entry shape (flat, what the VS Code extension reads too): {type:
// stdio, command, args, env, cwd} | {type: streamableHttp|sse, url, headers},
// "disabled"; no reference form (Cline passes ${env:VAR} and ${VAR} on literally, so
// mcpwire refuses them: the servers carry none) and no tool filter.
//
// Cline has no command that lists servers. `cline auth` points it at the loopback
// model; `cline --json PROMPT` then starts the servers and offers the model their
// tools as SERVER__TOOL. The servers are traced too (trace_test.go). Cline leaves a hub
// daemon (`cline --cline-hub-daemon`) that keeps the environment it started with and
// would start the stdio servers of a later run: it listens on CLINE_HUB_PORT (a free port
// per scenario, else the fixed 25463 every Cline on the machine shares), and is stopped
// by its PID after each run.
//
// Cline gives a stdio server 3 s to answer initialize unless its entry has "timeout"
// (seconds), which mcpwire does not write: a slower server is skipped, said only in
// ~/.cline/data/logs/cline.log (seen with a server that waits 5 s; "timeout": 30 made
// Cline wait). server-everything starts in under a second on an idle machine, in more
// than 3 s at a load average of 12, so TestCline is not parallel: it runs before the
// parallel tests resume, and a failure shows Cline's MCP log lines.
//
// spec: Q5 V3
func TestCline(t *testing.T) {
	clineCase.run(t)
}

var clineCase = clientCase{
	provider: "cline", client: "cline",
	scopes:  []string{"user"},
	servers: func(s *scenario) []wantServer { return withoutFilters(withoutRefs(s.confServers())) },
	files:   clineFiles,
	// no references: mcpwire refuses them for Cline
	write:  injectedAfter("conf-sse", dropTickets, dropNotes, dropStdioRef),
	byHand: clineByHand,
	driver: clineDriver,
	traced: true,
	hide:   "notes", off: "wd",
}

// clineFiles names the servers' file and gives the scenario its own hub port.
func clineFiles(s *scenario) []string {
	port, err := freePort()
	if err != nil {
		s.t.Fatal(err)
	}
	s.env = append(s.env, "CLINE_HUB_PORT="+strconv.Itoa(port))
	return []string{filepath.Join(s.home, ".cline", "data", "settings", "cline_mcp_settings.json")}
}

// clineByHand writes the flat shape Cline 3.0.65 was seen to read (provider-audit-turn3.md,
// Part 2; clients-wave2.md).
func clineByHand(s *scenario, want []wantServer) {
	servers := map[string]any{}
	for _, w := range want {
		e := map[string]any{"url": w.url, "type": map[string]string{"http": "streamableHttp", "sse": "sse"}[w.transport]}
		if w.transport == "stdio" {
			e = stdioEntry(w)
			e["type"] = "stdio"
		}
		if w.disabled {
			e["disabled"] = true
		}
		servers[w.name] = e
	}
	writeJSON(s.t, s.files[0], map[string]any{"mcpServers": servers})
}

// stopClineHub stops the hub daemon of the scenario by its PID, with its process group
// (the stdio servers it started). The CLI spawns the daemon when it starts and finds
// none, and runs on without it; the daemon writes its PID to
// ~/.cline/data/locks/hub/production.json only once it listens, which can be after the
// CLI exited, so it is found by its command line: its port is the scenario's own.
func stopClineHub(s *scenario) {
	var port string
	for _, e := range s.env {
		if v, ok := strings.CutPrefix(e, "CLINE_HUB_PORT="); ok {
			port = v
		}
	}
	out, err := exec.Command("ps", "-eo", "pid=,args=").Output()
	if err != nil || port == "" {
		s.t.Errorf("cannot look for Cline's hub daemon (port %q) to stop it: %v", port, err)
		return
	}
	for _, l := range strings.Split(string(out), "\n") {
		pid, args, _ := strings.Cut(strings.TrimSpace(l), " ")
		if n, err := strconv.Atoi(pid); err == nil && n > 1 && strings.Contains(args, "--cline-hub-daemon") && strings.Contains(args, "--port "+port+" ") {
			_ = syscall.Kill(-n, syscall.SIGKILL)
			_ = syscall.Kill(n, syscall.SIGKILL)
		}
	}
}

// clineDriver: `cline auth` with the loopback model, then `cline --json "say hello
// please"`: it finishes, offers the model each enabled server's tools (SERVER__TOOL),
// none of a disabled one, and every server was reached as written.
func clineDriver(s *scenario, want []wantServer) []step {
	s.t.Cleanup(func() { stopClineHub(s) })
	return []step{func(c *checker) result {
		if a := s.client(cl.cline, "auth", "-p", "openai", "-k", "conformance", "-m", modelName, "-b", s.modelURL()); a.exit != 0 || a.err != nil {
			c.errorf("cline auth: %s: %s", a.status(), strings.TrimSpace(a.stdout+a.stderr))
		}
		s.forget()
		r := s.client(cl.cline, "--json", "say hello please")
		stopClineHub(s)
		if r.exit != 0 || !strings.Contains(r.stdout, `"finishReason":"completed"`) {
			c.errorf("cline did not complete the prompt (exit %d)", r.exit)
		}
		got := map[string][]string{}
		requests := model.requests(s.name)
		if len(requests) == 0 {
			c.errorf("cline sent the model no request")
		}
		for _, tools := range requests {
			for _, t := range tools {
				if server, tool, ok := strings.Cut(t, "__"); ok {
					got[server] = append(got[server], tool)
				}
			}
		}
		checkTools(c, got, want)
		for _, w := range want {
			s.reached(c, w)
		}
		if len(c.problems) > 0 {
			for _, l := range clineMCPLog(s) {
				c.errorf("cline.log: %s", l)
			}
		}
		return r
	}}
}

// clineMCPLog are the messages of Cline's log about MCP servers ("[mcp] Failed to load
// tools from MCP server …"), where the CLI says why it skipped one.
func clineMCPLog(s *scenario) []string {
	b, err := os.ReadFile(filepath.Join(s.home, ".cline", "data", "logs", "cline.log"))
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		var e struct {
			Msg string `json:"msg"`
		}
		if json.Unmarshal([]byte(l), &e) == nil && strings.Contains(e.Msg, "[mcp]") {
			out = append(out, e.Msg)
		}
	}
	return out
}
