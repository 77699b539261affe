package dialect

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// factory is Factory Droid's mcpServers entry: "type" on every entry and "disabled"
// always written (false, or true for a disabled server or a whole-server deny), with
// disabledTools filters unioned with those already in the file.
type factory struct {
	p  *providers.Provider
	dt disabledTools
}

func newFactory(p *providers.Provider) Dialect { return factory{p, disabledTools{p}} }

func (d factory) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	typ := registry.Stdio
	if s.Remote() {
		typ = s.Type
	}
	e := launch(d.p, format.Object{{Key: memberType, Value: typ}}, s, v, memberURL)
	e.Set("disabled", Disabled(s) || (sf != nil && sf.DenyAll))
	d.dt.members(&e, sf)
	return e
}

func (d factory) Filters() FilterSpec { return d.dt.spec() }

// factoryOwn are Factory's members mcpwire does not write.
var factoryOwn = []string{"enabledTools", "timeoutMs"}

// Read reads an entry back: type, launch members, disabled and disabledTools.
func (d factory) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	return r.done(s, d.dt.read(r), factoryOwn...)
}

// Update keeps the disabledTools already in the file.
func (d factory) Update(path, name string, existing format.Value, entry format.Object) (format.Object, error) {
	return d.dt.update(path, name, existing, entry)
}
