package providers

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// geminiCliClient is Gemini CLI.
var geminiCliClient = &Provider{
	Name: "gemini-cli", Display: "Gemini CLI", DefaultScope: Project,
	Order: 130, Aliases: []string{"gemini"},
	dialect: newGemini,
	Project: &Dest{Base: ProjectDir, Dir: []string{".gemini"}, Files: []string{"settings.json"}},
	User:    &Dest{Env: "GEMINI_CLI_HOME", EnvDir: []string{".gemini"}, Base: Home, Dir: []string{".gemini"}, Files: []string{"settings.json"}},
	Format:  format.JSONC, ServersKey: "mcpServers", Refs: refDollar, Reads: []string{policy.StyleBareDollar},
	Remote: RemoteHTTPAndSSE, CwdKey: "cwd", Deny: denyGemini, Allow: allowGemini, Ephemeral: true,
	Sources:     []string{"google-gemini/gemini-cli docs/tools/mcp-server.md", "google-gemini/gemini-cli docs/reference/configuration.md"},
	Conformance: true,
	Live:        geminiLive,
	admin:       geminiCliAdmin,
}

func init() { register(geminiCliClient) }

// gemini is Gemini CLI's mcpServers entry: httpUrl for streamable HTTP, type "sse"
// with url for SSE; tool filters in excludeTools and includeTools (exact names). The
// file's own mcp.allowed and mcp.excluded lists can keep a written server from
// starting: mcpwire does not edit them, and says so.
type gemini struct {
	base
	p *Provider
}

func newGemini(p *Provider) Dialect { return gemini{p: p} }

const (
	geminiHTTPURL  = "httpUrl"
	geminiExclude  = "excludeTools"
	geminiInclude  = "includeTools"
	geminiSettings = "mcp" // mcp.allowed, mcp.excluded
)

func (d gemini) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	key := urlKey(d.p)
	var e format.Object
	switch {
	case s.Remote() && s.Type == registry.HTTP:
		key = geminiHTTPURL
	case s.Remote() && s.Type == registry.SSE:
		// Gemini CLI 0.61 takes a bare "url" for streamable HTTP; SSE needs the type
		// (found by the conformance suite).
		e = format.Object{{Key: memberType, Value: "sse"}}
	}
	e = launch(d.p, e, s, v, key)
	switchOff(d.p, &e, s, sf)
	if sf == nil {
		return e
	}
	if names, _ := Exact(sf.Deny); len(names) > 0 {
		e.Set(geminiExclude, names)
	}
	if sf.Allow != nil {
		e.Set(geminiInclude, exactNames(sf.Allow))
	}
	return e
}

func (gemini) Filters() FilterSpec {
	return FilterSpec{Deny: true, Allow: true, ExactDeny: true, ExactAllow: true, Members: []string{geminiExclude, geminiInclude}}
}

// geminiOwn are Gemini CLI's members with no registry equivalent.
var geminiOwn = []string{"timeout", "trust", "oauth", "authProviderType", "targetAudience", "targetServiceAccount"}

// Read reads an entry back: httpUrl is streamable HTTP; url is SSE unless type says
// http (Gemini CLI reads a bare url as SSE); description, and the tool filters
// excludeTools and includeTools.
func (d gemini) Read(entry json.RawMessage) (*Imported, error) {
	r, err := newReading(d.p, entry)
	if err != nil {
		return nil, err
	}
	typ := r.readType(memberType)
	s := readLaunch(d.p, r, memberHeaders, geminiHTTPURL, urlKey(d.p))
	switch {
	case r.has(geminiHTTPURL):
		s.Type = registry.HTTP
	case s.URL != "" && typ == "":
		s.Type = registry.SSE
	default:
		s.Type = typ
	}
	s.Description = r.str("description")
	r.switchOff(d.p, s)
	return r.done(s, r.filterLists(geminiExclude, geminiInclude), geminiOwn...)
}

// Gemini CLI's trusted folders: the user settings' security.folderTrust.enabled turns
// them on, and trustedFolders.json beside the user settings (or the file
// GEMINI_CLI_TRUSTED_FOLDERS_PATH names) maps folders to a trust level.
const (
	geminiTrustFile = "trustedFolders.json"
	geminiTrustEnv  = "GEMINI_CLI_TRUSTED_FOLDERS_PATH"
)

// StartBlockers says what of Gemini CLI's settings keeps servers from starting: a
// non-empty mcp.allowed without them or an mcp.excluded with them (in the file and,
// for a project file, the user's settings), and a project folder Gemini CLI does not
// trust when folder trust is on: it then ignores the project's settings whole.
func (d gemini) StartBlockers(st *StartState) [][]string {
	files := []string{st.Path}
	var user string
	if cands, err := d.p.User.Candidates(st.Env); err == nil {
		user = cands[0]
		if st.Scope == Project {
			files = append(files, user)
		}
	}
	type lists struct{ allowed, excluded map[string]bool }
	var of []lists
	for _, f := range files {
		of = append(of, lists{st.set(f, geminiSettings, "allowed"), st.set(f, geminiSettings, "excluded")}) // sets: K7
	}
	var untrusted string
	if st.Scope == Project && user != "" && st.flag(user, "security", "folderTrust", "enabled") {
		untrusted = d.untrusted(st, user)
	}
	out := make([][]string, len(st.Names))
	var shared blockerLists
	var why []string
	for i, n := range st.Names {
		why = why[:0]
		for k, f := range files {
			if len(of[k].allowed) > 0 && !of[k].allowed[n] {
				why = append(why, "not in mcp.allowed of "+f)
			}
			if of[k].excluded[n] {
				why = append(why, "named in mcp.excluded of "+f)
			}
		}
		if untrusted != "" {
			why = append(why, untrusted)
		}
		out[i] = shared.of(why...)
	}
	return out
}

// untrusted says why Gemini CLI does not load the project's settings, "" when it
// trusts the project: a folder, or the parent of one, marked TRUST_FOLDER or
// TRUST_PARENT holding it; DO_NOT_TRUST, or no decision yet (it asks).
func (d gemini) untrusted(st *StartState, user string) string {
	file := filepath.Join(filepath.Dir(user), geminiTrustFile)
	if v := st.Env.Getenv; v != nil && v(geminiTrustEnv) != "" {
		file = v(geminiTrustEnv)
	}
	var rules map[string]string
	if raw, ok := st.Read(file); ok {
		json.Unmarshal(raw, &rules)
	}
	denied := false
	for path, level := range rules {
		dir := path
		if level == "TRUST_PARENT" {
			dir = filepath.Dir(path)
		}
		rel, err := filepath.Rel(dir, st.Project)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if level == "DO_NOT_TRUST" {
			denied = denied || rel == "."
			continue
		}
		return ""
	}
	if denied {
		return "Gemini CLI does not trust " + st.Project + " (" + file + "), so it ignores the project's settings"
	}
	return "Gemini CLI has not been trusted in " + st.Project + " yet (" + file + "): until then it ignores the project's settings"
}

// EditFile reads mcp.allowed and mcp.excluded, and warns about the servers written
// that they keep from starting: missing from a non-empty mcp.allowed, or named in
// mcp.excluded.
func (d gemini) EditFile(doc format.Document, _ format.Entries, st *FileState) error {
	list := func(name string) ([]string, bool) {
		v, ok := doc.Lookup(geminiSettings, name)
		var out []string
		if !ok || v.Kind() != format.KindArray || json.Unmarshal(v.JSON(), &out) != nil {
			return nil, false
		}
		return out, true
	}
	allowed, hasAllowed := list("allowed")
	excluded, _ := list("excluded")
	var unlisted []string
	for _, n := range st.Set {
		if (hasAllowed && len(allowed) > 0 && !slices.Contains(allowed, n)) || slices.Contains(excluded, n) {
			unlisted = append(unlisted, n)
		}
	}
	if len(unlisted) > 0 {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s will not start: %s lists mcp.allowed without them, or names them in mcp.excluded; edit those lists if you want them",
			d.p.Name, strings.Join(unlisted, ", "), st.Path))
	}
	return nil
}

// denyGemini is how the client takes deny filters.
const denyGemini DenyStyle = "excludeTools"

// allowGemini is how the client takes allow filters.
const allowGemini AllowStyle = "includeTools"

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
	geminiTrustFileEnv      = "GEMINI_CLI_TRUSTED_FOLDERS_PATH"
	geminiTrustWorkspaceEnv = "GEMINI_CLI_TRUST_WORKSPACE"
	geminiRestricted        = "GEMINI_RESTRICTED_MODE"
)

func (geminiTrust) Trusted(f Files, w Where) (bool, Rule) {
	getenv := w.Env.env()
	switch {
	case getenv(geminiRestricted) == "true" || getenv(geminiTrustWorkspaceEnv) == "false":
		return false, Rule{Text: "Gemini CLI trusts no folder here (" + geminiRestricted + " or " + geminiTrustWorkspaceEnv + "), and starts no MCP server"}
	case getenv(geminiTrustWorkspaceEnv) == "true":
		return true, Rule{Text: geminiTrustWorkspaceEnv + " is true"}
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
	if d, err := geminiCLI().User.Directory(w.Env); err == nil {
		return filepath.Join(d, geminiTrustFile)
	}
	return ""
}

// geminiCLI is Gemini CLI's entry.
func geminiCLI() *Provider {
	p, _ := lookup("gemini-cli")
	return p
}

// geminiCliAdmin is where an administrator's policy for the client is, and what it says (G3).
var geminiCliAdmin = &AdminPolicy{
	Style: AdminNameLists,
	Paths: AdminPaths{
		Darwin:  "/Library/Application Support/GeminiCli/settings.json",
		Linux:   "/etc/gemini-cli/settings.json",
		Windows: `C:\ProgramData\gemini-cli\settings.json`,
	},
	Env:           "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
	NamesFoldCase: true,
	Sources: []string{
		"@google/gemini-cli 0.61.0: getSystemSettingsPath (GEMINI_CLI_SYSTEM_SETTINGS_PATH, then the path per OS); mcp.allowed and mcp.excluded match server names",
		"@google/gemini-cli 0.61.0: canLoadServer (gemini mcp list, enable) compares names lower-cased and trimmed (normalizeServerId); McpClientManager.isBlockedBySettings compares exactly (conformance/policy_test.go)",
	},
}
