package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// factoryClient is Factory Droid.
var factoryClient = &Provider{
	Name: "factory", Display: "Factory Droid", DefaultScope: User,
	Order: 80, Aliases: []string{"factory-ai"},
	dialect: newFactory,
	Project: &Dest{Base: ProjectDir, Dir: []string{".factory"}, Files: []string{"mcp.json"}},
	User:    &Dest{Base: Home, Dir: []string{".factory"}, Files: []string{"mcp.json"}},
	Format:  format.JSON, ServersKey: "mcpServers", Switch: "disabled", Refs: refDollar,
	Remote: RemoteHTTPAndSSE, Deny: DenyDisabledTools, Allow: AllowNone, Ephemeral: true, UnionDisabled: true, DisableWhole: true,
	Sources: []string{"Factory-AI/factory docs/cli/configuration/mcp.mdx", "docs.factory.ai/user-guides/factory-bridge/model-context-protocol",
		"droid 0.225.2 tested, SSE included (conformance/factory_test.go; droid mcp add --type sse)"},
	Conformance: true,
	Live:        factoryLive,
}

func init() { register(factoryClient) }

// factory is Factory Droid's mcpServers entry: "type" on every entry and "disabled"
// always written (false, or true for a disabled server or a whole-server deny), with
// disabledTools filters unioned with those already in the file.
type factory struct {
	base
	p  *Provider
	dt disabledTools
}

func newFactory(p *Provider) Dialect { return factory{p: p, dt: disabledTools{p}} }

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

func factoryLive() *Live {
	l := inOrder(Project, User)
	l.Sources[0].Walk = WalkRoot
	l.SkipsUnset, l.DropsBadFiles = true, true
	return l
}
