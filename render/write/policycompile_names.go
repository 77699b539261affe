package write

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// allowedNames are the names an allow list by name holds: a name rule's name unless
// a deny rule by that name denies it, and for a URL or command rule the names of the
// registry servers it admits, with a warning that the client matches names only.
func allowedNames(p *providers.Provider, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]string, []string) {
	var warns, allowed []string
	for _, r := range m.Allow {
		if r.Name != "" {
			if !deniedByName(m, r.Name) {
				allowed = providers.AppendNew(allowed, []string{r.Name})
			}
			continue
		}
		names := registryNames(reg, func(c policy.Candidate) bool { return r.Matches(c) && ps.Decide(c) == nil })
		allowed = providers.AppendNew(allowed, names)
		warns = append(warns, fmt.Sprintf("%s: matches server names only: allow rule %s is written as the registry's servers it admits (%s); another server under one of these names passes", p.Display, r, list(names)))
	}
	return allowed, warns
}

// deniedByName reports whether a deny rule names the server.
func deniedByName(m *policy.ServerPolicy, name string) bool {
	return slices.ContainsFunc(m.Deny, func(r policy.ServerRule) bool { return r.Name == name })
}

// nameAllow writes Cline's remote configuration: allowedMCPServers, an allow list of
// names with no deny list, where an empty list restricts nothing (so a policy that
// admits no server switches local servers off instead).
func nameAllow(p *providers.Provider, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	if m.AllowUnlisted {
		if len(m.Deny) == 0 {
			return nil, nil
		}
		return nil, []string{fmt.Sprintf("%s: its organisation policy is an allow list of names only: with allowUnlisted true its deny rules cannot be written there (none written)", p.Display)}
	}
	names, warns := allowedNames(p, m, ps, reg)
	doc := map[string]any{}
	if len(names) == 0 {
		doc["mcpMarketplaceEnabled"] = false
		warns = append(warns, fmt.Sprintf("%s: an empty allow list restricts nothing there: the policy admits no server, so every local server is switched off (mcpMarketplaceEnabled false)", p.Display))
	} else {
		ids := make([]map[string]string, len(names))
		for i, n := range names {
			ids[i] = map[string]string{"id": n}
		}
		doc["allowedMCPServers"] = ids
		warns = append(warns, fmt.Sprintf("%s: matches server names only, and reads this from its remote configuration, not a file on the machine: paste it there", p.Display))
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n'), warns
}
