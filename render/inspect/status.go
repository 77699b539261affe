package inspect

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/render"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// EntryState is how an entry of a client file stands with mcpwire (B4).
type EntryState string

// Entry states.
const (
	// Owned: mcpwire wrote it and nobody changed it since (record digest matches).
	Owned EntryState = "owned"
	// Drifted: mcpwire wrote it, and it changed since.
	Drifted EntryState = "drifted"
	// Foreign: mcpwire did not write it.
	Foreign EntryState = "foreign"
	// Stale: mcpwire's, unchanged, but no layer defines the server any more.
	Stale EntryState = "stale"
	// Missing: recorded as mcpwire's, gone from the file.
	Missing EntryState = "missing"
)

// StatusEntry is one entry of a client file: its state and what mcpwire can see that
// keeps it from starting. It names variables, commands and files, never a value.
type StatusEntry struct {
	Name  string     `json:"name"`
	State EntryState `json:"state"`
	// Off: the file switches the server off (enabled: false, disabled: true).
	Off bool `json:"off,omitempty"`
	// OriginalKept: mcpwire's entry replaced one of the person's with --force, which
	// the ownership record keeps and puts back when mcpwire removes its own (H1).
	OriginalKept bool `json:"originalKept,omitempty"`
	// Blockers are what keeps it from starting.
	Blockers []string `json:"blockers,omitempty"`
	// Denied is the server policy's rule that denies the entry and its file (G2),
	// whoever wrote the entry; "" when the policy lets it pass.
	Denied string `json:"denied,omitempty"`
	// UsedInstead is the entry of the same name the client uses instead of this one,
	// from a scope that takes precedence (H11); nil when this one is used.
	UsedInstead *UsedEntry `json:"usedInstead,omitempty"`
}

// StatusFile is one client file and its entries.
type StatusFile struct {
	Provider string          `json:"provider"`
	Scope    providers.Scope `json:"scope"`
	Path     string          `json:"path"`
	Entries  []StatusEntry   `json:"entries"`
	// Error is why the file could not be read; it then has no entries.
	Error string `json:"error,omitempty"`
	// Note is what the client needs before it reads a project's file, or who does
	// not read it (the provider's ProjectNote).
	Note string `json:"note,omitempty"`
}

// StatusRequest is what status looks at.
type StatusRequest struct {
	Registry  *registry.Registry
	Providers []*providers.Provider
	// Env locates the files; its Project is the project whose files are included.
	Env providers.PathEnv
	// Getenv reads this environment (referenced variables, PATH).
	Getenv func(string) string
	// Step is called once per provider looked at (progress); nil for none.
	Step func()
	// CheckSecret checks that a reference to a secret store resolves (S4); nil checks
	// none.
	CheckSecret render.SecretCheck

	// notFound remembers, for each command looked up, the blocker of one not found on
	// PATH ("" when it is found): thousands of entries name the same few commands, and
	// each look-up stats every directory of PATH.
	notFound map[string]string
	// checks are the references checked.
	checks *render.SecretChecks
}

// Status lists every file of the request's providers that exists here, user files and
// the project's, with each entry's state and blockers (B4). It reads and never writes.
func Status(f fsys.FS, r StatusRequest) []StatusFile {
	layer := r.Registry.Set().Write().Dir
	read := newDocCache(f)
	r.notFound = map[string]string{}
	r.checks = render.NewSecretChecks(r.CheckSecret)
	cr := render.NewClientReader(f).InParts()
	var out []StatusFile
	for _, p := range r.Providers {
		files, errs := cr.All([]*providers.Provider{p}, r.Env, layer)
		for _, err := range errs {
			out = append(out, StatusFile{Provider: p.Name, Error: err.Error(), Entries: []StatusEntry{}})
		}
		for _, c := range files {
			if c.Refused() {
				// inject refuses it, so status --check does not pass it (K9)
				out = append(out, StatusFile{Provider: p.Name, Scope: c.Scope, Path: c.Path, Error: (&render.EmptyFileError{Path: c.Path}).Error(), Entries: []StatusEntry{}})
				continue
			}
			read.seed(c)
			out = append(out, r.fileStatus(c, read))
		}
		if r.Step != nil {
			r.Step()
		}
	}
	out = append(out, r.goneFiles(f, layer, out)...)
	markPrecedence(out)
	return out
}

// goneFiles are the files of this machine and project that ownership records name but
// that are gone: every recorded entry of them is missing.
func (r StatusRequest) goneFiles(f fsys.FS, layer string, seen []StatusFile) []StatusFile {
	recorded, err := render.RecordedDestinations(f, layer)
	if err != nil {
		return []StatusFile{{Error: err.Error(), Entries: []StatusEntry{}}}
	}
	var out []StatusFile
	for _, d := range recorded {
		p, ok := providers.Get(d.Provider)
		if !ok || !slices.Contains(r.Providers, p) || slices.ContainsFunc(seen, func(s StatusFile) bool { return render.SamePath(s.Path, d.Path) }) {
			continue
		}
		scope, project, ok := render.ScopeOf(p, d.Path, r.Env)
		if d.Scope != "" {
			// a project's part of a file shared by every project (Claude Code's local
			// scope): the record says which, the path cannot
			scope, project, ok = d.Scope, d.Project, true
		}
		if !ok || scope != providers.User && !render.SamePath(project, r.Env.Project) {
			continue
		}
		if _, err := f.Lstat(d.Path); !fsys.IsNotExist(err) || len(d.Servers) == 0 {
			continue // there, or nothing of mcpwire's was in it (a file mcpwire removed, H7)
		}
		sf := StatusFile{Provider: p.Name, Scope: scope, Path: d.Path, Entries: []StatusEntry{}}
		for _, n := range d.Servers {
			sf.Entries = append(sf.Entries, StatusEntry{Name: n, State: Missing})
		}
		out = append(out, sf)
	}
	// as the files that exist: each client's in scope order
	slices.SortStableFunc(out, func(a, b StatusFile) int {
		if a.Provider != b.Provider {
			return strings.Compare(a.Provider, b.Provider)
		}
		return slices.Index(providers.AllScopes, a.Scope) - slices.Index(providers.AllScopes, b.Scope)
	})
	return out
}

// fileStatus is the status of one file's entries, those recorded but gone included.
func (r StatusRequest) fileStatus(c *render.ClientFile, read *docCache) StatusFile {
	sf := StatusFile{Provider: c.Provider.Name, Scope: c.Scope, Path: c.Path, Entries: make([]StatusEntry, 0, len(c.Entries))}
	if c.Scope == providers.Project {
		sf.Note = c.Provider.ProjectNote
	}
	names := make([]string, 0, len(c.Entries))
	for _, e := range c.Entries {
		names = append(names, e.Name)
	}
	clientBlockers := c.Dialect().StartBlockers(&providers.StartState{Scope: c.Scope, Project: r.Env.Project, Path: c.Path,
		Names: names, Read: read.member, Env: r.Env}) // by position
	at := 0 // the position in the file of the entry
	c.EachPart(func(part []render.ClientEntry) {
		for _, e := range part {
			se := StatusEntry{Name: e.Name, State: r.state(c, e), OriginalKept: slices.Contains(c.TakenOver, e.Name)}
			if e.Err != nil {
				se.Blockers = append(se.Blockers, "mcpwire cannot read the entry: "+e.Err.Error())
			} else {
				se.Off = providers.Disabled(e.Read.Server)
				if d := r.Registry.Denied(e.Name, e.Read.Server); d != nil {
					se.Denied = d.Rule + " in " + d.File
				}
				se.Blockers = r.blockers(e.Read.Server) // a list of its own (K7: one, not three, per entry)
				se.Blockers = append(se.Blockers, r.secretBlockers(e.Name, e.Read.Server)...)
				se.Blockers = append(se.Blockers, unresolvedBlockers(c.Provider, e.Read.Unresolved)...)
			}
			var cb []string
			if clientBlockers != nil {
				cb = clientBlockers[at]
			}
			at++
			if len(se.Blockers) == 0 {
				se.Blockers = cb // shared by entries with the same (cut: an append copies it)
			} else {
				se.Blockers = append(se.Blockers, cb...)
			}
			sf.Entries = append(sf.Entries, se)
		}
	})
	for _, n := range slices.Sorted(maps.Keys(c.Record)) {
		if _, _, member := providers.RecordedMember(c.Dialect(), n); member {
			continue
		}
		if _, ok := c.Entry(n); !ok {
			sf.Entries = append(sf.Entries, StatusEntry{Name: n, State: Missing})
		}
	}
	return sf
}

// state is an entry's state against the file's ownership record and the registry. A
// recorded entry that mcpwire would no longer treat as its own (changed since, or
// moved out of its frame lines) has drifted.
func (r StatusRequest) state(c *render.ClientFile, e render.ClientEntry) EntryState {
	rec, recorded := c.Record[e.Name]
	if !recorded {
		return Foreign
	}
	s, defined := r.Registry.Server(e.Name)
	if render.RuleOf(c.Provider).Standing(rec, e.Digest(), e.Framed, "") != render.EntryOwned && !(defined && c.MeansServer(e, s)) {
		return Drifted
	}
	if !defined {
		return Stale
	}
	return Owned
}

// blockers are what keeps a server from starting that this environment shows: a
// referenced variable that is not set, a stdio command not found.
func (r StatusRequest) blockers(s *registry.Server) []string {
	var out []string
	var vars []string
	for _, m := range []map[string]string{s.EnvFrom, s.HeaderEnv} {
		if len(m) == 0 {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			vars = providers.AppendNew(vars, []string{m[k]})
		}
	}
	if s.BearerEnv != "" {
		vars = providers.AppendNew(vars, []string{s.BearerEnv})
	}
	for _, v := range vars {
		if r.Getenv(v) == "" && !render.LaunchVariable(v) {
			// a name that looks like a credential is not shown (T4)
			out = append(out, "variable "+termtext.Quote(policy.ShowName(v))+" is not set")
		}
	}
	if !s.Remote() && s.Command != "" {
		cmd := strings.ReplaceAll(s.Command, providers.ProjectVar, r.Env.Project)
		if b := r.commandBlocker(cmd); b != "" {
			out = append(out, b)
		}
	}
	return out
}

// secretBlockers are the references of an entry that do not resolve (S4): those it
// names itself (mcpwire exec, mcpwire headers), and for the variables mcpwire sets
// where the client starts, the registry server's.
func (r StatusRequest) secretBlockers(name string, s *registry.Server) []string {
	out := r.checks.Unresolved(s)
	launched := render.LaunchVariable(s.BearerEnv)
	for _, v := range s.HeaderEnv {
		launched = launched || render.LaunchVariable(v)
	}
	if reg, ok := r.Registry.Server(name); ok && launched {
		out = append(out, r.checks.Unresolved(&registry.Server{HeaderSecret: reg.HeaderSecret, BearerSecret: reg.BearerSecret})...)
	}
	for i, b := range out {
		out[i] = "secret " + b
	}
	return out
}

// unresolvedBlockers are the forms in an entry its client does not resolve (T2): the
// server gets them as written.
func unresolvedBlockers(p *providers.Provider, us []providers.Unresolved) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Field+" holds "+u.Style+", which "+p.Display+" does not resolve (the server gets it as written)")
	}
	return out
}

// commandBlocker is the blocker of a stdio command that cannot be started, "" when it
// can; each command is looked up once.
func (r StatusRequest) commandBlocker(cmd string) string {
	b, ok := r.notFound[cmd]
	if !ok {
		if !strings.Contains(cmd, "${") && !render.OnPath(cmd, r.Getenv, r.Env.GOOS) {
			b = "command " + termtext.Quote(policy.RedactText(cmd)) + " not found on PATH"
		}
		if r.notFound != nil {
			r.notFound[cmd] = b
		}
	}
	return b
}

// docCache reads and parses JSON files once for the start checks; the client files
// status opened are used as they are.
type docCache struct {
	f    fsys.FS
	docs map[string]format.Document
}

func newDocCache(f fsys.FS) *docCache { return &docCache{f: f, docs: map[string]format.Document{}} }

// seed adds an opened client file.
func (d *docCache) seed(c *render.ClientFile) { d.docs[c.Path] = c.Document() }

// member returns a member of a JSON file (the whole file without a member path).
func (d *docCache) member(file string, path ...string) (json.RawMessage, bool) {
	doc, ok := d.docs[file]
	if !ok {
		data, err := d.f.ReadFile(file)
		if err == nil {
			doc, err = format.Parse(format.JSONC, file, data, true)
		}
		if err != nil {
			doc = nil
		}
		d.docs[file] = doc
	}
	if doc == nil {
		return nil, false
	}
	v, ok := doc.Lookup(path...)
	if !ok {
		return nil, false
	}
	return v.JSON(), true
}

// Unstartable reports whether anything in the status needs attention (status
// --check): an entry drifted, stale, missing, with a blocker or denied by the server
// policy, or a file unread.
func Unstartable(files []StatusFile) bool {
	for _, f := range files {
		if f.Error != "" {
			return true
		}
		if slices.ContainsFunc(f.Entries, func(e StatusEntry) bool {
			return e.State == Drifted || e.State == Stale || e.State == Missing || len(e.Blockers) > 0 || e.Denied != ""
		}) {
			return true
		}
	}
	return false
}
