package registry

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// PatternError refuses tool-filter patterns that are not SERVER__TOOL (U8): they
// would be ignored at inject (F1), so a deny the person believes in would not apply.
type PatternError struct {
	Patterns []string
	// Servers are the profile's servers, for the hint.
	Servers []string
}

func (e *PatternError) Error() string {
	q := make([]string, len(e.Patterns))
	for i, p := range e.Patterns {
		q[i] = fmt.Sprintf("%q", p)
	}
	return fmt.Sprintf("tool patterns must be SERVER__TOOL (a server name, two underscores, a tool name or glob): %s", strings.Join(q, ", "))
}

// Hints shows the pattern with a server of the profile.
func (e *PatternError) Hints() []string {
	server := "SERVER"
	if len(e.Servers) == 1 {
		server = e.Servers[0]
	}
	p := e.Patterns[0]
	if _, tool, ok := strings.Cut(p, "__"); ok {
		p = tool
	}
	if p == "" {
		p = "TOOL"
	}
	return []string{fmt.Sprintf("name the server the tool belongs to: %s__%s (%s__* for every tool of the server)", server, p, server)}
}

// badPatterns returns the patterns that are not SERVER__TOOL: no "__", an empty
// server or tool part, or a glob in the server part (F1).
func badPatterns(patterns []string) []string {
	var bad []string
	for _, p := range patterns {
		server, tool, ok := strings.Cut(p, "__")
		if !ok || server == "" || tool == "" || strings.ContainsAny(server, "*?[{") {
			bad = append(bad, p)
		}
	}
	return bad
}

// checkFilters refuses new filter patterns that are not SERVER__TOOL and warns about
// each naming a server outside the profile's servers (U8). servers are the profile's
// servers after extends; nil with all set means every server.
func (r *Registry) checkFilters(profile string, patterns, servers []string) error {
	if bad := badPatterns(patterns); len(bad) > 0 {
		return &PatternError{Patterns: bad, Servers: servers}
	}
	// longest names first, so "a__b__tool" belongs to server "a__b" before "a"
	names := slices.Clone(servers)
	sort.SliceStable(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, p := range patterns {
		if slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(p, n+"__") }) {
			continue
		}
		server, _, _ := strings.Cut(p, "__")
		r.warn(fmt.Sprintf("profile %q: tool pattern %q names server %q, which is not one of its servers (%s); it has no effect unless the profile includes that server",
			profile, p, server, orNone(servers)))
	}
	return nil
}

// profileServers returns the servers of a candidate profile after extends: its
// bases' (already valid, checkCandidates) and its own, "__all__" as every server.
func (r *Registry) profileServers(p *Profile) []string {
	var out []string
	add := func(names []string) {
		for _, n := range names {
			if n == AllServers {
				out = r.ServerNames()
				return
			}
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	for _, b := range p.Extends {
		if res, err := r.Resolve(b); err == nil {
			add(res.Servers)
		}
	}
	add(p.Servers)
	return out
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
