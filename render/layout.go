package render

import (
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/providers"
)

// A file read by more than one client (V10) — the project's .mcp.json is Claude
// Code's, GitHub Copilot CLI's and Qoder CLI's project file — has one ownership record,
// whoever writes it, and one entry per server: each of its writers spells an entry the
// way all of them read it (Claude Code's spelling, no switch unless all have it) and
// keeps the members only the others write, so that writing the same server for two of
// them gives one entry, and either may remove it.

// Layout is where a client's entries sit in one of its files and how they are spelled
// there: what writing them (write) and reading them back (read, status) agree on.
type Layout struct {
	// View is the client as it writes the file (sharedView): itself, or for a file
	// other clients write too, the spelling all of them read.
	View *providers.Provider
	// Writers are the other clients mcpwire writes the file for; Readers every other
	// client that reads it (V10).
	Writers, Readers []*providers.Provider
	// Servers is the path of the servers in the file; Nest the destination's template
	// of it (with providers.ProjectKey); FoldKeys: a project key is matched without
	// case (Windows).
	Servers, Nest []string
	FoldKeys      bool
	// Others are the members the other writers keep in its entries (othersMembers).
	Others []string
}

// NewLayout is the layout of the file at path of client p's scope, for a project.
func NewLayout(p *providers.Provider, scope providers.Scope, path, project string, env providers.PathEnv) *Layout {
	env.Project = project
	d := p.Dest(scope)
	name := fileName(d, path, env)
	writers := p.WritersOf(scope, name)
	key := ""
	if d.Nested() {
		key = ProjectKey(project, env.GOOS) // a real path: resolved only when needed
	}
	return &Layout{View: SharedView(p, writers), Writers: writers, Readers: p.ReadersOf(scope, name),
		Servers: d.ServersPath(p.ServersKey, key), Nest: d.Servers, FoldKeys: env.GOOS == "windows", Others: othersMembers(p, writers)}
}

// ProjectKey is the key a client gives a project in a file shared by every project
// (Claude Code's projects["<abs>"] in ~/.claude.json, V11): the project's real path —
// the client's working directory has its symlinks resolved — with forward slashes on
// Windows, where Claude Code keys its projects that way.
func ProjectKey(project, goos string) string {
	key := CanonicalOrClean(project)
	if goos == "windows" {
		key = strings.ReplaceAll(key, `\`, "/")
	}
	return key
}

// SharedView is the provider as it writes a file other clients write too: its switch
// only when every writer has the same (a server switched off for one reader of the
// entry and on for another would be a trap), and the variables any writer reads as
// empty (V5).
func SharedView(p *providers.Provider, writers []*providers.Provider) *providers.Provider {
	if len(writers) == 0 {
		return p
	}
	v := *p
	for _, w := range writers {
		if w.Switch != v.Switch {
			v.Switch = ""
		}
		// a headers helper only where every reader of the entry runs it (S2)
		v.HeadersHelper = v.HeadersHelper && w.HeadersHelper
		v.ReservedRefs = providers.AppendNew(slices.Clip(v.ReservedRefs), w.ReservedRefs)
	}
	return &v
}

// othersMembers are the members the other writers of a file keep in its entries and p
// does not write — their tool filters (Copilot CLI's tools allowlist) and their cwd
// member (Copilot CLI, Qoder CLI; Claude Code has none) — which an entry p rewrites
// keeps, so that p never undoes what another client of the file needs.
func othersMembers(p *providers.Provider, writers []*providers.Provider) []string {
	own := append(slices.Clone(p.Dialect().Filters().Members), p.CwdKey)
	var out []string
	for _, w := range writers {
		for _, m := range append(w.Dialect().Filters().Members, w.CwdKey) {
			if m != "" && !slices.Contains(own, m) && !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// Container is where the file keeps the client's servers.
func (l *Layout) Container(doc format.Document) format.Container {
	c := format.Container{Path: l.containerIn(doc), NameKey: l.View.EntryName}
	if RuleOf(l.View).Framed {
		c.Frame = l.View.Frame
	}
	return c
}

// containerIn returns the servers path in doc. On Windows a project key that is
// already there and differs only in the case of its letters is used rather than a
// second key: Claude Code keeps the case of the drive letter it was started with.
func (l *Layout) containerIn(doc format.Document) []string {
	i := slices.Index(l.Nest, providers.ProjectKey)
	if !l.FoldKeys || i < 0 {
		return l.Servers
	}
	parent, ok := doc.Lookup(l.Servers[:i]...)
	if !ok || parent.Kind() != format.KindObject {
		return l.Servers
	}
	for _, k := range parent.Keys() {
		if k != l.Servers[i] && strings.EqualFold(k, l.Servers[i]) {
			out := slices.Clone(l.Servers)
			out[i] = k
			return out
		}
	}
	return l.Servers
}

// fileName is the candidate name of the provider's destination that path is (Copilot
// CLI's project file is .mcp.json or .github/mcp.json), "" when none.
func fileName(d *providers.Dest, path string, env providers.PathEnv) string {
	cands, err := d.Candidates(env)
	if err != nil {
		return ""
	}
	for i, c := range cands {
		if c == path && i < len(d.Files) {
			return d.Files[i]
		}
	}
	if d.EnvFile && len(cands) == 1 && cands[0] == path {
		return d.Files[0]
	}
	return ""
}
