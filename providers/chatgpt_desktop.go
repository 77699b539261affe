package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// chatgptDesktopClient is ChatGPT Desktop.
var chatgptDesktopClient = &Provider{
	Name: "chatgpt-desktop", Display: "ChatGPT Desktop", DefaultScope: User,
	Order:   350,
	dialect: newManual,
	Refs:    refNone, Remote: RemoteNone, Deny: DenyNone, Allow: AllowNone,
	Sources: []string{"a server's setup guide: Settings → Connectors → Advanced → Developer mode (shared/seeds/001)"},
}

func init() { register(chatgptDesktopClient) }

// manual is a client configured by hand (ChatGPT Desktop's connectors): no file, only
// a command and its arguments for a person to enter (write.ManualSteps).
type manual struct {
	base
	p *Provider
}

func newManual(p *Provider) Dialect { return manual{p: p} }

func (manual) Entry(_ *registry.Server, v *Values, _ *ServerFilters) format.Object {
	return format.Object{{Key: memberCommand, Value: v.Command}, {Key: memberArgs, Value: v.Args}}
}

func (manual) Filters() FilterSpec { return FilterSpec{} }

// Read: there is no file to read back.
func (manual) Read(json.RawMessage) (*Imported, error) { return nil, errNoReader }
