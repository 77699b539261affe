package providers

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// spec: K7
// TestStartBlockersReadEachListOnce: status asks Claude Code's and Gemini CLI's
// dialects what keeps each server from starting; with 2,000 servers and lists as
// long (disabledMcpServers, enabledMcpjsonServers, mcp.allowed, mcp.excluded) each
// list is read once, not once per server (n² comparisons for 200,000), and the
// answers are the same.
func TestStartBlockersReadEachListOnce(t *testing.T) {
	const n = 2000
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("s%d", i))
	}
	list := func(keep func(i int) bool) json.RawMessage {
		var out []string
		for i, s := range names {
			if keep(i) {
				out = append(out, s)
			}
		}
		raw, _ := json.Marshal(out)
		return raw
	}
	even, firstHalf, one := list(func(i int) bool { return i%2 == 0 }), list(func(i int) bool { return i < n/2 }), list(func(i int) bool { return i == 1 })
	reads := 0
	read := func(file string, member ...string) (json.RawMessage, bool) {
		reads++
		switch strings.Join(member, "/") {
		case "projects":
			return json.RawMessage(`{}`), true
		case "enabledMcpjsonServers", "mcp/allowed":
			return firstHalf, true
		case "disabledMcpjsonServers", "mcp/excluded":
			return one, true
		}
		if strings.HasSuffix(strings.Join(member, "/"), "/disabledMcpServers") {
			return even, true
		}
		return nil, false
	}
	home := t.TempDir()
	env := PathEnv{GOOS: runtime.GOOS, Home: home, Project: home + "/proj", Getenv: func(string) string { return "" }}
	for _, c := range []struct {
		client string
		want   map[string]string // a server, and a blocker it has
		none   string            // a server with none
	}{
		{"claude-code", map[string]string{"s0": "switched off", "s1": "disabled for this project", "s1998": "not approved", "s3": "project not trusted"}, ""},
		{"gemini-cli", map[string]string{"s1": "named in mcp.excluded", "s1999": "not in mcp.allowed"}, "s2"},
	} {
		p, _ := Get(c.client)
		reads = 0
		byPos := p.Dialect().StartBlockers(&StartState{Scope: Project, Project: env.Project,
			Path: home + "/proj/settings.json", Names: names, Read: read, Env: env})
		out := map[string][]string{}
		for i, n := range names {
			out[n] = byPos[i]
		}
		if reads > 20 {
			t.Errorf("%s: %d reads of lists for %d servers, at most 20", c.client, reads, n)
		}
		for s, want := range c.want {
			if !strings.Contains(strings.Join(out[s], "\n"), want) {
				t.Errorf("%s: %s: %q, want %q", c.client, s, out[s], want)
			}
		}
		if c.none != "" && len(out[c.none]) > 0 {
			t.Errorf("%s: %s: %q, want none", c.client, c.none, out[c.none])
		}
	}
}
