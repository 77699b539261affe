package inspect

import (
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
)

// UsedEntry names the entry a client uses instead of one of the same name in another
// of its scopes (H11).
type UsedEntry struct {
	Scope providers.Scope `json:"scope"`
	Path  string          `json:"path"`
}

// markPrecedence marks, for each client with a scope precedence (Claude Code: local
// over project over user), every entry whose name a scope before its own holds too:
// the client uses that one, whole, and never this (UsedInstead).
func markPrecedence(files []StatusFile) {
	for _, p := range providers.All() {
		if len(p.Precedence) == 0 {
			continue
		}
		scopes := map[providers.Scope]bool{}
		for _, f := range files {
			if f.Provider == p.Name && f.Error == "" {
				scopes[f.Scope] = true
			}
		}
		if len(scopes) < 2 {
			continue // one scope's file: no entry stands in for another (K7: no map per entry)
		}
		// the file of the client holding each name in each scope
		held := map[string]map[providers.Scope]string{}
		for _, f := range files {
			if f.Provider != p.Name || f.Error != "" {
				continue
			}
			for _, e := range f.Entries {
				if e.State == Missing {
					continue
				}
				if held[e.Name] == nil {
					held[e.Name] = map[providers.Scope]string{}
				}
				held[e.Name][f.Scope] = f.Path
			}
		}
		for i := range files {
			f := &files[i]
			if f.Provider != p.Name || f.Error != "" {
				continue
			}
			rank := slices.Index(p.Precedence, f.Scope)
			for j := range f.Entries {
				e := &f.Entries[j]
				if e.State == Missing || rank < 0 {
					continue
				}
				for _, s := range p.Precedence[:rank] {
					if path, ok := held[e.Name][s]; ok {
						e.UsedInstead = &UsedEntry{Scope: s, Path: path}
						break
					}
				}
			}
		}
	}
}

// PrecedenceNote says, for an entry the client does not use, which one it uses
// instead and why: "not used: Claude Code uses the local-scope entry (local over
// project over user)"; "" for an entry that is used.
func PrecedenceNote(f StatusFile, e StatusEntry) string {
	p, ok := providers.Get(f.Provider)
	if !ok || e.UsedInstead == nil {
		return ""
	}
	order := make([]string, len(p.Precedence))
	for i, s := range p.Precedence {
		order[i] = string(s)
	}
	return "not used: " + p.Display + " uses the " + string(e.UsedInstead.Scope) + "-scope entry (" + strings.Join(order, " over ") + ")"
}
