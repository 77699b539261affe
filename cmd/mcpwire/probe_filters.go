package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gobwas/glob"
	"github.com/mcpwire/mcpwire/registry"
)

// filterIssue is a filter pattern that matches no tool, and the warning saying so.
type filterIssue struct{ pattern, warning string }

// filterWarnings checks the tool filters of the given provider keys (F2: their
// union) against the tools of the servers that answered. It returns one issue per
// pattern that matches no tool of its server, and per pattern F1 ignores (no "__",
// a glob in the server part). Patterns for servers outside the selection, and for
// servers that did not answer, are not checked.
func filterWarnings(filters map[string]*registry.Filters, keys []string, selected []string, results []probeResult) []filterIssue {
	var patterns []string
	for _, k := range keys {
		if f := filters[k]; f != nil {
			for _, p := range append(slices.Clone(f.ToolDeny), f.ToolAllow...) {
				if !slices.Contains(patterns, p) {
					patterns = append(patterns, p)
				}
			}
		}
	}
	if len(patterns) == 0 {
		return nil
	}
	answered := map[string][]string{}
	for _, r := range results {
		if r.Error == "" {
			answered[r.Server] = r.Tools
		}
	}
	// longest names first, so "a__b__tool" belongs to server "a__b" before "a"
	names := slices.Clone(selected)
	sort.SliceStable(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	var out []filterIssue
	add := func(p, format string, args ...any) { out = append(out, filterIssue{p, fmt.Sprintf(format, args...)}) }
	for _, p := range patterns {
		server, tool, ok := splitPattern(p, names)
		if !ok {
			s, _, has := strings.Cut(p, "__")
			switch {
			case !has || s == "":
				add(p, "probe: tool pattern %q is not SERVER__TOOL; ignored", p)
			case strings.ContainsAny(s, "*?[{"):
				add(p, "probe: tool pattern %q has a glob in the server part; ignored", p)
			}
			continue
		}
		tools, up := answered[server]
		if !up {
			continue
		}
		g, err := glob.Compile(tool)
		if err != nil {
			add(p, "probe: tool pattern %q is not a valid glob; ignored", p)
			continue
		}
		if !slices.ContainsFunc(tools, g.Match) {
			add(p, "probe: pattern %q matches no tool of %s", p, server)
		}
	}
	return out
}

// splitPattern splits SERVER__TOOL for a server of the selection (F1).
func splitPattern(p string, names []string) (server, tool string, ok bool) {
	for _, n := range names {
		if rest, found := strings.CutPrefix(p, n+"__"); found && rest != "" {
			return n, rest, true
		}
	}
	return "", "", false
}
