package render

import (
	"strings"

	"github.com/mcpwire/mcpwire/render/dialect"
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
