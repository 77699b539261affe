//go:build conformance && unix

package conformance

import (
	"path/filepath"
	"testing"
)

// The project file .mcp.json is Claude Code's, and Copilot CLI and Qoder read it too
// (spec: V10). What mcpwire writes there for Claude Code (profile conf-claude: no wd,
// the tool filters in Claude's settings instead) must also be what those two clients
// show. This also proves the seam of the Q5 drivers: injected() with a provider mcpwire
// has, run through the drivers unchanged.
//
// spec: Q5 V10
func TestSharedMCPJSON(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "claude-code", "shared", "project")
	want := without(s.confServers(), "wd")
	for i := range want {
		want[i].allow, want[i].deny = nil, nil // Claude's filters live in .claude/settings.local.json
	}
	writeJSON(t, filepath.Join(s.home, ".copilot", "config.json"), map[string]any{"trustedFolders": []string{s.proj}})
	s.files = []string{filepath.Join(s.proj, ".mcp.json"), filepath.Join(s.proj, ".claude", "settings.local.json")}
	injected("conf-claude")(s, want)

	for _, st := range copilotDriver(s, want) {
		s.check(st)
	}
	s.check(qoderDriver(s, want)[0]) // qodercli mcp list: listed and connected
	var c checker
	s.sentAuthorization(&c, authorization(want))
	s.report(result{label: "what Qoder sent to the HTTP servers"}, &c)
}
