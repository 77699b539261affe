package providers

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
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
	if raw, ok := r.m[claudeHeadersHelper]; ok && json.Unmarshal(raw, &helper) == nil && s.URL != "" && ReadHeadersHelper(helper, s) {
		r.used[claudeHeadersHelper] = true
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
	byLen := slices.Clone(servers)
	sort.Slice(byLen, func(i, j int) bool { return len(rulePrefix(byLen[i])) > len(rulePrefix(byLen[j])) })
	out := map[string]*ServerFilters{}
	for _, rule := range rules {
		for _, s := range byLen {
			prefix := rulePrefix(s)
			tool, isTool := strings.CutPrefix(rule, prefix+"__")
			if rule != prefix && (!isTool || tool == "") {
				continue
			}
			if out[s] == nil {
				out[s] = &ServerFilters{}
			}
			if rule == prefix || tool == "*" {
				out[s].DenyAll = true
			} else {
				out[s].Deny = AppendNew(out[s].Deny, []string{tool})
			}
			break
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
func (d claude) StartBlockers(st *StartState) map[string][]string {
	out := map[string][]string{}
	state := d.userFile(st)
	for _, n := range st.Names {
		if st.Project != "" && state != "" && slices.Contains(st.strings(state, claudeProjects, st.Project, claudeDisabledMCP), n) {
			out[n] = append(out[n], fmt.Sprintf("switched off for %s in Claude Code (%s in %s)", st.Project, claudeDisabledMCP, state))
		}
	}
	if st.Scope != Project || st.Project == "" {
		return out
	}
	settings := d.settingsFiles(st)
	enableAll := false
	var enabled []string
	for _, f := range settings {
		enableAll = enableAll || st.flag(f, claudeEnableAll)
		enabled = append(enabled, st.strings(f, claudeEnabledJSON)...)
	}
	if state != "" {
		enabled = append(enabled, st.strings(state, claudeProjects, st.Project, claudeEnabledJSON)...)
	}
	for _, n := range st.Names {
		if f := d.disabledIn(st, settings, state, n); f != "" {
			out[n] = append(out[n], fmt.Sprintf("disabled for this project in Claude Code (%s in %s)", claudeDisabledJSON, f))
		} else if !enableAll && !slices.Contains(enabled, n) {
			out[n] = append(out[n], "not approved in Claude Code yet: it asks when it starts ("+claudeEnabledJSON+")")
		}
		if state == "" || !st.flag(state, claudeProjects, st.Project, claudeTrusted) {
			out[n] = append(out[n], "project not trusted in Claude Code yet: it asks when it starts ("+claudeTrusted+")")
		}
	}
	return out
}

// disabledIn returns the file whose disabledMcpjsonServers names the server, or "".
func (claude) disabledIn(st *StartState, settings []string, state, name string) string {
	for _, f := range settings {
		if slices.Contains(st.strings(f, claudeDisabledJSON), name) {
			return f
		}
	}
	if state != "" && slices.Contains(st.strings(state, claudeProjects, st.Project, claudeDisabledJSON), name) {
		return state
	}
	return ""
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
