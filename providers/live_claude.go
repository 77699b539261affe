package providers

import (
	"encoding/json"
	"slices"
	"strings"
)

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
	claudeEnableAll    = "enableAllProjectMcpServers"
	claudeEnabledJSON  = "enabledMcpjsonServers"
	claudeDisabledJSON = "disabledMcpjsonServers"
	claudeDisabledMCP  = "disabledMcpServers"
	claudeTrusted      = "hasTrustDialogAccepted"
	claudeAllowed      = "allowedMcpServers"
	claudeDenied       = "deniedMcpServers"
	claudeManagedOnly  = "allowManagedMcpServersOnly"
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

// keyless puts ProjectKey back in place of the project's key in a member path.
func keyless(path []string, key string) []string {
	out := slices.Clone(path)
	for i, k := range out {
		if k == key {
			out[i] = ProjectKey
		}
	}
	return out
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
	return Wildcard(hostLower(expandRefs(m.URL, getenv)), hostLower(expandRefs(s.URL, getenv)))
}

// hostLower lower-cases the scheme and host of a URL, leaving its path as it is.
func hostLower(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	host, path, _ := strings.Cut(rest, "/")
	out := strings.ToLower(scheme) + "://" + strings.TrimSuffix(strings.ToLower(host), ".")
	if path != "" || strings.Contains(rest, "/") {
		out += "/" + path
	}
	return out
}

// Wildcard reports whether s matches pattern, in which * stands for any text ("/"
// included) and every other character for itself.
func Wildcard(pattern, s string) bool {
	star, mark := -1, 0
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(pattern) && pattern[i] == '*':
			star, mark = i, j
			i++
		case i < len(pattern) && pattern[i] == s[j]:
			i++
			j++
		case star >= 0:
			i, mark = star+1, mark+1
			j = mark
		default:
			return false
		}
	}
	for i < len(pattern) && pattern[i] == '*' {
		i++
	}
	return i == len(pattern)
}

// expandRefs replaces ${VAR} and ${VAR:-default} in s.
func expandRefs(s string, getenv func(string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			return b.String() + s
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return b.String() + s
		}
		b.WriteString(s[:i])
		name, def, hasDef := strings.Cut(s[i+2:i+j], ":-")
		if v := getenv(name); v != "" || !hasDef {
			b.WriteString(v)
		} else {
			b.WriteString(def)
		}
		s = s[i+j+1:]
	}
}

// flag reads a boolean member of a file: false when it is not there or not true.
func flag(f Files, file string, path ...string) bool {
	raw, ok := f.Member(file, path...)
	var v bool
	return ok && json.Unmarshal(raw, &v) == nil && v
}

// stringsAt reads an array of strings member of a file.
func stringsAt(f Files, file string, path ...string) []string {
	raw, ok := f.Member(file, path...)
	var out []string
	if !ok || json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}
