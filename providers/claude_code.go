package providers

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// claudeCodeClient is Claude Code.
var claudeCodeClient = &Provider{
	Name: "claude-code", Display: "Claude Code", DefaultScope: Project,
	Order: 10, Aliases: []string{"claude"},
	dialect: newClaude,
	Project: &Dest{Base: ProjectDir, Files: []string{".mcp.json"}},
	// local (V11): the project's own servers in ~/.claude.json, keyed by the project's
	// absolute path (the git root, else the working directory)
	Local:  &Dest{Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}, Servers: []string{"projects", ProjectKey, "mcpServers"}},
	User:   &Dest{Env: "CLAUDE_CONFIG_DIR", Base: Home, Files: []string{".claude.json"}},
	Format: format.JSON, ServersKey: "mcpServers", Refs: refDollar,
	Remote: RemoteHTTPAndSSE, Deny: denyClaudeSettings, Allow: AllowRefused,
	Binary: "claude", Ephemeral: true, ReservedRefs: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "NPM_TOKEN"}, HeadersHelper: true,
	Settings: map[Scope]*Dest{
		Project: {Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
		Local:   {Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
		User:    {Env: "CLAUDE_CONFIG_DIR", Base: Home, Dir: []string{".claude"}, Files: []string{"settings.json"}},
	},
	Install: &Install{Legacy: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}},
		Inside: []string{"CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_CODE_DESKTOP_APP_VERSION"}},
	Sources: []string{"code.claude.com/docs/en/mcp", "code.claude.com/docs/en/permissions", "code.claude.com/docs/en/settings",
		"github.com/anthropics/claude-code/issues/48448", "claude 2.1.328 tested: local scope keyed by the git root (research/clients-facts.md)",
		"FunplayAI/funplay-cocos-mcp#22 (Windows: projects keys with forward slashes)"},
	Conformance: true,
	// code.claude.com/docs/en/mcp, "Scope hierarchy and precedence"
	Precedence: []Scope{Local, Project, User},
	Live:       claudeLive,
	admin:      claudeCodeAdmin,
}

func init() { register(claudeCodeClient) }

// claude is Claude Code's mcpServers entry: {command, args, env} for stdio and
// {type, url, headers} for remote servers (the type kept). Its tool filters are not in
// the entries: deny filters become permission rules (mcp__SERVER__TOOL) in a Claude
// settings file (C2), and a toolAllow is refused, since Claude Code has no
// restrict-only allowlist (F3). A standalone file is loaded with --mcp-config and,
// with --strict-mcp-config, alone (C5).
type claude struct {
	base
	p *Provider
}

func newClaude(p *Provider) Dialect { return claude{p: p} }

// Entry writes a remote server's secret headers as the headersHelper command (S2),
// which Claude Code runs through a shell and whose JSON output it sends as headers.
func (d claude) Entry(s *registry.Server, v *Values, sf *ServerFilters) format.Object {
	e := typedEntry(d.p, s, v, sf)
	if v.HeadersHelper != "" {
		e.Set(claudeHeadersHelper, v.HeadersHelper)
	}
	return e
}

// claudeHeadersHelper is the member of a command that prints a remote server's headers.
const claudeHeadersHelper = "headersHelper"

// claudeOwn are Claude Code's members with no registry equivalent (a headersHelper
// that runs mcpwire headers has one: the secrets it names).
var claudeOwn = []string{"timeout", claudeHeadersHelper, "alwaysLoad", "oauth"}

// Read reads an entry back: type, launch members, and the secrets of a headersHelper
// that runs mcpwire headers. Its filters are deny rules in a settings file, not in the
// entry (ReadRules).
func (d claude) Read(entry json.RawMessage) (*Imported, error) {
	r, s, err := readTyped(d.p, entry)
	if err != nil {
		return nil, err
	}
	var helper string
	if raw, ok := r.get(claudeHeadersHelper); ok && json.Unmarshal(raw, &helper) == nil && s.URL != "" && ReadHeadersHelper(helper, s) {
		r.use(claudeHeadersHelper)
	}
	return r.done(s, nil, claudeOwn...)
}

func (claude) Filters() FilterSpec { return FilterSpec{Deny: true, AllowRefused: true, DenyAll: true} }

// rulePrefix is the permission-rule prefix of a server: mcp__ and the name with every
// character outside [A-Za-z0-9_-] replaced by "_" (F3).
func rulePrefix(name string) string {
	return "mcp__" + strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// DenyRules: deny filters are permission rules of Claude Code's settings files.
func (d claude) DenyRules() DenyRules { return d }

// claudePermissions is the write layer's directory of the records of the deny rules
// mcpwire added to Claude Code's settings files (C3).
const claudePermissions = "claude-tool-permissions"

// RecordDir is the directory of the deny rules' records.
func (claude) RecordDir() string { return claudePermissions }

// Rules renders deny filters as permission rules: mcp__SERVER for a whole-server
// deny, mcp__SERVER__TOOL otherwise (F3).
func (claude) Rules(fs *FilterSet) []string {
	var rules []string
	for _, n := range slices.Sorted(maps.Keys(fs.Servers)) {
		sf := fs.Servers[n]
		srv := rulePrefix(n)
		if sf.DenyAll {
			rules = append(rules, srv)
			continue
		}
		for _, t := range sf.Deny {
			rules = append(rules, srv+"__"+t)
		}
	}
	return rules
}

// Owns reports whether a permission rule is a server's.
func (claude) Owns(rule, server string) bool {
	prefix := rulePrefix(server)
	return rule == prefix || strings.HasPrefix(rule, prefix+"__")
}

// ReadRules reads deny rules back as filters (the inverse of Rules), for the
// servers named: mcp__SERVER is a whole-server deny, mcp__SERVER__TOOL a tool's. A
// rule belongs to the server with the longest prefix it matches; others are left.
func (claude) ReadRules(rules, servers []string) map[string]*ServerFilters {
	byPrefix := make(map[string]string, len(servers)) // the first server of each prefix
	for _, s := range servers {
		if p := rulePrefix(s); byPrefix[p] == "" {
			byPrefix[p] = s
		}
	}
	out := map[string]*ServerFilters{}
	for _, rule := range rules {
		// the longest server prefix the rule is, or starts with before "__TOOL": the
		// rule whole, then up to each "__" from the last (K7: every rule looked up,
		// not compared with every server)
		s, tool := byPrefix[rule], ""
		for k := len(rule) - 3; s == "" && k > 0; k-- {
			if rule[k] == '_' && rule[k+1] == '_' {
				s, tool = byPrefix[rule[:k]], rule[k+2:]
			}
		}
		if s == "" {
			continue
		}
		if out[s] == nil {
			out[s] = &ServerFilters{}
		}
		if tool == "" || tool == "*" {
			out[s].DenyAll = true
		} else {
			out[s].Deny = AppendNew(out[s].Deny, []string{tool})
		}
	}
	return out
}

// Launch loads exactly the standalone file (--strict-mcp-config comes last, which
// also ends --mcp-config's list of files before any argument of the person's), with
// the deny-rule sidecar as settings when there is one.
func (d claude) Launch(out, settings string) (Launch, bool) {
	args := []string{"--mcp-config", out}
	if settings != "" {
		args = append(args, "--settings", settings)
	}
	return Launch{Binary: d.p.Binary, Args: append(args, "--strict-mcp-config"), Exact: true}, true
}

// CheckNames refuses servers whose names sanitise to the same Claude Code permission
// prefix (F3, L14): "my.server" and "my_server" both become mcp__my_server, so a deny
// rule written for one would also restrict the other, and removing one's rules would
// free the other's tools (B7: uninjecting one would leave the other unrestricted).
// It names every such group, in the selection and against the servers already in the
// destination (present).
func (claude) CheckNames(names, present []string) error {
	return checkClashes(names, present, rulePrefix, "Claude Code cannot tell these servers apart in permission rules")
}

// Claude Code's approval of a project's .mcp.json servers: settings members (in
// ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json) and
// the per-project state in ~/.claude.json (projects["<abs dir>"]).
const (
	claudeEnableAll    = "enableAllProjectMcpServers"
	claudeEnabledJSON  = "enabledMcpjsonServers"
	claudeDisabledJSON = "disabledMcpjsonServers"
	claudeDisabledMCP  = "disabledMcpServers"
	claudeTrusted      = "hasTrustDialogAccepted"
	claudeProjects     = "projects"
)

// StartBlockers says what of Claude Code's own state keeps servers from starting: a
// server switched off for the project (disabledMcpServers, /mcp), and for .mcp.json
// a server the person disabled (disabledMcpjsonServers) or has not approved yet
// (enabledMcpjsonServers, enableAllProjectMcpServers), and a project not trusted yet.
// Each list is read once, into a set (K7: 200,000 servers, and lists as long, are
// not compared name by name).
func (d claude) StartBlockers(st *StartState) [][]string {
	out := make([][]string, len(st.Names))
	var lists blockerLists
	var why []string // one entry's, made again for each
	state := d.userFile(st)
	var off map[string]bool
	var offWhy string
	if st.Project != "" && state != "" {
		off = st.set(state, claudeProjects, st.Project, claudeDisabledMCP)
		offWhy = fmt.Sprintf("switched off for %s in Claude Code (%s in %s)", st.Project, claudeDisabledMCP, state)
	}
	if st.Scope != Project || st.Project == "" {
		for i, n := range st.Names {
			if off[n] {
				out[i] = lists.of(offWhy)
			}
		}
		return out
	}
	settings := d.settingsFiles(st)
	enableAll := false
	enabled := map[string]bool{}
	for _, f := range settings {
		enableAll = enableAll || st.flag(f, claudeEnableAll)
		for _, n := range st.strings(f, claudeEnabledJSON) {
			enabled[n] = true
		}
	}
	if state != "" {
		for _, n := range st.strings(state, claudeProjects, st.Project, claudeEnabledJSON) {
			enabled[n] = true
		}
	}
	disabled := d.disabledIn(st, settings, state)
	trusted := state != "" && st.flag(state, claudeProjects, st.Project, claudeTrusted)
	for i, n := range st.Names {
		why = why[:0]
		if off[n] {
			why = append(why, offWhy)
		}
		if w, ok := disabled[n]; ok {
			why = append(why, w)
		} else if !enableAll && !enabled[n] {
			why = append(why, "not approved in Claude Code yet: it asks when it starts ("+claudeEnabledJSON+")")
		}
		if !trusted {
			why = append(why, "project not trusted in Claude Code yet: it asks when it starts ("+claudeTrusted+")")
		}
		out[i] = lists.of(why...)
	}
	return out
}

// disabledIn says of each server a disabledMcpjsonServers names that it is disabled,
// and in which file: the first that names it, the settings files in order, then the
// project's state.
func (claude) disabledIn(st *StartState, settings []string, state string) map[string]string {
	out := map[string]string{}
	add := func(f string, names []string) {
		why := fmt.Sprintf("disabled for this project in Claude Code (%s in %s)", claudeDisabledJSON, f)
		for _, n := range names {
			if _, ok := out[n]; !ok {
				out[n] = why
			}
		}
	}
	for _, f := range settings {
		add(f, st.strings(f, claudeDisabledJSON))
	}
	if state != "" {
		add(state, st.strings(state, claudeProjects, st.Project, claudeDisabledJSON))
	}
	return out
}

// userFile is the ~/.claude.json that exists, "" when none does.
func (d claude) userFile(st *StartState) string {
	cands, err := d.p.User.Candidates(st.Env)
	if err != nil {
		return ""
	}
	for _, c := range cands {
		if _, ok := st.Read(c, claudeProjects); ok {
			return c
		}
	}
	return ""
}

// settingsFiles are the settings files that can approve a project's servers: the
// user's, and the project's shared and local ones.
func (d claude) settingsFiles(st *StartState) []string {
	var out []string
	for _, scope := range []Scope{User, Project} {
		dest := d.p.Settings[scope]
		if dest == nil {
			continue
		}
		cands, err := dest.Candidates(st.Env)
		if err != nil {
			continue
		}
		out = append(out, cands...)
		if scope == Project {
			out = append(out, filepath.Join(filepath.Dir(cands[0]), "settings.json"))
		}
	}
	return out
}

// denyClaudeSettings is how the client takes deny filters.
const denyClaudeSettings DenyStyle = "permissions.deny in Claude settings"

// Claude Code's liveness (code.claude.com/docs/en/mcp "Scope hierarchy and
// precedence", /en/managed-mcp, /en/settings; claude 2.1.328 tested, docs/explain.md):
// the managed managed-mcp.json, when present, is all it loads; else local over
// project over user, whole entries. Project servers are every .mcp.json from the
// directory it starts in up to the filesystem's root, the nearest first; they wait
// for the project's trust and the person's approval, and while they wait a user
// entry of the same name is used. disabledMcpServers (per project, /mcp) switches any
// server off; allowedMcpServers and deniedMcpServers, from every settings file and
// the managed one, filter by name, command or URL.
func claudeLive() *Live {
	return &Live{
		Root: RootGit,
		Sources: []Source{
			{At: At{Scope: User, System: claudeManagedMCP}, Exclusive: true, Label: "managed"},
			{At: At{Scope: Local}},
			{At: At{Scope: Project}, Walk: WalkTop, Trust: true, Approve: true},
			{At: At{Scope: User}},
		},
		Trust:    claudeTrust{},
		Approval: claudeApproval{},
		Lists:    []NameList{{At: At{Scope: User}, Path: []string{"projects", ProjectKey, claudeDisabledMCP}}},
		Policy:   claudePolicy{},
	}
}

// Claude Code's administrator files, per OS.
var (
	claudeManagedMCP = &SystemFile{
		Darwin:  "/Library/Application Support/ClaudeCode/managed-mcp.json",
		Windows: `%ProgramFiles%\ClaudeCode\managed-mcp.json`,
		Other:   "/etc/claude-code/managed-mcp.json",
	}
	claudeManagedSettings = &SystemFile{
		Darwin:  "/Library/Application Support/ClaudeCode/managed-settings.json",
		Windows: `%ProgramFiles%\ClaudeCode\managed-settings.json`,
		Other:   "/etc/claude-code/managed-settings.json",
	}
)

// Claude Code's members of liveness: settings, and its per-project state in
// ~/.claude.json (projects["<project>"]).
const (
	claudeAllowed     = "allowedMcpServers"
	claudeDenied      = "deniedMcpServers"
	claudeManagedOnly = "allowManagedMcpServersOnly"
)

// claudeSettings are Claude Code's settings files: the user's, the project's shared
// and local ones (in the project and in the directory it starts in), the managed one.
var claudeSettings = []At{
	{Dest: &Dest{Env: "CLAUDE_CONFIG_DIR", Base: Home, Dir: []string{".claude"}, Files: []string{"settings.json"}}},
	{Dest: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.json"}}},
	{Dest: &Dest{Base: ProjectDir, Dir: []string{".claude"}, Files: []string{"settings.local.json"}}},
}

// claudeSettingsFiles are the settings files that exist, the managed one first.
func claudeSettingsFiles(f Files, w Where) (managed string, all []string) {
	if m := f.Resolve(At{System: claudeManagedSettings}); len(m) > 0 {
		managed = m[0]
		all = append(all, managed)
	}
	for _, at := range claudeSettings {
		for _, file := range f.Resolve(at, w.Root, w.Start) {
			if !slices.Contains(all, file) {
				all = append(all, file)
			}
		}
	}
	return managed, all
}

// claudeState is ~/.claude.json, "" when there is none.
func claudeState(f Files) string {
	if s := f.Resolve(At{Scope: User}); len(s) > 0 {
		return s[0]
	}
	return ""
}

// claudeTrust: projects["<project>"].hasTrustDialogAccepted in ~/.claude.json, the
// project's own key only (a trusted parent does not count).
type claudeTrust struct{}

func (claudeTrust) Trusted(f Files, w Where) (bool, Rule) {
	state := claudeState(f)
	path := []string{"projects", ProjectKey, claudeTrusted}
	if state != "" && flag(f, state, "projects", w.Key, claudeTrusted) {
		return true, Rule{Text: "Claude Code trusts " + w.Root, File: state, Path: path}
	}
	r := Rule{Text: "Claude Code does not trust " + w.Root + " yet: it asks when it starts there, and starts no project server until then (" + claudeTrusted + ")"}
	if state != "" {
		r.File, r.Path = state, path
	}
	return false, r
}

// claudeApproval: a .mcp.json server starts once approved: named in
// enabledMcpjsonServers, or enableAllProjectMcpServers set, in a settings file or the
// project's state; named in disabledMcpjsonServers anywhere, it stays off.
type claudeApproval struct{}

func (claudeApproval) Approved(f Files, w Where, _ Source, name string, _ json.RawMessage) (bool, Rule) {
	_, settings := claudeSettingsFiles(f, w)
	state := claudeState(f)
	type place struct {
		file string
		path []string
	}
	var places []place
	for _, s := range settings {
		places = append(places, place{s, nil})
	}
	if state != "" {
		places = append(places, place{state, []string{"projects", w.Key}})
	}
	member := func(p place, m string) []string { return append(slices.Clone(p.path), m) }
	for _, p := range places {
		if slices.Contains(stringsAt(f, p.file, member(p, claudeDisabledJSON)...), name) {
			return false, Rule{Text: "disabled for this project: named in " + claudeDisabledJSON + " of " + p.file,
				File: p.file, Path: keyless(member(p, claudeDisabledJSON), w.Key), Elem: name}
		}
	}
	for _, p := range places {
		if flag(f, p.file, member(p, claudeEnableAll)...) {
			return true, Rule{Text: claudeEnableAll + " in " + p.file, File: p.file, Path: keyless(member(p, claudeEnableAll), w.Key)}
		}
		if slices.Contains(stringsAt(f, p.file, member(p, claudeEnabledJSON)...), name) {
			return true, Rule{Text: "approved in " + claudeEnabledJSON + " of " + p.file, File: p.file,
				Path: keyless(member(p, claudeEnabledJSON), w.Key), Elem: name}
		}
	}
	return false, Rule{Text: "not approved in Claude Code yet: it asks when it starts (" + claudeEnabledJSON + ")"}
}

// claudePolicy: deniedMcpServers from every settings file and the managed one, then
// allowedMcpServers (the managed one's alone with allowManagedMcpServersOnly): a
// server matching a deny entry by name, command or URL is off; with an allowlist set
// anywhere, a remote server must match a serverUrl entry and a stdio server a
// serverCommand entry (a serverName entry counts where the list has none of those);
// servers of managed-mcp.json skip the allowlist.
type claudePolicy struct{}

// claudeMatch is one entry of allowedMcpServers or deniedMcpServers.
type claudeMatch struct {
	Name    string   `json:"serverName"`
	Command []string `json:"serverCommand"`
	URL     string   `json:"serverUrl"`
}

func (claudePolicy) Judge(f Files, w Where, s PolicyServer) (bool, Rule) {
	managed, settings := claudeSettingsFiles(f, w)
	getenv := w.Env.env()
	entries := func(file, member string) ([]claudeMatch, bool) {
		raw, ok := f.Member(file, member)
		var out []claudeMatch
		if !ok || json.Unmarshal(raw, &out) != nil {
			return nil, false
		}
		return out, true
	}
	for _, file := range settings {
		list, _ := entries(file, claudeDenied)
		for _, m := range list {
			if m.Name != "" && m.Name == s.Name || m.matchesCommand(s, getenv) || m.matchesURL(s, getenv) {
				return true, Rule{Text: "denied by " + claudeDenied + " of " + file + " (" + m.what() + ")", File: file, Path: []string{claudeDenied}}
			}
		}
	}
	if s.Managed {
		return false, Rule{}
	}
	onlyManaged := managed != "" && flag(f, managed, claudeManagedOnly)
	var allow []claudeMatch
	var from []string
	for _, file := range settings {
		if onlyManaged && file != managed {
			continue
		}
		if list, ok := entries(file, claudeAllowed); ok {
			allow = append(allow, list...)
			from = append(from, file)
		}
	}
	if len(from) == 0 {
		return false, Rule{}
	}
	remote := s.URL != ""
	keyed := false
	for _, m := range allow {
		keyed = keyed || remote && m.URL != "" || !remote && len(m.Command) > 0
	}
	for _, m := range allow {
		if m.matchesURL(s, getenv) || m.matchesCommand(s, getenv) || !keyed && m.Name != "" && m.Name == s.Name {
			return false, Rule{}
		}
	}
	how := "its name"
	if keyed && remote {
		how = "its URL"
	} else if keyed {
		how = "its command"
	}
	return true, Rule{Text: "not allowed by " + claudeAllowed + " of " + strings.Join(from, ", ") + ", which does not match " + how,
		File: from[0], Path: []string{claudeAllowed}}
}

func (m claudeMatch) what() string {
	switch {
	case m.Name != "":
		return "serverName"
	case len(m.Command) > 0:
		return "serverCommand"
	}
	return "serverUrl"
}

// matchesCommand: a serverCommand entry equal to a stdio server's command and
// arguments, each side's ${VAR} expanded.
func (m claudeMatch) matchesCommand(s PolicyServer, getenv func(string) string) bool {
	if len(m.Command) == 0 || len(s.Command) != len(m.Command) {
		return false
	}
	for i := range m.Command {
		if expandRefs(m.Command[i], getenv) != expandRefs(s.Command[i], getenv) {
			return false
		}
	}
	return true
}

// matchesURL: a serverUrl pattern (* anywhere) matching a remote server's URL, the
// host compared without case.
func (m claudeMatch) matchesURL(s PolicyServer, getenv func(string) string) bool {
	if m.URL == "" || s.URL == "" {
		return false
	}
	return policy.Wildcard(hostLower(expandRefs(m.URL, getenv)), hostLower(expandRefs(s.URL, getenv)))
}

// claudeCodeAdmin is where an administrator's policy for the client is, and what it says (G3).
var claudeCodeAdmin = &AdminPolicy{
	Style: AdminServerLists,
	Paths: AdminPaths{
		Darwin:  "/Library/Application Support/ClaudeCode/managed-settings.json",
		Linux:   "/etc/claude-code/managed-settings.json",
		Windows: `C:\Program Files\ClaudeCode\managed-settings.json`,
	},
	Servers: AdminPaths{
		Darwin:  "/Library/Application Support/ClaudeCode/managed-mcp.json",
		Linux:   "/etc/claude-code/managed-mcp.json",
		Windows: `C:\Program Files\ClaudeCode\managed-mcp.json`,
	},
	KindBinds:   true,
	OnlyManaged: "allowManagedMcpServersOnly",
	Sources: []string{
		"https://code.claude.com/docs/en/managed-mcp",
		"@anthropic-ai/claude-code 2.1.328: the managed settings directory per OS, and the schema of allowedMcpServers/deniedMcpServers (exactly one of serverName, serverCommand, serverUrl)",
	},
}
