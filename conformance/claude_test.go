//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Claude Code 2.1.328, project scope (.mcp.json + .claude/settings.local.json), local
// scope (~/.claude.json projects["<project>"].mcpServers + .claude/settings.local.json,
// V11), user scope (~/.claude.json + ~/.claude/settings.json), and user scope moved by
// CLAUDE_CONFIG_DIR ($CLAUDE_CONFIG_DIR/.claude.json + $CLAUDE_CONFIG_DIR/settings.json).
// Claude refuses toolAllow, so it gets the profile conf-claude (deny only).
// Claude Code starts every stdio server in its own working directory and ignores an
// entry's "cwd" (seen with 2.1.328, project and user scope), so the profile has no server
// that needs one.
//
// What Claude prints (stdout):
//
//	claude mcp list   NAME: node /path/index.js stdio - ✔ Connected
//	                  NAME: URL (HTTP) - ✔ Connected        (SSE) for type "sse"
//	                  (unapproved .mcp.json servers: "⏸ Pending approval (run `claude` to approve)";
//	                  then an "MCP config diagnostics" block for unset ${VAR}s and bad entries)
//	claude mcp get N  N:\n  Scope: …\n  Status: ✔ Connected\n  Type: stdio|http\n  Command: …\n
//	                  Args: …\n  Environment:\n    K=${VAR}   or   URL: …\n  Headers:\n    H: ${VAR}
//	claude doctor     "Invalid settings" lists settings entries it rejected, permission rules
//	                  included; the only place Claude reports on permissions.deny offline.
//
// spec: Q3 V1 V3 V4 V11 F3 C1 C2
func TestClaudeCode(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"project", "local", "user", "relocated"} {
		t.Run(variant, func(t *testing.T) {
			s := newScenario(t, "claude-code", "claude", variant)
			s.define()

			// Claude connects to project servers only in a trusted folder whose servers
			// were approved. Seed both, as a person who said yes would have them; mcpwire
			// must keep these keys.
			state := filepath.Join(s.home, ".claude.json")
			mcpFile := state
			settings := filepath.Join(s.home, ".claude", "settings.json")
			scopeText := "User config"
			switch variant {
			case "project":
				mcpFile = filepath.Join(s.proj, ".mcp.json")
				settings = filepath.Join(s.proj, ".claude", "settings.local.json")
				scopeText = "Project config"
				writeFile(t, settings, `{"enabledMcpjsonServers":["everything","tickets","notes","legacy"]}`)
			case "local":
				settings = filepath.Join(s.proj, ".claude", "settings.local.json")
				scopeText = "Local config"
			case "relocated":
				dir := s.relocate("CLAUDE_CONFIG_DIR")
				state = filepath.Join(dir, ".claude.json")
				mcpFile = state
				settings = filepath.Join(dir, "settings.json")
			}
			writeFile(t, state, fmt.Sprintf(`{"projects":{%q:{"hasTrustDialogAccepted":true}}}`, s.proj))
			s.inject("conf-claude", mcpFile, settings)

			// The deny rules Claude must accept (F3): read back from the settings file
			// mcpwire wrote, then validated by `claude doctor` below.
			wantDeny := []string{"mcp__everything__echo", "mcp__everything__toggle-*", "mcp__notes", "mcp__tickets__delete_ticket"}
			{
				var c checker
				var st struct {
					EnabledMcpjsonServers []string `json:"enabledMcpjsonServers"`
					Permissions           struct {
						Deny []string `json:"deny"`
					} `json:"permissions"`
				}
				b, _ := os.ReadFile(settings)
				if err := json.Unmarshal(b, &st); err != nil {
					c.errorf("%s: %v", settings, err)
				}
				got := slices.Sorted(slices.Values(st.Permissions.Deny))
				c.equal("permissions.deny written by mcpwire", got, wantDeny)
				if variant == "project" {
					c.equal("enabledMcpjsonServers kept by mcpwire", st.EnabledMcpjsonServers, []string{"everything", "tickets", "notes", "legacy"})
				}
				var app struct {
					Projects map[string]struct {
						HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
					} `json:"projects"`
				}
				b, _ = os.ReadFile(state)
				if err := json.Unmarshal(b, &app); err != nil {
					c.errorf("%s: %v", state, err)
				}
				c.equal("projects[project].hasTrustDialogAccepted kept in "+state, app.Projects[s.proj].HasTrustDialogAccepted, true)
				s.report(result{label: "the deny rules in " + settings + ", and the state mcpwire must keep"}, &c)
			}

			// claude mcp list
			{
				s.check(func(c *checker) result {
					r := s.client(cl.claude, "mcp", "list")
					out := r.output()
					lines := map[string]string{}
					for _, l := range strings.Split(out, "\n") {
						for _, n := range []string{"everything", "tickets", "notes", "legacy"} {
							if strings.HasPrefix(l, n+": ") {
								lines[n] = strings.TrimPrefix(l, n+": ")
							}
						}
					}
					want := map[string]string{
						"everything": "node " + cl.everything + " stdio - ✔ Connected",
						"tickets":    s.url("tickets") + " (HTTP) - ✔ Connected",
						"notes":      s.url("notes") + " (HTTP) - ✔ Connected",
						"legacy":     sseURL + " (SSE) - ✔ Connected",
					}
					for n, w := range want {
						if got, ok := lines[n]; !ok {
							c.errorf("%s is not listed", n)
						} else if got != w {
							c.errorf("%s: listed as %q, want %q", n, got, w)
						}
					}
					if strings.Contains(out, "diagnostics") {
						c.errorf("Claude reports MCP config diagnostics (a reference it cannot resolve, or an entry it skipped)")
					}
					if r.exit != 0 {
						c.errorf("exit %d", r.exit)
					}
					return r
				})
			}

			// claude mcp get NAME
			type want struct {
				fields   map[string]string
				sections map[string][]string
			}
			wants := map[string]want{
				"everything": {fields: map[string]string{"Type": "stdio", "Command": "node", "Args": cl.everything + " stdio"},
					sections: map[string][]string{"Environment": {"CONF_STDIO_TOKEN=${CONF_STDIO_TOKEN}"}}},
				"tickets": {fields: map[string]string{"Type": "http", "URL": s.url("tickets")},
					sections: map[string][]string{"Headers": {"Authorization: ${CONF_TICKETS_TOKEN}"}}},
				"notes": {fields: map[string]string{"Type": "http", "URL": s.url("notes")},
					sections: map[string][]string{"Headers": {"Authorization: Bearer ${CONF_NOTES_TOKEN}"}}},
				"legacy": {fields: map[string]string{"Type": "sse", "URL": sseURL}},
			}
			for _, name := range []string{"everything", "tickets", "notes", "legacy"} {
				w := wants[name]
				s.check(func(c *checker) result {
					r := s.client(cl.claude, "mcp", "get", name)
					fields, sections := parseClaudeGet(r.stdout, name)
					if fields == nil {
						c.errorf("no %q block in the output", name+":")
					} else {
						if !strings.HasPrefix(fields["Scope"], scopeText) {
							c.errorf("Scope: %q, want %s…", fields["Scope"], scopeText)
						}
						c.equal("Status", fields["Status"], "✔ Connected")
						for k, v := range w.fields {
							c.equal(k, fields[k], v)
						}
						for k, v := range w.sections {
							c.equal(k, sections[k], v)
						}
						for k := range sections {
							if _, ok := w.sections[k]; !ok {
								c.errorf("unexpected section %s: %v", k, sections[k])
							}
						}
					}
					if r.exit != 0 {
						c.errorf("exit %d", r.exit)
					}
					return r
				})
			}

			// claude doctor: Claude's own validation of every settings file, the deny
			// rules mcpwire added included.
			{
				s.check(func(c *checker) result {
					r := s.client(cl.claude, "doctor")
					if strings.Contains(r.output(), "Invalid settings") {
						c.errorf("Claude reports invalid settings")
					}
					if !strings.Contains(r.output(), "Claude Code doctor") {
						c.errorf("no doctor report")
					}
					return r
				})
			}

			var c checker
			s.sentHeaders(&c)
			s.report(result{label: "what Claude Code sent to the HTTP servers"}, &c)
		})
	}
}

var claudeField = regexp.MustCompile(`^  ([A-Za-z][A-Za-z ]*):(?: (.*))?$`)

// parseClaudeGet reads the block of `claude mcp get NAME`: two-space "Key: value" lines,
// and sections ("Environment:", "Headers:") whose entries are indented by four.
func parseClaudeGet(out, name string) (fields map[string]string, sections map[string][]string) {
	lines := strings.Split(out, "\n")
	start := slices.Index(lines, name+":")
	if start < 0 {
		return nil, nil
	}
	fields, sections = map[string]string{}, map[string][]string{}
	section := ""
	for _, l := range lines[start+1:] {
		if l == "" {
			break
		}
		if strings.HasPrefix(l, "    ") && section != "" {
			sections[section] = append(sections[section], strings.TrimSpace(l))
			continue
		}
		m := claudeField.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[2] == "" {
			section = m[1]
			continue
		}
		section = ""
		fields[m[1]] = m[2]
	}
	return fields, sections
}
