package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// omp is oh-my-pi's mcpServers entry: Claude Code's shape, plus the registry
// definition's own timeout, auth and oauth copied through, and the enabled switch. A
// same-named entry mcpwire did not write is never replaced, even with --force
// (providers.OwnerStrict).
type omp struct{ p *providers.Provider }

func newOMP(p *providers.Provider) Dialect { return omp{p} }

func (d omp) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := typedLaunch(d.p, s, v)
	if s.Timeout != nil {
		e.Set("timeout", s.Timeout)
	}
	if len(s.Auth) > 0 {
		e.Set("auth", s.Auth)
	}
	if len(s.OAuth) > 0 {
		e.Set("oauth", s.OAuth)
	}
	switchOff(d.p, &e, s, sf)
	if sf == nil {
		return e
	}
	if sf.Allow != nil {
		e.Set(ompEnabled, nonNil(sf.Allow))
	}
	if len(sf.Deny) > 0 {
		e.Set(ompDisabled, sf.Deny)
	}
	return e
}

// oh-my-pi's per-server tool filters (can1357/oh-my-pi docs/mcp-config.md): tool
// names or globs; disabledTools wins over enabledTools. 18.2.3, the newest release
// that installs, has neither and ignores them (its loader keeps the server).
const (
	ompEnabled  = "enabledTools"
	ompDisabled = "disabledTools"
)

// nonNil is tools, or an empty list for none (an allowlist that keeps no tool).
func nonNil(tools []string) []string {
	if tools == nil {
		return []string{}
	}
	return tools
}

// ompOwn are oh-my-pi's members mcpwire does not write.
var ompOwn = []string{"requestIdFormat"}

// Read reads an entry back: Claude Code's members, and timeout, auth and oauth into
// the registry's own fields.
func (d omp) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	var timeout json.RawMessage
	if r.decode("timeout", "a number", &timeout) {
		s.Timeout = timeout
	}
	r.decode("auth", "an object", &s.Auth)
	r.decode("oauth", "an object", &s.OAuth)
	return r.done(s, r.filterLists(ompDisabled, ompEnabled), ompOwn...)
}

func (d omp) Filters() FilterSpec {
	return FilterSpec{Deny: true, Allow: true, DenyAll: true, Members: []string{ompEnabled, ompDisabled}, Switch: d.p.Switch,
		Since: "in releases after 18.2.3 (18.2.3 ignores them)"}
}
