package dialect

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// claude is Claude Code's mcpServers entry: {command, args, env} for stdio and
// {type, url, headers} for remote servers (the type kept). Its tool filters are not in
// the entries: deny filters become permission rules (mcp__SERVER__TOOL) in a Claude
// settings file (C2), and a toolAllow is refused, since Claude Code has no
// restrict-only allowlist (F3). A standalone file is loaded with --mcp-config and,
// with --strict-mcp-config, alone (C5).
type claude struct{ p *providers.Provider }

func newClaude(p *providers.Provider) Dialect { return claude{p} }

// Entry writes a remote server's secret headers as the headersHelper command (S2),
// which Claude Code runs through a shell and whose JSON output it sends as headers.
func (d claude) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := typedEntry(d.p, s, v, sf)
	if v.HeadersHelper != "" {
		e.Set(claudeHeadersHelper, v.HeadersHelper)
	}
	return e
}

// claudeHeadersHelper is the member of a command that prints a remote server's headers.
const claudeHeadersHelper = "headersHelper"

// claudeOwn are Claude Code's members with no registry equivalent (a headersHelper
// that runs mcpwire headers has one: the secrets it names).
var claudeOwn = []string{"timeout", claudeHeadersHelper, "alwaysLoad", "oauth"}

// Read reads an entry back: type, launch members, and the secrets of a headersHelper
// that runs mcpwire headers. Its filters are deny rules in a settings file, not in the
// entry (ReadRules).
func (d claude) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	var helper string
	if raw, ok := r.get(claudeHeadersHelper); ok && json.Unmarshal(raw, &helper) == nil && s.URL != "" && ReadHeadersHelper(helper, s) {
		r.use(claudeHeadersHelper)
	}
	return r.done(s, nil, claudeOwn...)
}

func (claude) Filters() FilterSpec { return FilterSpec{Deny: true, AllowRefused: true, DenyAll: true} }

// rulePrefix is the permission-rule prefix of a server: mcp__ and the name with every
// character outside [A-Za-z0-9_-] replaced by "_" (F3).
func rulePrefix(name string) string {
	return "mcp__" + strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// DenyRules renders deny filters as permission rules: mcp__SERVER for a whole-server
// deny, mcp__SERVER__TOOL otherwise (F3).
func (claude) DenyRules(fs *FilterSet) []string {
	var rules []string
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		sf := fs.Servers[n]
		srv := rulePrefix(n)
		if sf.DenyAll {
			rules = append(rules, srv)
			continue
		}
		for _, t := range sf.Deny {
			rules = append(rules, srv+"__"+t)
		}
	}
	return rules
}

// Owns reports whether a permission rule is a server's.
func (claude) Owns(rule, server string) bool {
	prefix := rulePrefix(server)
	return rule == prefix || strings.HasPrefix(rule, prefix+"__")
}

// ReadRules reads deny rules back as filters (the inverse of DenyRules), for the
// servers named: mcp__SERVER is a whole-server deny, mcp__SERVER__TOOL a tool's. A
// rule belongs to the server with the longest prefix it matches; others are left.
func (claude) ReadRules(rules, servers []string) map[string]*ServerFilters {
	byPrefix := make(map[string]string, len(servers)) // the first server of each prefix
	for _, s := range servers {
		if p := rulePrefix(s); byPrefix[p] == "" {
			byPrefix[p] = s
		}
	}
	out := map[string]*ServerFilters{}
	for _, rule := range rules {
		// the longest server prefix the rule is, or starts with before "__TOOL": the
		// rule whole, then up to each "__" from the last (K7: every rule looked up,
		// not compared with every server)
		s, tool := byPrefix[rule], ""
		for k := len(rule) - 3; s == "" && k > 0; k-- {
			if rule[k] == '_' && rule[k+1] == '_' {
				s, tool = byPrefix[rule[:k]], rule[k+2:]
			}
		}
		if s == "" {
			continue
		}
		if out[s] == nil {
			out[s] = &ServerFilters{}
		}
		if tool == "" || tool == "*" {
			out[s].DenyAll = true
		} else {
			out[s].Deny = AppendNew(out[s].Deny, []string{tool})
		}
	}
	return out
}

// Launch loads exactly the standalone file (--strict-mcp-config comes last, which
// also ends --mcp-config's list of files before any argument of the person's), with
// the deny-rule sidecar as settings when there is one.
func (d claude) Launch(out, settings string) Launch {
	args := []string{"--mcp-config", out}
	if settings != "" {
		args = append(args, "--settings", settings)
	}
	return Launch{Binary: d.p.Binary, Args: append(args, "--strict-mcp-config"), Exact: true}
}
