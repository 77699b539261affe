package render

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// serverFilters are the tool filters of one injected server for one provider.
type serverFilters struct {
	// Deny holds tool names or globs (never "*": that is DenyAll).
	Deny []string
	// DenyAll is a whole-server deny (SERVER__*).
	DenyAll bool
	// Allow is the allowlist; nil means the server is not in allowlist mode (F4).
	Allow []string
	// AllowPatterns are the original allow patterns, for messages.
	AllowPatterns []string
}

// filterSet is the effective filters of one injection: per server, plus warnings.
type filterSet struct {
	servers  map[string]*serverFilters
	warnings []string
}

func (f *filterSet) of(server string) *serverFilters { return f.servers[server] }

func (f *filterSet) warn(format string, args ...any) {
	f.warnings = append(f.warnings, fmt.Sprintf(format, args...))
}

// allowPatterns lists every allow pattern that applies.
func (f *filterSet) allowPatterns() []string {
	var out []string
	for _, n := range sortedKeys(f.servers) {
		out = append(out, f.servers[n].AllowPatterns...)
	}
	return out
}

// effectiveFilters merges key "*" and the provider's key (F2) and assigns each
// pattern to an injected server (F1). Patterns without "__" or with a glob in the
// server part are warned about and ignored; patterns for other servers are ignored.
func effectiveFilters(filters map[string]*registry.Filters, provider string, injected []string) *filterSet {
	fs := &filterSet{servers: map[string]*serverFilters{}}
	var deny, allow []string
	for _, key := range []string{registry.AllProviders, provider} {
		if f := filters[key]; f != nil {
			deny = appendNew(deny, f.ToolDeny)
			allow = appendNew(allow, f.ToolAllow)
		}
	}
	// longest names first, so "a__b__tool" matches server "a__b" before "a"
	names := slices.Clone(injected)
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	split := func(pattern string) (server, tool string, ok bool) {
		for _, n := range names {
			if rest, found := strings.CutPrefix(pattern, n+"__"); found && rest != "" {
				return n, rest, true
			}
		}
		s, _, has := strings.Cut(pattern, "__")
		if !has || s == "" {
			fs.warn("tool pattern %q is not SERVER__TOOL; ignored", pattern)
		} else if strings.ContainsAny(s, "*?[") {
			fs.warn("tool pattern %q has a glob in the server part; ignored", pattern)
		}
		return "", "", false
	}
	get := func(s string) *serverFilters {
		if fs.servers[s] == nil {
			fs.servers[s] = &serverFilters{}
		}
		return fs.servers[s]
	}
	for _, p := range deny {
		s, tool, ok := split(p)
		if !ok {
			continue
		}
		sf := get(s)
		if tool == "*" {
			sf.DenyAll = true
			continue
		}
		sf.Deny = appendNew(sf.Deny, []string{tool})
	}
	for _, p := range allow {
		s, tool, ok := split(p)
		if !ok {
			continue
		}
		sf := get(s)
		sf.Allow = appendNew(sf.Allow, []string{tool})
		sf.AllowPatterns = append(sf.AllowPatterns, p)
	}
	return fs
}

func appendNew(dst, src []string) []string {
	for _, s := range src {
		if !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// exact splits tool names into exact names and globs.
func exact(tools []string) (names, globs []string) {
	for _, t := range tools {
		if isGlob(t) {
			globs = append(globs, t)
		} else {
			names = append(names, t)
		}
	}
	return names, globs
}

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
func claudeRules(fs *filterSet) []string {
	var rules []string
	for _, n := range sortedKeys(fs.servers) {
		sf := fs.servers[n]
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

// checkUnsupported warns once per injection about filters the provider cannot express.
func checkUnsupported(p *providers.Provider, fs *filterSet) {
	var deny, allow []string
	for _, n := range sortedKeys(fs.servers) {
		sf := fs.servers[n]
		if sf.DenyAll {
			deny = append(deny, n+"__*")
		}
		for _, t := range sf.Deny {
			deny = append(deny, n+"__"+t)
		}
		allow = append(allow, sf.AllowPatterns...)
	}
	if p.Deny == providers.DenyNone && p.Allow == providers.AllowNone && len(deny) > 0 && len(allow) > 0 {
		// one line for a client without any tool filter (F3)
		fs.warn("%s documents no tool filters; not applied: toolDeny %s; toolAllow %s", p.Display, strings.Join(deny, ", "), strings.Join(allow, ", "))
		return
	}
	if p.Deny == providers.DenyNone && len(deny) > 0 {
		fs.warn("%s documents no per-tool filter; toolDeny not applied: %s", p.Display, strings.Join(deny, ", "))
	}
	if (p.Allow == providers.AllowNone) && len(allow) > 0 {
		fs.warn("%s has no tool allowlist; toolAllow not applied: %s", p.Display, strings.Join(allow, ", "))
	}
}

// providerWarnings warns about filters the provider cannot express exactly: globs
// where it takes exact names, whole-server denies without a switch, allowlist mode
// leaving other servers unrestricted (F3, F4).
func providerWarnings(p *providers.Provider, fs *filterSet, injected []string) {
	checkUnsupported(p, fs)
	exactOnly := p.Deny == providers.DenyCodex || p.Deny == providers.DenyDisabledTools || p.Deny == providers.DenyGemini
	var allowMode, unrestricted []string
	for _, n := range sortedKeys(fs.servers) {
		sf := fs.servers[n]
		if exactOnly {
			if _, globs := exact(sf.Deny); len(globs) > 0 {
				fs.warn("%s takes exact tool names; glob deny patterns not applied for %s: %s", p.Display, n, strings.Join(globs, ", "))
			}
		}
		if sf.Allow != nil && (p.Allow == providers.AllowCodex || p.Allow == providers.AllowGemini) {
			if _, globs := exact(sf.Allow); len(globs) > 0 {
				fs.warn("%s takes exact tool names; glob allow patterns not applied for %s: %s", p.Display, n, strings.Join(globs, ", "))
			}
		}
		if sf.DenyAll && p.Deny != providers.DenyNone && p.Deny != providers.DenyClaudeSettings &&
			p.Deny != providers.DenyOpencode && p.Deny != providers.DenyCodex && !p.DisableWhole {
			fs.warn("%s cannot switch off a whole server from its config; %s__* not applied", p.Display, n)
		}
		if sf.Allow != nil {
			allowMode = append(allowMode, n)
		}
	}
	if len(allowMode) > 0 && p.Allow != providers.AllowNone && p.Allow != providers.AllowRefused {
		for _, n := range injected {
			if !slices.Contains(allowMode, n) {
				unrestricted = append(unrestricted, n)
			}
		}
		if len(unrestricted) > 0 {
			fs.warn("toolAllow is per server: %s left unrestricted by toolAllow (%s)", strings.Join(unrestricted, ", "), p.Display)
		}
	}
}

// opencodeTools renders filters as opencode's top-level tools map (F3): for each
// allowlist server "<server>_*": false first, then the deny keys (false), then the
// allowed tools (true). A key both allowed and denied stays denied.
func opencodeTools(fs *filterSet) format.Object {
	var wild, deny, allow format.Object
	denied := map[string]bool{}
	for _, n := range sortedKeys(fs.servers) {
		sf := fs.servers[n]
		if sf.Allow != nil {
			wild.Set(n+"_*", false)
			denied[n+"_*"] = true
		}
	}
	for _, n := range sortedKeys(fs.servers) {
		sf := fs.servers[n]
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
	for _, n := range sortedKeys(fs.servers) {
		for _, t := range fs.servers[n].Allow {
			if k := n + "_" + t; !denied[k] {
				allow.Set(k, true)
			}
		}
	}
	return append(append(wild, deny...), allow...)
}
