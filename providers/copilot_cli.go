package providers

import (
	"encoding/json"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// copilotCliClient is GitHub Copilot CLI.
var copilotCliClient = &Provider{
	// The project file is .mcp.json, read by Claude Code and Qoder too (V10): entries
	// there take the spelling all of them accept. .github/mcp.json is written only
	// when it exists and .mcp.json does not (any .mcp.json hides it from Copilot).
	Name: "copilot-cli", Display: "GitHub Copilot CLI", DefaultScope: User,
	Order: 150, Aliases: []string{"copilot"},
	dialect: newCopilot,
	Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json", ".github/mcp.json"}, Strict: true},
	User:    &Dest{Env: "COPILOT_HOME", Base: Home, Dir: []string{".copilot"}, Files: []string{"mcp-config.json"}},
	Format:  format.JSONC, ServersKey: "mcpServers", Refs: refDollar,
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: DenyNone, Allow: allowTools, Binary: "copilot", Ephemeral: true,
	ProjectNote: "GitHub Copilot CLI loads project servers only in a folder you trust (it asks when started there; trustedFolders in ~/.copilot/config.json), and any .mcp.json between the working directory and the git root hides .github/mcp.json",
	Sources: []string{"docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers",
		"docs.github.com/en/copilot/reference/copilot-cli-reference/cli-config-dir-reference",
		"docs.github.com/en/copilot/reference/copilot-cli-reference/cli-command-reference",
		"copilot 1.0.102 tested (research/clients-facts.md, observe/OBSERVED.md)"},
	Conformance: true,
	Live:        copilotLive,
	admin:       copilotCliAdmin,
}

func init() { register(copilotCliClient) }

// copilot is GitHub Copilot CLI's mcpServers entry: Claude Code's spelling — {command,
// args, env, cwd} for stdio (Copilot takes an untyped entry as a local server) and
// {type:"http"|"sse", url, headers} — so that the project file .mcp.json, which Claude
// Code and Qoder read too, holds one entry all of them accept (V10); and a per-server
// tools allowlist of exact names, which Copilot reads as every tool when it is absent.
// It has no denylist. A standalone file is added to a run with
// --additional-mcp-config @FILE.
type copilot struct {
	base
	p *Provider
}

func newCopilot(p *Provider) Dialect { return copilot{p: p} }

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
func (d copilot) Launch(out, _ string) (Launch, bool) {
	return Launch{Binary: d.p.Binary, Args: []string{copilotAdditional, "@" + out}}, true
}

// allowTools is how the client takes allow filters.
const allowTools AllowStyle = "tools (exact names; every tool without it)"

// GitHub Copilot CLI's liveness (copilot 1.0.102 tested, docs/explain.md): the
// project's .mcp.json files (else .github/mcp.json), from the start directory up to the
// project's top, the nearest first, over ~/.copilot/mcp-config.json, whole entries; the project file is read only in a folder the person trusts
// (trustedFolders in ~/.copilot/config.json: the folder or one of its parents), and
// in any other folder the user's entry of a name is used. disabledMcpServers in
// ~/.copilot/settings.json switches a server off; a "disabled" member of the entry
// is not read.
func copilotLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: Project}, Walk: WalkRoot, Trust: true},
			{At: At{Scope: User}},
		},
		Trust:   copilotTrust{},
		Lists:   []NameList{{At: At{Dest: copilotHomeFile("settings.json")}, Path: []string{"disabledMcpServers"}}},
		Ignored: []string{"disabled"},
	}
}

// copilotHomeFile is a file of Copilot CLI's home (~/.copilot, COPILOT_HOME).
func copilotHomeFile(name string) *Dest {
	return &Dest{Env: "COPILOT_HOME", Base: Home, Dir: []string{".copilot"}, Files: []string{name}}
}

// copilotTrust: trustedFolders (or trusted_folders) in ~/.copilot/config.json lists
// the project or a folder above it.
type copilotTrust struct{}

func (copilotTrust) Trusted(f Files, w Where) (bool, Rule) {
	files := f.Resolve(At{Dest: copilotHomeFile("config.json")})
	for _, file := range files {
		for _, member := range []string{"trustedFolders", "trusted_folders"} {
			raw, ok := f.Member(file, member)
			var dirs []string
			if !ok || json.Unmarshal(raw, &dirs) != nil {
				continue
			}
			for _, d := range dirs {
				if within(d, w.Root) {
					return true, Rule{Text: "GitHub Copilot CLI trusts " + d, File: file, Path: []string{member}, Elem: d}
				}
			}
		}
	}
	r := Rule{Text: "GitHub Copilot CLI does not trust " + w.Root + " yet: it asks when it starts there, and reads no project file until then (trustedFolders)"}
	if len(files) > 0 {
		r.File = files[0]
	}
	return false, r
}

// copilotCliAdmin is where an administrator's policy for the client is, and what it says (G3).
var copilotCliAdmin = &AdminPolicy{
	Style: AdminServerLists,
	Paths: AdminPaths{
		Darwin:  "/Library/Application Support/GitHubCopilot/managed-settings.json",
		Linux:   "/etc/github-copilot/managed-settings.json",
		Windows: `C:\Program Files\GitHubCopilot\managed-settings.json`,
	},
	Sources: []string{
		"https://docs.github.com/en/copilot/how-tos/administer-copilot/manage-mcp-usage/configure-enterprise-allowlist",
		"https://github.com/microsoft/vscode/pull/321870 (the file-based managed-settings.json path per OS)",
	},
}
