// Package explain says whether a client starts a server when it starts in a directory,
// and which rule decides it (SPEC E1, E2): it reads every file the client reads, in
// the client's order, then applies the client's precedence, switches, lists, trust,
// approval and managed policy (providers.Live) and checks the environment the
// client's servers get (the command on its PATH, the variables they reference). It
// reads and never writes; it prints no value, only names, files and lines.
package explain

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// Request is what explain looks at.
type Request struct {
	// Providers are the clients asked about.
	Providers []*providers.Provider
	// Dir is the directory the clients start in (absolute).
	Dir string
	// Env locates the clients' files (home, system, variables); each client's project
	// is found from Dir by its own rule.
	Env providers.PathEnv
	// Getenv reads the environment the clients start in (PATH, referenced variables).
	Getenv func(string) string
	// CheckSecret checks that a reference to a secret store resolves, without its
	// value (S4); nil checks none.
	CheckSecret render.SecretCheck
	// Org, when set, is mcpwire's own organisation server policy (the layers'
	// mcp-policy.json, G1): an entry it denies is said to be so, whoever wrote it (G2).
	Org OrgPolicy
}

// OrgPolicy is mcpwire's organisation server policy as explain consults it.
type OrgPolicy interface {
	// Judge says whether the policy denies server name (its entry as read back), and
	// the rule and the layer file that hold it.
	Judge(name string, s *registry.Server) (denied bool, r providers.Rule)
}

// Managed is the scope of the entries of an administrator's file (Claude Code's
// managed-mcp.json, Gemini CLI's system settings).
const Managed providers.Scope = "managed"

// Verdict is whether a client starts a server from one of its entries (E1).
type Verdict struct {
	// Server is the server's name (E2 lists several).
	Server   string          `json:"-"`
	Provider string          `json:"provider"`
	Scope    providers.Scope `json:"scope"`
	Live     bool            `json:"live"`
	// Reason is the rule that decides, in words.
	Reason string `json:"reason"`
	// File and Line are where the deciding rule is (the entry itself when it is live
	// or nothing else in a file decides); "" and 0 when no file holds it.
	File string `json:"file"`
	Line int    `json:"line"`
	// Source and SourceLine are the entry's own file and line ("" for a client asked
	// about that has no entry of the name).
	Source     string `json:"-"`
	SourceLine int    `json:"-"`
	// Loaded: the client loads the entry — it wins, and nothing turns it off — whether
	// or not it can start it (its command on its PATH, its variables).
	Loaded bool `json:"-"`
}

// Server says, for each client of the request, whether it starts server name when
// it starts in the request's directory: one verdict per entry of that name in a file
// the client reads, in the client's order, and, for a client with none, one saying so
// when all is set (the client was asked about by name).
func Server(f fsys.FS, r Request, name string, all bool) []Verdict {
	c := newCache(f)
	// the other entries are listed by name alone, unless the verdict of this one
	// depends on them (a client that collapses entries starting the same server, or
	// skips a file over one entry it cannot use)
	only, full := render.NewClientReader(c).Only(name), render.NewClientReader(c)
	var out []Verdict
	for _, p := range r.Providers {
		reader := only
		if l := p.Liveness(); l.Collapse || l.DropsBadFiles {
			reader = full
		}
		cl := r.client(c, reader, p)
		vs := cl.verdicts(name)
		if len(vs) == 0 {
			// a file it cannot read may hold one
			vs = cl.verdicts("")
			for i := range vs {
				vs[i].Server = name
			}
		}
		if len(vs) == 0 && all {
			vs = []Verdict{{Server: name, Provider: p.Name, Reason: "no entry of that name in any file " + p.Display + " reads here"}}
		}
		out = append(out, vs...)
	}
	return out
}

// Client lists the servers a client reads entries of when it starts in the request's
// directory (E2), each with its verdicts, in the client's order of its sources; a file
// it cannot read is a verdict with no server name.
func Client(f fsys.FS, r Request, p *providers.Provider) []Verdict {
	c := newCache(f)
	cl := r.client(c, render.NewClientReader(c), p)
	var out []Verdict
	seen := map[string]bool{}
	for _, e := range cl.entries {
		if !seen[e.name] {
			seen[e.name] = true
			out = append(out, cl.verdicts(e.name)...)
		}
	}
	return out
}

// Live reports whether any verdict is live for each client asked: the exit status of
// explain SERVER (0 when the server is live in every client asked about).
func Live(vs []Verdict) bool {
	live := map[string]bool{}
	for _, v := range vs {
		live[v.Provider] = live[v.Provider] || v.Live
	}
	for _, ok := range live {
		if !ok {
			return false
		}
	}
	return len(live) > 0
}

// client is one client's reading of its files where it starts, and its verdicts.
type client struct {
	r       Request
	p       *providers.Provider
	l       *providers.Live
	w       providers.Where
	fs      files
	entries []*entry
	// trusted and trust: whether the client trusts the project (the rule that says so)
	trusted bool
	trust   providers.Rule
	// exclusive is the file of an exclusive source that exists ("" when none)
	exclusive string
}

// entry is one entry of a file the client reads, and what became of it.
type entry struct {
	name   string
	src    providers.Source
	scope  providers.Scope
	file   string
	format format.Format
	ct     format.Container
	path   []string // the entry's member path in file
	json   json.RawMessage
	server *registry.Server // read back; nil when it cannot be
	err    error            // why it cannot be read back
	by     *providers.Provider

	// verdict
	live   bool
	reason string
	rule   providers.Rule
	// notes are said of a live entry (a variable not set)
	notes []string
	// winner is the entry the client uses instead of this one
	winner *entry
	// skip: why the client skips the entry's whole file ("": it does not)
	skip string
	// switched is the entry's own switch: off (false), on (true), none (nil)
	switched *bool
	// loaded: the client loads the entry (it wins and nothing turns it off), whether or
	// not it can start it
	loaded bool
}

// bad says why the client cannot use an entry ("" when it can): it cannot be read
// back, or it names neither a command nor a URL.
func (e *entry) bad() string {
	switch {
	case e.err != nil:
		return "cannot be read: " + e.err.Error()
	case e.server != nil && e.server.Command == "" && e.server.URL == "":
		return "has neither a command nor a URL"
	}
	return ""
}

// switchOf reads the per-entry switch of a client from an entry as standard JSON: on
// or off, or nil when the entry does not say (or the client has no switch).
func switchOf(p *providers.Provider, entry json.RawMessage) *bool {
	if p.Switch == "" {
		return nil
	}
	var m map[string]json.RawMessage
	var v bool
	if json.Unmarshal(entry, &m) != nil || json.Unmarshal(m[p.Switch], &v) != nil {
		return nil
	}
	on := v
	if p.Switch == "disabled" {
		on = !v
	}
	return &on
}

// client reads a client's files where it starts and decides each entry.
func (r Request) client(c *cache, reader *render.ClientReader, p *providers.Provider) *client {
	l := p.Liveness()
	root := findRoot(c, r.Dir, l.Root)
	env := r.Env
	env.Project = root
	w := providers.Where{Start: r.Dir, Root: root, Key: projectKey(root, env.GOOS), Env: env}
	cl := &client{r: r, p: p, l: l, w: w, fs: files{c: c, p: p, w: w}}
	for _, s := range l.Sources {
		cl.read(reader, s)
	}
	cl.decide()
	return cl
}

// gitTop is the top of the git work tree holding dir: the nearest directory, dir
// included, with a .git entry; "" outside one.
func gitTop(c *cache, dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := c.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// findRoot is the client's project root for a start directory.
func findRoot(c *cache, dir string, rule providers.Root) string {
	if top := gitTop(c, dir); rule == providers.RootGit && top != "" {
		return top
	}
	return dir
}

// dirs are the directories a source's project file is looked for in, the nearest
// first.
func (cl *client) dirs(s providers.Source) []string {
	if s.Walk == providers.WalkNone {
		if d, _ := cl.fs.dest(s.At); d != nil && d.FromCwd {
			return []string{cl.w.Start} // a project file the client looks for where it starts
		}
		return []string{cl.w.Root}
	}
	end := cl.w.Root
	switch s.Walk {
	case providers.WalkTop:
		end = ""
	case providers.WalkGit:
		end = gitTop(cl.fs.c, cl.w.Start)
	}
	var out []string
	for d := filepath.Clean(cl.w.Start); ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == end || filepath.Dir(d) == d {
			return out
		}
	}
}

// read reads the entries of one source.
func (cl *client) read(reader *render.ClientReader, s providers.Source) {
	d, by := cl.fs.dest(s.At)
	if by == nil || d == nil && s.At.System == nil {
		return
	}
	if s.At.Dest != nil {
		by = withDest(by, s.At.Scope, s.At.Dest)
	}
	for _, dir := range cl.dirs(s) {
		path := cl.path(s, dir)
		if path == "" {
			continue
		}
		env := cl.w.Env
		env.Project = dir
		cf, err := reader.OpenAt(by, s.At.Scope, path, env, "")
		if err != nil {
			cl.entries = append(cl.entries, &entry{src: s, scope: s.At.Scope, file: path, by: by, err: err,
				reason: "off: " + cl.p.Display + " cannot read the file: " + err.Error()})
			continue
		}
		if cf == nil {
			continue
		}
		if s.Exclusive && cl.exclusive == "" {
			cl.exclusive = path
		}
		scope := s.At.Scope
		if s.At.System != nil {
			scope = Managed // an administrator's file: a scope of its own
		}
		servers := []string{by.ServersKey}
		if d != nil {
			servers = d.ServersPath(by.ServersKey, projectKey(dir, env.GOOS))
		}
		ct := format.Container{Path: servers, NameKey: by.EntryName}
		skip := ""
		if s.At.System != nil && s.At.System.RootOwned {
			if p := cl.fs.c.insecure(path); p != "" {
				skip = fmt.Sprintf("%s skips %s: %s is not root's alone (owned by root, written by root only)", cl.p.Display, path, p)
			}
		}
		var read []*entry
		for _, e := range cf.Entries {
			if e.Read == nil && e.Err == nil {
				continue // listed by name alone (render.ClientReader.Only): not asked about
			}
			js, _ := cf.EntryJSON(e.Name)
			en := &entry{name: e.Name, src: s, scope: scope, file: path, format: by.Format, ct: ct,
				path: append(slices.Clone(servers), e.Name), json: js, by: by, err: e.Err, skip: skip}
			if e.Read != nil {
				en.server = e.Read.Server
			}
			en.switched = switchOf(by, js)
			read = append(read, en)
		}
		if cl.l.DropsBadFiles && !cl.l.Merge && skip == "" { // merged layers: judged merged (decide)
			for _, e := range read {
				if why := e.bad(); why != "" {
					skip = fmt.Sprintf("%s skips the whole file %s: entry %s %s", cl.p.Display, path, termtext.Quote(e.name), why)
					break
				}
			}
			for _, e := range read {
				e.skip = skip
			}
		}
		cl.entries = append(cl.entries, read...)
	}
}

// path is the file of a source in one directory that exists, "" when none does.
func (cl *client) path(s providers.Source, dir string) string {
	if s.At.Dest == nil && s.At.System == nil && s.Walk == providers.WalkNone {
		// the client's own file of a scope, chosen as inject chooses it (a packaged
		// build's copy, a file the client yields to)
		_, by := cl.fs.dest(s.At)
		env := cl.w.Env
		env.Project = dir
		path, exists, err := render.ClientPath(cl.fs.c, by, s.At.Scope, env)
		if err != nil || !exists {
			return ""
		}
		return path
	}
	if s.At.System != nil {
		// read whatever its owner: the entries of a file the client skips say why
		if p := s.At.System.Path(cl.w.Env); p != "" && cl.fs.c.exists(p) {
			return p
		}
		return ""
	}
	for _, c := range cl.fs.candidates(s.At, dir) {
		if cl.fs.c.exists(c) {
			return c
		}
	}
	return ""
}

// line is the line of an entry in its file.
func (e *entry) line(c *cache) int {
	return c.line(e.file, e.format, e.ct, e.path, "")
}

// verdicts are the verdicts of every entry of a name.
func (cl *client) verdicts(name string) []Verdict {
	var out []Verdict
	for _, e := range cl.entries {
		if e.name != name {
			continue
		}
		v := Verdict{Server: name, Provider: cl.p.Name, Scope: e.scope, Live: e.live, Reason: e.reason,
			Source: e.file, SourceLine: e.line(cl.fs.c), Loaded: e.loaded}
		v.File, v.Line = e.rule.File, cl.ruleLine(e.rule)
		if e.winner != nil {
			v.File, v.Line = e.winner.file, e.winner.line(cl.fs.c)
		}
		if v.File == "" {
			v.File, v.Line = v.Source, v.SourceLine
		}
		out = append(out, v)
	}
	return out
}

// ruleLine is the line of a rule's member in its file: of the deepest member of its
// path the file has (the place the rule would be written when it is not there).
func (cl *client) ruleLine(r providers.Rule) int {
	path := keyed(r.Path, cl.w.Key)
	for i := len(path); i > 0 && r.File != ""; i-- {
		elem := r.Elem
		if i < len(path) {
			elem = ""
		}
		if l := cl.fs.c.line(r.File, formatOf(r.File), format.Container{}, path[:i], elem); l > 0 {
			return l
		}
	}
	return 0
}

// withDest is a copy of a client whose file of a scope is d (a file the client reads
// that no scope of its table entry names: Codex's project file, oh-my-pi's
// .omp/.mcp.json), read with the client's spelling.
func withDest(p *providers.Provider, scope providers.Scope, d *providers.Dest) *providers.Provider {
	q := *p
	switch scope {
	case providers.Project:
		q.Project = d
	case providers.Local:
		q.Local = d
	default:
		q.User = d
	}
	return &q
}
