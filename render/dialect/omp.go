package dialect

import (
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
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
	return e
}

func (omp) Filters() FilterSpec { return FilterSpec{} }
