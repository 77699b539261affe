package render

import (
	"strings"

	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/format"
)

// claudeServer is the permission-rule prefix of a server: mcp__ and the name with
// every character outside [A-Za-z0-9_-] replaced by "_" (F3).
func claudeServer(name string) string {
	return "mcp__" + strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// claudeRules renders deny filters as Claude Code permission rules (F3).
func claudeRules(fs *dialect.FilterSet) []string {
	var rules []string
	for _, n := range dialect.SortedKeys(fs.Servers) {
		sf := fs.Servers[n]
		srv := claudeServer(n)
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

// opencodeTools renders filters as opencode's top-level tools map (F3): for each
// allowlist server "<server>_*": false first, then the deny keys (false), then the
// allowed tools (true). A key both allowed and denied stays denied.
func opencodeTools(fs *dialect.FilterSet) format.Object {
	var wild, deny, allow format.Object
	denied := map[string]bool{}
	for _, n := range dialect.SortedKeys(fs.Servers) {
		sf := fs.Servers[n]
		if sf.Allow != nil {
			wild.Set(n+"_*", false)
			denied[n+"_*"] = true
		}
	}
	for _, n := range dialect.SortedKeys(fs.Servers) {
		sf := fs.Servers[n]
		if sf.DenyAll && !denied[n+"_*"] {
			deny.Set(n+"_*", false)
			denied[n+"_*"] = true
		}
		for _, t := range sf.Deny {
			k := n + "_" + t
			if !denied[k] {
				deny.Set(k, false)
				denied[k] = true
			}
		}
	}
	for _, n := range dialect.SortedKeys(fs.Servers) {
		for _, t := range fs.Servers[n].Allow {
			if k := n + "_" + t; !denied[k] {
				allow.Set(k, true)
			}
		}
	}
	return append(append(wild, deny...), allow...)
}
