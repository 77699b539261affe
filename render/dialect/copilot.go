package dialect

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// copilot is GitHub Copilot CLI's mcpServers entry (~/.copilot/mcp-config.json):
// {type:"local", command, args, env} and {type:"http"|"sse", url, headers}, and a
// per-server tools allowlist: ["*"] for every tool, or the exact names of the
// profile's toolAllow. It has no denylist. Copilot ignores a whole file that holds
// comments, so mcpwire refuses to write one (V9).
type copilot struct{ p *providers.Provider }

func newCopilot(p *providers.Provider) Dialect { return copilot{p} }

const copilotTools = "tools"

// copilotAll is the tools member of a server without an allowlist.
var copilotAll = []string{"*"}

func (d copilot) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	typ := "local"
	if s.Remote() {
		typ = s.Type
	}
	e := launch(d.p, format.Object{{Key: memberType, Value: typ}}, s, v, memberURL)
	tools := copilotAll
	if sf != nil && sf.Allow != nil {
		tools = exactNames(sf.Allow)
	}
	e.Set(copilotTools, tools)
	return e
}

// Filters: an allowlist of exact names; ["*"] is what a server without one gets, which
// the allowlist already in the file replaces under KeepFilters.
func (copilot) Filters() FilterSpec {
	return FilterSpec{Allow: true, ExactAllow: true, Members: []string{copilotTools},
		Defaults: map[string]any{copilotTools: copilotAll}}
}

// Read reads an entry back: type ("local" is stdio), launch members, and the tools
// allowlist (["*"] is none).
func (d copilot) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	var sf *ServerFilters
	if tools, set := r.names(copilotTools); set && !slices.Equal(tools, copilotAll) {
		sf = &ServerFilters{Allow: tools}
	}
	return r.done(s, sf, "timeout")
}

// EditFile refuses a file Copilot would ignore: one with comments or trailing commas.
func (d copilot) EditFile(doc format.Document, _ format.Entries, st *FileState) error {
	out, err := doc.Bytes()
	if err != nil {
		return err
	}
	if !json.Valid(out) {
		return fmt.Errorf("%s holds comments or trailing commas, and %s ignores such a file whole; remove them, then run again", st.Path, d.p.Display)
	}
	return nil
}
