package dialect

import (
	"encoding/json"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// copilot is GitHub Copilot CLI's mcpServers entry: Claude Code's spelling — {command,
// args, env, cwd} for stdio (Copilot takes an untyped entry as a local server) and
// {type:"http"|"sse", url, headers} — so that the project file .mcp.json, which Claude
// Code and Qoder read too, holds one entry all of them accept (V10); and a per-server
// tools allowlist of exact names, which Copilot reads as every tool when it is absent.
// It has no denylist. A standalone file is added to a run with
// --additional-mcp-config @FILE.
type copilot struct{ p *providers.Provider }

func newCopilot(p *providers.Provider) Dialect { return copilot{p} }

const (
	copilotTools      = "tools"
	copilotAdditional = "--additional-mcp-config"
)

func (d copilot) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := typedEntry(d.p, s, v, sf)
	if sf != nil && sf.Allow != nil {
		e.Set(copilotTools, exactNames(sf.Allow))
	}
	return e
}

// Filters: an allowlist of exact names. Copilot has no denylist and no switch in its
// config (docs.github.com …/copilot-cli/use-copilot-cli/allowing-tools: --deny-tool,
// --excluded-tools; disabledMcpServers lives in its settings.json).
func (copilot) Filters() FilterSpec {
	return FilterSpec{Allow: true, ExactAllow: true, Members: []string{copilotTools}, DenyElsewhere: "--deny-tool or --excluded-tools on its command line"}
}

// Read reads an entry back: type (Copilot's "local" is stdio), the launch members, and
// the tools allowlist (absent, or ["*"], is every tool: no filter).
func (d copilot) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	var sf *ServerFilters
	if tools, set := r.names(copilotTools); set && !slices.Equal(tools, []string{"*"}) {
		sf = &ServerFilters{Allow: tools}
	}
	return r.done(s, sf, "timeout")
}

// Launch adds the standalone file to the person's own servers for one run.
func (d copilot) Launch(out, _ string) Launch {
	return Launch{Binary: d.p.Binary, Args: []string{copilotAdditional, "@" + out}}
}
