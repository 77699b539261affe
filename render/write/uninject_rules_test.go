package write

import (
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// spec: L14 B7 — uninjecting a server keeps a deny rule that a server staying in the
// file answers to as well: "my.server" and "my_server" share mcp__my_server, and a
// file written before the clash was refused may hold both.
func TestWithoutServersKeepsRulesOfStaying(t *testing.T) {
	p, _ := providers.Get("claude-code")
	dr := p.Dialect().DenyRules()
	rules := []string{"mcp__my_server__drop_*", "mcp__web__fetch"}
	got := withoutServers(dr, rules, []string{"my_server", "web"}, []string{"my.server"})
	if want := []string{"mcp__my_server__drop_*"}; !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	if got := withoutServers(dr, rules, []string{"my_server"}, nil); !slices.Equal(got, []string{"mcp__web__fetch"}) {
		t.Errorf("kept %q with nothing staying", got)
	}
}
