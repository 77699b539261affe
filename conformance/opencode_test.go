//go:build conformance && unix

package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// opencode 1.18.33, project scope (opencode.json), user scope
// (~/.config/opencode/opencode.json), and user scope under another XDG_CONFIG_HOME.
//
// What opencode prints (stdout, with ANSI colour codes even under NO_COLOR):
//
//	opencode mcp list     ┌  MCP Servers
//	                      ●  ✓ NAME connected            (✗ NAME failed + reason, ○ NAME disabled)
//	                      │      node /path/index.js stdio   (or the URL)
//	                      └  3 server(s)
//	opencode debug config the resolved configuration as JSON; credentials shown as "***";
//	                      the top-level "tools" map becomes "permission": {"<server>_<tool>":
//	                      "deny"|"allow"}, in file order; the last matching rule wins.
//
// spec: Q3 V1 V3 V4 R4 F3 F4
func TestOpencode(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"project", "user", "relocated"} {
		t.Run(variant, func(t *testing.T) {
			s := newScenario(t, "opencode", "opencode", variant)
			s.define()
			var file string
			switch variant {
			case "project":
				file = filepath.Join(s.proj, "opencode.json")
			case "user":
				file = filepath.Join(s.home, ".config", "opencode", "opencode.json")
			case "relocated":
				file = filepath.Join(s.relocate("XDG_CONFIG_HOME"), "opencode", "opencode.json")
			}
			s.inject("conf-sse", file)

			// opencode mcp list: every server connected, with its command line or URL.
			{
				s.check(func(c *checker) result {
					r := s.client(cl.opencode, "mcp", "list")
					want := map[string]string{
						"everything": "node " + cl.everything + " stdio",
						"tickets":    s.url("tickets"),
						"notes":      s.url("notes"),
						"legacy":     sseURL,
						"wd":         "node everything.js stdio", // connected: cwd honoured
					}
					found := map[string]bool{}
					for n, e := range parseBoxList(r.output()) {
						w, ok := want[n]
						if !ok {
							continue
						}
						found[n] = true
						if e.mark+" "+e.status != "✓ connected" {
							c.errorf("%s: %s %s, want ✓ connected", n, e.mark, e.status)
						}
						c.equal(n+" command/URL", e.detail, w)
					}
					for n := range want {
						if !found[n] {
							c.errorf("%s is not listed", n)
						}
					}
					if r.exit != 0 {
						c.errorf("exit %d", r.exit)
					}
					return r
				})
			}

			// opencode debug config: the shapes opencode parsed, and the tool filters it
			// turned into permission rules.
			{
				s.check(func(c *checker) result {
					r := s.client(cl.opencode, "debug", "config")
					var cfg opencodeConfig
					if err := json.Unmarshal([]byte(r.stdout), &cfg); err != nil {
						c.errorf("stdout is not the JSON configuration: %v", err)
					} else {
						e, t1, t2 := cfg.MCP["everything"], cfg.MCP["tickets"], cfg.MCP["notes"]
						c.equal("everything.type", e.Type, "local")
						c.equal("everything.command", e.Command, []string{"node", cl.everything, "stdio"})
						c.equal("everything.environment keys", keys(e.Environment), []string{"CONF_STDIO_TOKEN"})
						c.equal("tickets.type", t1.Type, "remote")
						c.equal("tickets.url", t1.URL, s.url("tickets"))
						c.equal("tickets.headers keys", keys(t1.Headers), []string{"Authorization"})
						c.equal("notes.type", t2.Type, "remote")
						c.equal("notes.url", t2.URL, s.url("notes"))
						c.equal("notes.headers keys", keys(t2.Headers), []string{"Authorization"})
						c.equal("legacy.type", cfg.MCP["legacy"].Type, "remote")
						c.equal("legacy.url", cfg.MCP["legacy"].URL, sseURL)
						c.equal("wd.command", cfg.MCP["wd"].Command, []string{"node", "everything.js", "stdio"})
						c.equal("wd.cwd", cfg.MCP["wd"].Cwd, s.srv)
						for n, m := range cfg.MCP {
							if m.Enabled != nil && !*m.Enabled {
								c.errorf("%s is disabled", n)
							}
						}

						rules, err := orderedRules(cfg.Permission)
						if err != nil {
							c.errorf("permission: %v", err)
						}
						// What each tool ends up as under opencode's rules (last match wins,
						// no match: allowed), for the profile's filters (F3, F4).
						for tool, want := range map[string]string{
							"everything_get-sum":        "allow",
							"everything_get-env":        "allow",
							"everything_echo":           "deny",
							"everything_get-tiny-image": "deny", // not on everything's allowlist
							"tickets_delete_ticket":     "deny",
							"tickets_list_tickets":      "allow", // tickets has no allowlist
							"notes_search":              "allow",
							"notes_delete":              "deny", // not on notes' allowlist
							"legacy_echo":               "allow",
						} {
							c.equal("permission for "+tool, evalRules(rules, tool), want)
						}
					}
					if r.exit != 0 {
						c.errorf("exit %d", r.exit)
					}
					return r
				})
			}

			var h checker
			s.sentHeaders(&h)
			s.report(result{label: "what opencode sent to the HTTP servers"}, &h)
		})
	}
}

// opencodeConfig is what `opencode debug config` and `kilo debug config` print: the
// "mcp" entries as parsed, and the permission rules.
type opencodeConfig struct {
	MCP map[string]struct {
		Type        string            `json:"type"`
		Command     []string          `json:"command"`
		URL         string            `json:"url"`
		Environment map[string]string `json:"environment"`
		Cwd         string            `json:"cwd"`
		Headers     map[string]string `json:"headers"`
		Enabled     *bool             `json:"enabled"`
	} `json:"mcp"`
	Permission json.RawMessage `json:"permission"`
}

// boxEntry is one server of `opencode mcp list` and `kilo mcp list`: its mark (✓ ✗ ○),
// status (connected, failed, disabled, …) and the first line under it (the command
// line or URL, or for a failed server the reason).
type boxEntry struct{ mark, status, detail string }

var boxStatus = regexp.MustCompile(`^[●│]?\s*(\S) (\S+) (\S+)\s*$`)

// parseBoxList reads the boxed listing of opencode and Kilo (ANSI codes stripped).
func parseBoxList(out string) map[string]boxEntry {
	lines := strings.Split(stripANSI(out), "\n")
	got := map[string]boxEntry{}
	for i, l := range lines {
		m := boxStatus.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		e := boxEntry{mark: m[1], status: m[3]}
		for _, d := range lines[i+1:] {
			if d = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(d), "│")); d != "" {
				e.detail = d
				break
			}
		}
		got[m[2]] = e
	}
	return got
}

type rule struct{ pattern, action string }

// orderedRules reads opencode's "permission" object in order; entries whose value is an
// object (per-pattern rules of built-in tools) are skipped.
func orderedRules(raw json.RawMessage) ([]rule, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("absent")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var rules []rule
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if s, ok := v.(string); ok {
			rules = append(rules, rule{k.(string), s})
		}
	}
	return rules, nil
}

// evalRules is opencode's evaluation: '*' and '?' wildcards, whole-name match, the last
// matching rule wins, and a tool no rule matches is allowed.
func evalRules(rules []rule, tool string) string {
	action := "allow"
	for _, r := range rules {
		re := "^" + strings.NewReplacer(`\*`, ".*", `\?`, ".").Replace(regexp.QuoteMeta(r.pattern)) + "$"
		if regexp.MustCompile(re).MatchString(tool) {
			action = r.action
		}
	}
	return action
}

func keys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
