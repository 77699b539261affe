package dialect

import (
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// manual is a client configured by hand (ChatGPT Desktop's connectors): no file, only
// a command and its arguments for a person to enter (render.ManualSteps).
type manual struct{ p *providers.Provider }

func newManual(p *providers.Provider) Dialect { return manual{p} }

func (manual) Entry(_ *registry.Server, v *Values, _ *ServerFilters) format.Object {
	return format.Object{{Key: memberCommand, Value: v.Command}, {Key: memberArgs, Value: v.Args}}
}

func (manual) Filters() FilterSpec { return FilterSpec{} }
