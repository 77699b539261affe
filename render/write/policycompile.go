package write

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// CompiledFile is one client's admin file for one operating system (G3).
type CompiledFile struct {
	Provider string `json:"provider"`
	GOOS     string `json:"goos"`
	// System is where the client reads the file on that system.
	System string `json:"system"`
	// Rel is the file under the output directory: GOOS, then System without its
	// volume, with forward slashes.
	Rel  string `json:"path"`
	Data []byte `json:"-"`
}

// adminSystems are the systems the admin files are compiled for, in order.
var adminSystems = []string{"linux", "darwin", "windows"}

// CompilePolicy renders the layers' server policies into the admin file of every
// client that reads one, for every system it documents a path on (G3), with warnings
// where a client's matching differs from mcpwire's. Nothing is written.
func CompilePolicy(reg *registry.Registry) ([]CompiledFile, []string, error) {
	ps := reg.ServerPolicy()
	if len(ps) == 0 {
		return nil, nil, fmt.Errorf("no configuration layer holds a server policy (%s)", "mcp-policy.json")
	}
	m, warns := ps.Merged()
	var out []CompiledFile
	for _, p := range providers.All() {
		a := p.Admin()
		if a == nil {
			continue
		}
		data, ws := compileFor(p, a, m, ps, reg)
		warns = append(warns, ws...)
		if data == nil {
			continue
		}
		for _, goos := range adminSystems {
			sys := a.Paths.Path(goos)
			if sys == "" {
				warns = append(warns, fmt.Sprintf("%s: no documented path for its admin file on %s: none written", p.Display, goos))
				continue
			}
			out = append(out, CompiledFile{Provider: p.Name, GOOS: goos, System: sys, Rel: goos + "/" + relSystem(sys), Data: data})
		}
	}
	return out, warns, nil
}

// relSystem is a system path without its volume or leading separator, with forward
// slashes: C:\Program Files\X → Program Files/X.
func relSystem(sys string) string {
	if len(sys) > 2 && sys[1] == ':' {
		sys = sys[2:]
	}
	return strings.TrimLeft(path.Clean(strings.ReplaceAll(sys, `\`, "/")), "/")
}

func compileFor(p *providers.Provider, a *providers.AdminPolicy, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	switch a.Style {
	case providers.AdminServerLists:
		return serverLists(p, a, m, reg)
	case providers.AdminNameLists:
		return nameLists(p, m, ps, reg)
	case providers.AdminIdentities:
		return identities(p, m, ps, reg)
	}
	return nil, nil
}

// listEntry is one entry of allowedMcpServers / deniedMcpServers.
type listEntry struct {
	ServerName    string   `json:"serverName,omitempty"`
	ServerURL     string   `json:"serverUrl,omitempty"`
	ServerCommand []string `json:"serverCommand,omitempty"`
}

// serverLists writes Claude Code's and Copilot's managed settings. A command rule is
// written as written and, unless it is one already, wrapped in cmd /c as Windows
// configurations spell it: the client compares argv exactly, mcpwire sees through the
// wrapper.
func serverLists(p *providers.Provider, a *providers.AdminPolicy, m *policy.ServerPolicy, reg *registry.Registry) ([]byte, []string) {
	var warns []string
	entries := func(rules []policy.ServerRule, deny bool) []listEntry {
		out := []listEntry{}
		for _, r := range rules {
			switch {
			case r.Name != "":
				out = append(out, listEntry{ServerName: r.Name})
			case r.URL != "":
				out = append(out, listEntry{ServerURL: r.URL})
			default:
				out = append(out, listEntry{ServerCommand: r.Command})
				if c := policy.Canonical(r.Command); slices.Equal(c, r.Command) {
					out = append(out, listEntry{ServerCommand: append([]string{"cmd", "/c"}, c...)})
				}
				if deny {
					warns = append(warns, fmt.Sprintf("%s: deny rule %s matches that exact argv only: the same package at another version, another flag spelling or another path to the program is another command and passes", p.Display, r))
				}
			}
		}
		return out
	}
	doc := map[string]any{}
	if len(m.Deny) > 0 {
		doc["deniedMcpServers"] = entries(m.Deny, true)
	}
	if !m.AllowUnlisted {
		allowed := entries(m.Allow, false)
		if a.KindBinds {
			pins, ws := kindBindPins(p, m.Allow, reg)
			allowed = append(allowed, pins...)
			warns = append(warns, ws...)
		}
		doc["allowedMcpServers"] = allowed
		if a.OnlyManaged != "" {
			doc[a.OnlyManaged] = true
		}
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n'), warns
}

// kindBindPins: with a command entry in the allow list the client admits a stdio
// server only by a command entry, and with a URL entry a remote one only by a URL
// entry. A server allowed by name is then pinned to the registry's command or URL of
// that name; one the registry lacks cannot be, and is said.
func kindBindPins(p *providers.Provider, allow []policy.ServerRule, reg *registry.Registry) ([]listEntry, []string) {
	var cmds, urls bool
	for _, r := range allow {
		cmds = cmds || len(r.Command) > 0
		urls = urls || r.URL != ""
	}
	var pins []listEntry
	var warns []string
	for _, r := range allow {
		if r.Name == "" || !cmds && !urls {
			continue
		}
		s, ok := reg.Server(r.Name)
		c := policy.Candidate{}
		if ok {
			c = s.Candidate()
		}
		switch {
		case len(c.Command) > 0 && cmds:
			pins = append(pins, listEntry{ServerCommand: c.Command})
			warns = append(warns, fmt.Sprintf("%s: the allow list has command rules, so a stdio server must match one: allow rule %s is written as the registry's command of that name too", p.Display, r))
		case c.URL != "" && urls:
			pins = append(pins, listEntry{ServerURL: c.URL})
			warns = append(warns, fmt.Sprintf("%s: the allow list has url rules, so a remote server must match one: allow rule %s is written as the registry's url of that name too", p.Display, r))
		case !ok:
			warns = append(warns, fmt.Sprintf("%s: the allow list has command or url rules, which a server must match by its kind: allow rule %s names no registry server, so the client may refuse it", p.Display, r))
		}
	}
	return pins, warns
}

// registryNames are the names of the registry's servers the predicate holds for.
func registryNames(reg *registry.Registry, keep func(policy.Candidate) bool) []string {
	var out []string
	for _, n := range reg.ServerNames() {
		s, _ := reg.Server(n)
		if keep(s.Candidate()) {
			out = append(out, n)
		}
	}
	return out
}

// nameLists writes Gemini CLI's system settings: names only. URL and command rules
// become the names of the registry's servers they match, with a warning.
func nameLists(p *providers.Provider, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	var warns []string
	var excluded []string
	for _, r := range m.Deny {
		if r.Name != "" {
			excluded = providers.AppendNew(excluded, []string{r.Name})
			continue
		}
		names := registryNames(reg, r.Matches)
		excluded = providers.AppendNew(excluded, names)
		warns = append(warns, fmt.Sprintf("%s: matches server names only: deny rule %s is written as the registry's servers it matches (%s); the same server under another name passes", p.Display, r, list(names)))
	}
	mcp := map[string]any{"excluded": nonNilStrings(excluded)}
	if !m.AllowUnlisted {
		var allowed []string
		for _, r := range m.Allow {
			if r.Name != "" {
				allowed = providers.AppendNew(allowed, []string{r.Name})
				continue
			}
			names := registryNames(reg, func(c policy.Candidate) bool { return r.Matches(c) && ps.Decide(c) == nil })
			allowed = providers.AppendNew(allowed, names)
			warns = append(warns, fmt.Sprintf("%s: matches server names only: allow rule %s is written as the registry's servers it admits (%s); another server under one of these names passes", p.Display, r, list(names)))
		}
		mcp["allowed"] = nonNilStrings(allowed)
	}
	if len(excluded) == 0 && m.AllowUnlisted {
		return nil, warns
	}
	b, _ := json.MarshalIndent(map[string]any{"mcp": mcp}, "", "  ")
	return append(b, '\n'), warns
}

// identities writes Codex's requirements: an allow list of name and identity pairs,
// one per registry server the policy admits. Codex has no deny list.
func identities(p *providers.Provider, m *policy.ServerPolicy, ps policy.ServerPolicies, reg *registry.Registry) ([]byte, []string) {
	if m.AllowUnlisted {
		if len(m.Deny) == 0 {
			return nil, nil
		}
		return nil, []string{fmt.Sprintf("%s: requirements.toml has no deny list: with allowUnlisted true its deny rules cannot be written there (none written)", p.Display)}
	}
	var warns []string
	var b strings.Builder
	b.WriteString("# mcpwire policy compile: the servers this organisation allows, each by name and identity\n")
	for _, n := range reg.ServerNames() {
		s, _ := reg.Server(n)
		c := s.Candidate()
		if ps.Decide(c) != nil {
			continue
		}
		fmt.Fprintf(&b, "\n[mcp_servers.%s.identity]\n", tomlKey(n))
		if s.Remote() {
			fmt.Fprintf(&b, "url = %s\n", strconv.Quote(s.URL))
			continue
		}
		fmt.Fprintf(&b, "command = %s\n", strconv.Quote(s.Command))
		if len(s.Args) > 0 {
			warns = append(warns, fmt.Sprintf("%s: matches the program of a stdio server, not its arguments: server %q is admitted as command %q with any arguments", p.Display, n, s.Command))
		}
	}
	for _, r := range m.Allow {
		if len(registryNames(reg, r.Matches)) == 0 {
			warns = append(warns, fmt.Sprintf("%s: matches a name and an identity together, taken from the registry: allow rule %s matches no registry server, so Codex admits nothing for it", p.Display, r))
		}
	}
	return []byte(b.String()), warns
}

// tomlKey is a bare TOML key when it can be one, else a quoted one.
func tomlKey(k string) string {
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return strconv.Quote(k)
		}
	}
	return k
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func list(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// WritePolicyFiles writes compiled administrator files under dir, each at its Rel
// path (its directories created), and sets each Rel to the path written.
func WritePolicyFiles(f fsys.FS, dir string, files []CompiledFile) error {
	for i, c := range files {
		path := filepath.Join(dir, filepath.FromSlash(c.Rel))
		if err := fsys.MkdirAll(f, filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := f.WriteFile(path, c.Data, 0o644, nil); err != nil {
			return err
		}
		files[i].Rel = path
	}
	return nil
}
