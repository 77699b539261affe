package dialect

import (
	"fmt"
	"sort"
	"strings"
)

// CheckNames refuses servers whose names sanitise to the same Claude Code permission
// prefix (F3, L14): "my.server" and "my_server" both become mcp__my_server, so a deny
// rule written for one would also restrict the other, and removing one's rules would
// free the other's tools. It names every such group.
func (claude) CheckNames(names []string) error {
	return checkClashes(names, rulePrefix, "Claude Code cannot tell these servers apart in permission rules")
}

// checkClashes refuses names that key makes alike, naming every such group (and the
// key they share) after what.
func checkClashes(names []string, key func(string) string, what string) error {
	groups := map[string][]string{}
	for _, n := range names {
		k := key(n)
		groups[k] = append(groups[k], n)
	}
	var clashes []string
	for k, g := range groups {
		if len(g) > 1 {
			quoted := make([]string, len(g))
			for i, n := range g {
				quoted[i] = fmt.Sprintf("%q", n)
			}
			clashes = append(clashes, strings.Join(quoted, " and ")+" (both "+k+")")
		}
	}
	if len(clashes) == 0 {
		return nil
	}
	sort.Strings(clashes)
	return &nameClash{fmt.Sprintf("%s: %s", what, strings.Join(clashes, "; "))}
}

// nameClash is the refusal of CheckNames, with its advice.
type nameClash struct{ msg string }

func (e *nameClash) Error() string { return e.msg }

// Hints says how to resolve the clash.
func (e *nameClash) Hints() []string {
	return []string{"rename one of them in the layer file that defines it, or leave one out of the selection (--servers, or the profile's servers)"}
}
