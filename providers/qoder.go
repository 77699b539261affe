package providers

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// qoderClient is Qoder CLI.
var qoderClient = &Provider{
	Name: "qoder", Display: "Qoder CLI", DefaultScope: Local,
	Order: 200, Aliases: []string{"qoder-cli", "qodercli"},
	dialect: newQoder,
	Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json"}, NoTrailingComma: true},
	Local:   &Dest{Base: ProjectDir, Dir: []string{".qoder"}, Files: []string{"settings.local.json"}, NoTrailingComma: true},
	User:    &Dest{Env: "QODER_CONFIG_DIR", Base: Home, Dir: []string{".qoder"}, Files: []string{"settings.json"}, NoTrailingComma: true},
	Format:  format.JSONC, ServersKey: "mcpServers", Switch: "disabled", Refs: refDollar,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: AllowNone, Binary: "qodercli",
	Sources: []string{"@qoder-ai/qodercli 1.1.52 bundle qodercli.js (config directory, settings files, MCP schema)",
		"qodercli 1.1.52 tested (observe/OBSERVED.md)"},
	Conformance: true,
	Live:        qoderLive,
}

func init() { register(qoderClient) }

// qoder is Qoder CLI's mcpServers entry, in its settings files and in the project's
// .mcp.json, which it shares with Claude Code and Copilot CLI (V10): Claude Code's
// spelling ({command,args,env} and {type,url,headers}) with the disabled switch. Qoder
// has no tool filter in an entry and no per-run file.
type qoder struct {
	base
	p *Provider
}

func newQoder(p *Provider) Dialect { return qoder{p: p} }

func (d qoder) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	return typedEntry(d.p, s, v, sf)
}

func (qoder) Filters() FilterSpec { return FilterSpec{} }

// Read reads an entry back: Claude Code's members and the switch.
func (d qoder) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	return r.done(s, nil)
}

func qoderLive() *Live {
	l := inOrder(Project, Local, User)
	l.Root, l.Merge = RootStart, true
	return l
}
