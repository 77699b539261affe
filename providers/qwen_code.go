package providers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

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
	Live:        qwenLive,
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

// Qwen Code's liveness (@qwen-code/qwen-code 0.24.4's config/mcpServers.ts,
// mcpApprovals.ts; tested, docs/explain.md): the system and workspace settings over
// the project's .mcp.json over the user's settings, whole entries; a server of the
// workspace settings or of .mcp.json waits for `qwen mcp approve`, which binds the
// approval to the entry as it is, and keeps its name while it waits; mcp.excluded
// and mcp.allowed take * and ? wildcards.
func qwenLive() *Live {
	return &Live{
		Root: RootStart,
		Sources: []Source{
			{At: At{Scope: User, System: qwenSystem}, Label: "system"},
			{At: At{Scope: Project}, Approve: true, Hold: true},
			{At: At{Scope: Project, Dest: &Dest{Base: ProjectDir, Files: []string{".mcp.json"}}}, Approve: true, Hold: true, Label: ".mcp.json"},
			{At: At{Scope: User}},
			{At: At{Scope: User, System: qwenSystemDefaults}, Label: "system defaults"},
		},
		Approval: qwenApproval{},
		Lists:    geminiLists(qwenSystem, qwenSystemDefaults, false),
	}
}

// Qwen Code's administrator files.
var (
	qwenSystem = &SystemFile{Env: "QWEN_CODE_SYSTEM_SETTINGS_PATH",
		Darwin:  "/Library/Application Support/QwenCode/settings.json",
		Windows: `%ProgramData%\qwen-code\settings.json`,
		Other:   "/etc/qwen-code/settings.json",
	}
	qwenSystemDefaults = &SystemFile{Env: "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
		Darwin:  "/Library/Application Support/QwenCode/system-defaults.json",
		Windows: `%ProgramData%\qwen-code\system-defaults.json`,
		Other:   "/etc/qwen-code/system-defaults.json",
	}
	qwenApprovals = &Dest{Env: "QWEN_CODE_MCP_APPROVALS_PATH", EnvFile: true, Base: Home, Dir: []string{".qwen"}, Files: []string{"mcpApprovals.json"}}
)

// qwenApproval: mcpApprovals.json["<start directory>"]["<name>"] = {hash, status}: the
// server starts when its status is "approved" and the hash is that of the entry as
// it is now (sha256 of its JSON with sorted keys, without scope, extensionName and
// description).
type qwenApproval struct{}

func (qwenApproval) Approved(f Files, w Where, _ Source, name string, entry json.RawMessage) (bool, Rule) {
	files := f.Resolve(At{Dest: qwenApprovals})
	pending := Rule{Text: "waiting for approval in Qwen Code: qwen mcp approve " + name}
	if len(files) == 0 {
		return false, pending
	}
	var rec struct {
		Hash   string `json:"hash"`
		Status string `json:"status"`
	}
	raw, ok := f.Member(files[0], w.Start, name)
	if !ok || json.Unmarshal(raw, &rec) != nil {
		return false, pending
	}
	r := Rule{File: files[0], Path: []string{w.Start, name}}
	switch {
	case rec.Hash != qwenHash(entry):
		r.Text = "approved in Qwen Code for the entry as it was, not as it is now: qwen mcp approve " + name
		return false, r
	case rec.Status != "approved":
		r.Text = "rejected in Qwen Code (" + rec.Status + ")"
		return false, r
	}
	r.Text = "approved in Qwen Code"
	return true, r
}

// qwenHash is Qwen Code's hash of an entry (hashMcpServerConfig).
func qwenHash(entry json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(entry, &m) != nil {
		return ""
	}
	for _, k := range []string{"scope", "extensionName", "description"} {
		delete(m, k)
	}
	sum := sha256.Sum256(sortedJSON(m))
	return hex.EncodeToString(sum[:])
}
