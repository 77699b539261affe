package write

import (
	"github.com/mcpwire/mcpwire/providers"
)

// HasRuntimeHome reports whether a provider's standalone output is a runtime home (a
// whole home directory, X1) rather than a file.
func HasRuntimeHome(p *providers.Provider) bool { return p.RuntimeHome != nil }

// launchesExactly reports whether the client, started on a standalone file, loads only
// that file's servers.
func launchesExactly(p *providers.Provider) bool {
	l, ok := p.Dialect().Launch("", "")
	return ok && l.Exact
}

// SessionProviders lists the providers `session` can start with exactly a profile's
// servers and nothing of the person's own config: those with runtime homes, then
// those that load a standalone file alone, each in table order.
func SessionProviders() []*providers.Provider {
	var homes, files []*providers.Provider
	for _, p := range providers.All() {
		switch {
		case p.Manual():
		case HasRuntimeHome(p):
			homes = append(homes, p)
		case launchesExactly(p):
			files = append(files, p)
		}
	}
	return append(homes, files...)
}
