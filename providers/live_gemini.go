package providers

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
)

// Gemini CLI's liveness (gemini-cli 0.61.0's settings.ts, trustedFolders.ts,
// mcp/list.ts; tested, docs/explain.md): its settings files merge mcpServers by
// name, the system settings over the workspace's (the directory it starts in) over
// the user's over the system defaults, whole entries; it reads a system file only
// where it and the directories above it are root's alone. Folder trust is on unless a
// settings file turns it off: in a folder it does not trust it starts no server at
// all, the user's included. mcp.excluded in any settings file switches a server off,
// each mcp.allowed present lets only the servers it names start (names compared
// lower-cased), and `gemini mcp disable` records a server off in
// mcp-server-enablement.json.
func geminiLive() *Live {
	return &Live{
		Root: RootStart,
		Sources: []Source{
			{At: At{Scope: User, System: geminiSystem}, Label: "system"},
			{At: At{Scope: Project}},
			{At: At{Scope: User}},
			{At: At{Scope: User, System: geminiSystemDefaults}, Label: "system defaults"},
		},
		Trust:    geminiTrust{},
		TrustAll: true,
		Lists:    geminiLists(geminiSystem, geminiSystemDefaults, true),
	}
}

// Gemini CLI's administrator files, per OS, and the variables that move them.
var (
	geminiSystem = &SystemFile{Env: "GEMINI_CLI_SYSTEM_SETTINGS_PATH", RootOwned: true,
		Darwin:  "/Library/Application Support/GeminiCli/settings.json",
		Windows: `%ProgramData%\gemini-cli\settings.json`,
		Other:   "/etc/gemini-cli/settings.json",
	}
	geminiSystemDefaults = &SystemFile{Env: "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", RootOwned: true,
		Darwin:  "/Library/Application Support/GeminiCli/system-defaults.json",
		Windows: `%ProgramData%\gemini-cli\system-defaults.json`,
		Other:   "/etc/gemini-cli/system-defaults.json",
	}
	// geminiEnablement is where `gemini mcp disable` records a server off.
	geminiEnablement = &Dest{Env: "GEMINI_CLI_HOME", EnvDir: []string{".gemini"}, Base: Home, Dir: []string{".gemini"},
		Files: []string{"mcp-server-enablement.json"}}
)

// geminiLists are the mcp.excluded and mcp.allowed lists of Gemini CLI's settings
// files (system, system defaults, the user's and the workspace's), and, with
// enablement, mcp-server-enablement.json.
func geminiLists(system, defaults *SystemFile, enablement bool) []NameList {
	var out []NameList
	for _, at := range []At{{System: system}, {System: defaults}, {Scope: User}, {Scope: Project}} {
		out = append(out,
			NameList{At: at, Path: []string{"mcp", "excluded"}, Fold: enablement, Glob: !enablement},
			NameList{At: at, Path: []string{"mcp", "allowed"}, Allow: true, Fold: enablement, Glob: !enablement})
	}
	if enablement {
		out = append(out, NameList{At: At{Dest: geminiEnablement}, Path: nil, Map: true, Fold: true})
	}
	return out
}

// geminiTrust: GEMINI_CLI_TRUST_WORKSPACE (true or false) and GEMINI_RESTRICTED_MODE
// decide first; then, unless a settings file sets security.folderTrust.enabled to
// false, trustedFolders.json (beside the user settings, or where
// GEMINI_CLI_TRUSTED_FOLDERS_PATH says): the longest folder holding the start
// directory decides (TRUST_PARENT names its folder's parent); none: Gemini asks.
type geminiTrust struct{}

// Gemini CLI's trusted folders file, and the variables of its trust.
const (
	geminiTrustFile    = "trustedFolders.json"
	geminiTrustFileEnv = "GEMINI_CLI_TRUSTED_FOLDERS_PATH"
	geminiTrustEnv     = "GEMINI_CLI_TRUST_WORKSPACE"
	geminiRestricted   = "GEMINI_RESTRICTED_MODE"
)

func (geminiTrust) Trusted(f Files, w Where) (bool, Rule) {
	getenv := w.Env.env()
	switch {
	case getenv(geminiRestricted) == "true" || getenv(geminiTrustEnv) == "false":
		return false, Rule{Text: "Gemini CLI trusts no folder here (" + geminiRestricted + " or " + geminiTrustEnv + "), and starts no MCP server"}
	case getenv(geminiTrustEnv) == "true":
		return true, Rule{Text: geminiTrustEnv + " is true"}
	}
	for _, at := range []At{{System: geminiSystem}, {Scope: Project}, {Scope: User}, {System: geminiSystemDefaults}} {
		for _, file := range f.Resolve(at) {
			raw, ok := f.Member(file, "security", "folderTrust", "enabled")
			var on bool
			if ok && json.Unmarshal(raw, &on) == nil {
				if !on {
					return true, Rule{Text: "folder trust is off", File: file, Path: []string{"security", "folderTrust", "enabled"}}
				}
				goto files
			}
		}
	}
files:
	file := geminiTrustPath(f, w)
	var rules map[string]string
	if raw, ok := f.Member(file); ok {
		_ = json.Unmarshal(raw, &rules)
	}
	best, level := "", ""
	for path, l := range rules {
		dir := path
		if l == "TRUST_PARENT" {
			dir = filepath.Dir(path)
		}
		if within(dir, w.Start) && len(path) > len(best) {
			best, level = path, l
		}
	}
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		return true, Rule{Text: "Gemini CLI trusts " + w.Start, File: file, Path: []string{best}}
	case "DO_NOT_TRUST":
		return false, Rule{Text: "Gemini CLI does not trust " + w.Start + ", and starts no MCP server there, the user's included", File: file, Path: []string{best}}
	}
	return false, Rule{Text: "Gemini CLI has not been trusted in " + w.Start + " yet: it asks when it starts there, and until then starts no MCP server, the user's included (" + geminiTrustFile + ")", File: file}
}

// geminiTrustPath is Gemini CLI's trusted folders file.
func geminiTrustPath(f Files, w Where) string {
	if v := w.Env.env()(geminiTrustFileEnv); v != "" {
		return v
	}
	if d, err := gemini().User.Directory(w.Env); err == nil {
		return filepath.Join(d, geminiTrustFile)
	}
	return ""
}

// gemini is Gemini CLI's table entry.
func gemini() *Provider {
	p, _ := lookup("gemini-cli")
	return p
}

// within reports whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
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

// sortedJSON encodes v as JavaScript's JSON.stringify does with object keys sorted
// (Go's encoder sorts map keys, and escapes only what JSON.stringify does once
// HTML escaping is off).
func sortedJSON(v any) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}
