package providers

import (
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
)

// qwenCodeClient is Qwen Code.
var qwenCodeClient = &Provider{
	Name: "qwen-code", Display: "Qwen Code", DefaultScope: User,
	Order: 160, Aliases: []string{"qwen"},
	dialect: newQwen,
	Project: &Dest{Base: ProjectDir, Dir: []string{".qwen"}, Files: []string{"settings.json"}, NoTrailingComma: true, FromCwd: true},
	User:    &Dest{Env: "QWEN_HOME", Base: Home, Dir: []string{".qwen"}, Files: []string{"settings.json"}, NoTrailingComma: true},
	// Qwen Code 0.21+ also reads the project's .mcp.json (without expanding references)
	AlsoReads: []*Dest{{Base: ProjectDir, Files: []string{".mcp.json"}}},
	Format:    format.JSONC, ServersKey: "mcpServers", Refs: refDollar, Reads: []string{policy.StyleBareDollar},
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: denyGemini, Allow: allowGemini, Binary: "qwen", Ephemeral: true,
	ProjectNote: "Qwen Code 0.24+ starts a project's servers after qwen mcp approve NAME, again after each change of the entry",
	Sources: []string{"QwenLM/qwen-code docs/users/features/mcp.md", "QwenLM/qwen-code docs/users/configuration/settings.md",
		"@qwen-code/qwen-code 0.24.4 bundle (Storage.getGlobalQwenDir, createTransport, loadAndMigrate)",
		"qwen 0.24.4 tested (observe/OBSERVED.md)"},
	Conformance: true,
}

func init() { register(qwenCodeClient) }

// qwen is Qwen Code's mcpServers entry. Qwen Code is a Gemini CLI fork and reads the
// same entries (httpUrl for streamable HTTP, url for SSE, excludeTools and
// includeTools of exact names, mcp.allowed and mcp.excluded in the file), so the
// entries are Gemini CLI's. A settings file without "$version": 4 is migrated and
// rewritten by Qwen on its next start, so a file that holds nothing but mcpwire's
// servers (a new one) gets it; an older file with other settings is left to Qwen's
// own migration. A standalone file is loaded with --mcp-config.
type qwen struct{ gemini }

func newQwen(p *Provider) Dialect { return qwen{gemini{p: p}} }

const (
	qwenVersionKey = "$version"
	qwenVersion    = 4
	qwenMCPConfig  = "--mcp-config"
)

// EditFile warns like Gemini CLI's and adds "$version" to a file holding only servers.
func (d qwen) EditFile(doc format.Document, es format.Entries, st *FileState) error {
	if err := d.gemini.EditFile(doc, es, st); err != nil {
		return err
	}
	root, ok := doc.Lookup()
	if !ok {
		return nil
	}
	if keys := root.Keys(); len(keys) == 1 && keys[0] == d.p.ServersKey {
		return doc.Set([]string{qwenVersionKey}, qwenVersion)
	}
	return nil
}

// Launch adds the standalone file's servers to a run.
func (d qwen) Launch(out, _ string) (Launch, bool) {
	return Launch{Binary: d.p.Binary, Args: []string{qwenMCPConfig, out}}, true
}
