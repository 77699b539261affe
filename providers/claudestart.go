package providers

import (
	"fmt"
	"path/filepath"
	"slices"
)

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
