package dialect

import (
	"fmt"
	"path/filepath"

	"github.com/mcpwire/mcpwire/providers"
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
	if st.Scope != providers.Project || st.Project == "" {
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
	for _, scope := range []providers.Scope{providers.User, providers.Project} {
		dest := d.p.Settings[scope]
		if dest == nil {
			continue
		}
		cands, err := dest.Candidates(st.Env)
		if err != nil {
			continue
		}
		out = append(out, cands...)
		if scope == providers.Project {
			out = append(out, filepath.Join(filepath.Dir(cands[0]), "settings.json"))
		}
	}
	return out
}
