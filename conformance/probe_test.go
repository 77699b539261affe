//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// mcpwire probe against the real server-everything: over stdio (also with a cwd),
// streamable HTTP with a header reference and a bearer reference resolved from the
// environment, and SSE. Every server must answer initialize and tools/list; filter
// patterns that match no tool are warned about, the others are not.
//
// spec: Q3 F1
func TestProbe(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "", "probe", "run")
	s.define()
	r := s.mcpwire("probe", "--profile", "conf-sse", "--json", "--timeout", "2m", "--project", s.proj)
	var got []struct {
		Server string   `json:"server"`
		Tools  []string `json:"tools"`
		Error  string   `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("probe --json: %v\n%s", err, r.stdout)
	}
	var c checker
	want := []string{"everything", "tickets", "notes", "wd", "legacy"}
	var servers []string
	for _, g := range got {
		servers = append(servers, g.Server)
		switch {
		case g.Error != "":
			c.errorf("%s: %s", g.Server, g.Error)
		case !slices.Contains(g.Tools, "echo") || !slices.Contains(g.Tools, "get-sum"):
			c.errorf("%s: tools %v, want server-everything's (echo, get-sum, …)", g.Server, g.Tools)
		}
	}
	c.equal("servers", servers, want)
	// The profile denies tickets__delete_ticket: server-everything has no such tool.
	if !strings.Contains(r.stderr, `WARNING probe: pattern "tickets__delete_ticket" matches no tool of tickets`) {
		c.errorf("no warning for the unmatched pattern tickets__delete_ticket")
	}
	for _, p := range []string{"everything__echo", "everything__get-sum", "everything__get-env"} {
		if strings.Contains(r.stderr, `"`+p+`"`) {
			c.errorf("warned about %s, which matches a tool", p)
		}
	}
	for k, v := range sentinels {
		if strings.Contains(r.stdout+r.stderr, v) {
			c.errorf("the output holds the value of %s", k)
		}
	}
	s.sentHeaders(&c)
	s.report(r, &c)
}
