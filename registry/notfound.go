package registry

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/suggest"
)

// NotFoundError is one or more server or profile names no layer defines. Its hint
// suggests a close name, or lists the defined ones (U1).
type NotFoundError struct {
	// Kind is "server" or "profile".
	Kind  string
	Names []string
	// Known are the defined names of the kind, sorted.
	Known []string
	// What, when set, starts the message instead of `KIND "NAME" not found`; the
	// names follow it.
	What string
}

func (e *NotFoundError) Error() string {
	if e.What != "" {
		return e.What + ": " + listNames(e.Names)
	}
	return fmt.Sprintf("%s %q not found", e.Kind, e.Names[0])
}

// Hints suggests a close name for each missing one, or lists the defined names (at
// most 20) once.
func (e *NotFoundError) Hints() []string {
	if len(e.Known) == 0 {
		return []string{fmt.Sprintf("no %s is defined in any configuration layer (mcpwire %s add NAME …)", e.Kind, e.Kind)}
	}
	var out []string
	listed := false
	for _, n := range e.Names {
		h := suggest.Hint(n, e.Known, "%q")
		if !strings.HasPrefix(h, "did you mean") {
			if listed {
				continue
			}
			listed = true
			h = "defined " + e.Kind + "s: " + strings.TrimPrefix(h, "one of: ")
		}
		if len(e.Names) > 1 {
			h = fmt.Sprintf("%q: %s", n, h)
		}
		out = append(out, h)
	}
	return out
}

// NoServer is the error for a server name no layer defines.
func (r *Registry) NoServer(name string) error {
	return &NotFoundError{Kind: "server", Names: []string{name}, Known: r.ServerNames()}
}

// NoProfile is the error for a profile name no layer defines.
func (r *Registry) NoProfile(name string) error {
	return &NotFoundError{Kind: "profile", Names: []string{name}, Known: r.ProfileNames()}
}

// CheckServers refuses server names no layer defines (AllServers stands for every
// server), naming all of them with suggestions; what starts the message
// ("servers not found in any configuration layer" when empty).
func (r *Registry) CheckServers(names []string, what string) error {
	var missing []string
	for _, n := range names {
		if n == AllServers {
			continue
		}
		if _, ok := r.Server(n); !ok {
			missing = append(missing, n)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if what == "" {
		what = "servers not found in any configuration layer"
	}
	return &NotFoundError{Kind: "server", Names: missing, Known: r.ServerNames(), What: what}
}

// Lookup returns the servers of names in order, a name no layer defines taken from
// extra when one there has it (the built-in entry of install). Names neither holds are
// refused together, with suggestions: "servers not defined in any configuration
// layer: a, b", or, for a profile's names, `profile "p" names servers not defined …`.
func (r *Registry) Lookup(names []string, profile string, extra []*Server) ([]*Server, error) {
	out := make([]*Server, 0, len(names))
	var missing []string
	for _, n := range names {
		s, ok := r.Server(n)
		for _, x := range extra {
			if !ok && x.Name == n {
				s, ok = x, true
			}
		}
		if !ok {
			missing = append(missing, n)
			continue
		}
		out = append(out, s)
	}
	if len(missing) == 0 {
		return out, nil
	}
	what := "servers not defined in any configuration layer"
	if profile != "" {
		what = fmt.Sprintf("profile %q names servers not defined in any configuration layer", profile)
	}
	return nil, &NotFoundError{Kind: "server", Names: missing, Known: r.ServerNames(), What: what}
}
