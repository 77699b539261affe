package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/termtext"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
)

// ImportRequest is one import (B1, B2): the entries of client files read back into
// registry servers in the write layer.
type ImportRequest struct {
	Registry *registry.Registry
	// Files are the client files to import from, in order: a name found in several
	// comes from the first.
	Files []*render.ClientFile
	// Servers, when set, are the only entries imported; each must be in a file.
	Servers []string
	// Profile, when set, names a new profile of the imported servers with the
	// clients' tool filters (import --as-profile).
	Profile string
	// Adopt records ownership (C6) of each entry mcpwire would write as it is (B2).
	Adopt bool
	// PolicyEnv is AIWG_MCP_CREDENTIAL_POLICY.
	PolicyEnv string
	// Warn receives warnings.
	Warn func(string)
	// Environ is the environment (KEY=VALUE): an entry whose reference names a
	// variable by its current value is skipped (T4); nil skips that check.
	Environ []string
	// MoveSecrets, when set, moves the literal credentials of the servers to add into
	// a secret store and leaves references in them (import --secrets-to, S5), before
	// the policy is checked and the registry written; its undo removes what it stored
	// when the registry write fails.
	MoveSecrets func(add []*registry.Server) (undo func() error, err error)
}

// ImportResult says what an import did (or would do, in a dry run).
type ImportResult struct {
	// Added are the servers added to the registry; Identical those a layer already
	// defines exactly as read (noted, not warned).
	Added, Identical []string
	// Skipped are the entries not imported, with the reason.
	Skipped []ImportSkip
	// Files are the files read, with what became of their entries.
	Files []ImportFile
	// Profile is the profile added, "" when none.
	Profile string
	// Changed are the files written: the registry's, ownership records.
	Changed []string
	// Copied are the literal credentials of the servers added, in their order
	// (LiteralCredentials), which import says it copied into the registry (H4).
	Copied []policy.Violation
}

// ImportSkip is an entry that was not imported.
type ImportSkip struct {
	Server, Provider, Path, Reason string
}

// ImportFile is one client file of an import.
type ImportFile struct {
	Provider string
	Scope    string
	Path     string
	// Servers are the entries of the file that are now registry servers (added or
	// identical).
	Servers []string
	// Adopted are the entries whose ownership was recorded (B2); Foreign those mcpwire
	// would write differently, which stay the person's.
	Adopted, Foreign []string
}

// candidate is one entry on its way into the registry: the server, and the files
// that hold it as it is (the first is where it comes from).
type candidate struct {
	s    *registry.Server
	from []*render.ClientFile
}

// Import reads the request's files into the registry: every check first, then one
// write of the registry (servers and the profile), then the ownership records of the
// adopted entries. A literal credential the effective policy refuses stops it before
// anything is written (P1, P6).
func Import(f fsys.FS, r ImportRequest) (*ImportResult, error) {
	res := &ImportResult{}
	cands, order, err := r.collect(res)
	if err != nil {
		return nil, err
	}
	var add []*registry.Server
	for i, c := range order { // the candidates in order, not looked up again by name (K7)
		n := c.s.Name
		cur, defined := r.Registry.Server(n)
		switch {
		case !defined:
			add = append(add, c.s)
			res.Added = append(res.Added, n)
		case sameServer(cur, c.s):
			res.Identical = append(res.Identical, n)
		default:
			r.skip(res, c.from[0], n, fmt.Sprintf("already defined differently in %s; not replaced", r.Registry.ServerOrigin(n)))
			delete(cands, n)
			order[i] = nil
		}
	}
	undo := func() error { return nil }
	if r.MoveSecrets != nil && len(add) > 0 {
		// the servers' own lists and maps, which moving the secrets changes, not
		// those of the entries read
		for i, s := range add {
			add[i] = s.Clone()
			cands[res.Added[i]].s = add[i]
		}
		if undo, err = r.MoveSecrets(add); err != nil {
			return nil, err
		}
	}
	if err := CheckImportPolicy(r.Registry, r.PolicyEnv, add); err != nil {
		return nil, Undone(err, undo)
	}
	adopted := r.adoption(res, cands)
	var kept []string
	for _, c := range order {
		if c != nil {
			kept = append(kept, c.s.Name)
		}
	}
	profile, err := r.profile(f, res, cands, kept)
	if err != nil {
		return nil, Undone(err, undo)
	}
	receipts := map[string][]string{}
	for _, fa := range adopted {
		for _, n := range fa.names {
			receipts[n] = providers.AppendNew(receipts[n], []string{fa.c.Provider.Name})
		}
	}
	if len(add) > 0 || profile != nil {
		if err := r.Registry.AddServers(add, profile, receipts); err != nil {
			return nil, Undone(err, undo)
		}
		res.Changed = append(res.Changed, r.Registry.Set().Write().Servers.Path)
		for _, s := range add { // as written: AddServers changes none of what is checked
			res.Copied = append(res.Copied, LiteralCredentials(s)...)
		}
		if profile != nil {
			res.Profile = profile.Name
			res.Changed = append(res.Changed, r.Registry.Set().Write().Profiles.Path)
		}
	}
	changed, err := writeAdopted(f, r.Registry, adopted, res.Identical, receipts)
	if err != nil {
		return res, fmt.Errorf("the servers were imported, but recording ownership failed: %w", err)
	}
	res.Changed = append(res.Changed, changed...)
	return res, nil
}

// Undone is err after undo ran (a write that failed after secrets were stored for it,
// S5): a failure of the undo is added to it.
func Undone(err error, undo func() error) error {
	if uerr := undo(); uerr != nil {
		return fmt.Errorf("%w (and removing the secrets stored for it failed: %v)", err, uerr)
	}
	return err
}

// collect reads every entry of the files: one candidate per name, in order. Entries
// that cannot be read, or are not valid servers, are skipped with a warning; a name
// defined differently in two files comes from the first, with a warning; the members
// with no registry equivalent are named in one warning.
func (r *ImportRequest) collect(res *ImportResult) (map[string]*candidate, []*candidate, error) {
	cands := map[string]*candidate{}
	var order []*candidate
	var dropped []string
	seen := map[string]bool{}
	var only map[string]bool // --servers, as a set
	if r.Servers != nil {
		only = make(map[string]bool, len(r.Servers))
		for _, n := range r.Servers {
			only[n] = true
		}
	}
	for _, c := range r.Files {
		res.Files = append(res.Files, ImportFile{Provider: c.Provider.Name, Scope: string(c.Scope), Path: c.Path})
		var own, unresolved []string
		for i := range c.Entries {
			e := &c.Entries[i]
			if only != nil && !only[e.Name] {
				continue
			}
			if only != nil {
				seen[e.Name] = true
			}
			s, why := importable(e, c.Scope == providers.Project)
			if why == "" {
				// a reference whose name is a credential is no reference (T4)
				if err := s.CheckRefNames(r.Environ); err != nil {
					why = err.Error()
				}
			}
			if why != "" {
				r.skip(res, c, e.Name, why)
				continue
			}
			if len(e.Read.Dropped) > 0 {
				own = append(own, fmt.Sprintf("%s (%s)", e.Name, strings.Join(e.Read.Dropped, ", ")))
			}
			for _, u := range e.Read.Unresolved {
				unresolved = append(unresolved, fmt.Sprintf("%s (%s: %s)", e.Name, u.Field, u.Style))
			}
			prev, dup := cands[e.Name]
			switch {
			case !dup:
				cand := &candidate{s: s, from: []*render.ClientFile{c}}
				cands[e.Name] = cand
				order = append(order, cand)
			case sameServer(prev.s, s):
				prev.from = append(prev.from, c)
			default:
				r.warn(fmt.Sprintf("%s: %s defines it differently from %s; imported as %s defines it", e.Name, c.Path, prev.from[0].Path, prev.from[0].Provider.Name))
			}
		}
		if len(own) > 0 {
			dropped = append(dropped, c.Provider.Name+": "+strings.Join(own, "; "))
		}
		if len(unresolved) > 0 {
			// T2: the registry reads them as the references they look like
			r.warn(fmt.Sprintf("%s: %s does not resolve these forms in %s, so its servers get them as written; imported as the references they spell: %s",
				c.Provider.Name, c.Provider.Display, c.Path, strings.Join(unresolved, ", ")))
		}
	}
	var missing []string
	for _, n := range r.Servers {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("not in the files read: %s", strings.Join(missing, ", "))
	}
	if len(dropped) > 0 {
		r.warn("not imported, mcpwire has no field for them: " + strings.Join(dropped, "; "))
	}
	return cands, order, nil
}

// importable returns an entry as a registry server, or why it cannot be one. An
// entry of a project file, which is committed, keeps its env values that cannot be
// credentials (P11: neither name nor value looks like one) as plain values, so that
// they can be written into project files again.
func importable(e *render.ClientEntry, committed bool) (*registry.Server, string) {
	if e.Err != nil {
		return nil, "cannot be read: " + e.Err.Error()
	}
	// a copy of its fields, not of its lists and maps, which are only read (K7: an
	// import reads 200,000); the list appended to below is its own
	c := *e.Read.Server
	s := &c
	s.Name, s.PlainEnv = e.Name, slices.Clip(s.PlainEnv)
	if committed {
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			if policy.PlainEnvProblem(k, s.Env[k]) == "" {
				s.PlainEnv = append(s.PlainEnv, k)
			}
		}
	}
	if err := registry.ValidServerName(s.Name); err != nil {
		return nil, err.Error()
	}
	if err := s.Validate(); err != nil {
		return nil, err.Error()
	}
	return s, ""
}

// sameServer reports whether two servers are the same definition: what they start and
// how, their bookkeeping, description and which env values are declared plain (the
// same values either way) aside.
func sameServer(a, b *registry.Server) bool {
	strip := func(s *registry.Server) []byte {
		c := s.Clone()
		c.InjectedProviders, c.AddedAt, c.UpdatedAt, c.PlainEnv, c.Description = nil, "", "", nil, ""
		raw, _ := json.Marshal(c)
		return raw
	}
	return bytes.Equal(strip(a), strip(b))
}

func (r *ImportRequest) warn(msg string) {
	if r.Warn != nil {
		r.Warn(msg)
	}
}

// skip records an entry that is not imported, with a warning.
func (r *ImportRequest) skip(res *ImportResult, c *render.ClientFile, name, why string) {
	res.Skipped = append(res.Skipped, ImportSkip{Server: name, Provider: c.Provider.Name, Path: c.Path, Reason: why})
	r.warn(fmt.Sprintf("%s: skipped %s from %s: %s", c.Provider.Name, termtext.Quote(name), termtext.Quote(c.Path), why))
}

// CheckImportPolicy refuses servers read from client files (import, server add-json)
// that hold literal credentials the effective policy refuses (P1): every server and
// field, never a value, so that nothing is written.
func CheckImportPolicy(reg *registry.Registry, policyEnv string, servers []*registry.Server) error {
	if err := reg.CheckAllowed(servers); err != nil {
		return err
	}
	level, err := reg.EffectivePolicy(policyEnv, nil)
	if err != nil {
		return err
	}
	var vs []policy.Violation
	for _, s := range servers {
		vs = append(vs, policy.Check(level, policy.Fields{
			Server: s.Name, URL: s.URL, Command: s.Command, Args: s.Args, Env: s.Env, Headers: s.Headers,
			HeaderEnv: s.HeaderEnv, EnvFrom: s.EnvFrom, BearerEnv: s.BearerEnv, Auth: s.Auth, OAuth: s.OAuth,
			PlainEnv: s.PlainEnvKeys(), PlainHeaders: s.PlainHeaderKeys(), // a project file's plain values (importable, P11)
		})...)
	}
	if len(vs) == 0 {
		return nil
	}
	return &policy.Error{Rule: fmt.Sprintf("credential policy %q", level), Violations: vs,
		Hint: "keep the values out of the registry: define these servers with mcpwire server add NAME … --env-from K=VAR / --header-env H=VAR (the client reads the variables), and import the others with --servers"}
}

// AddJSONHint is the advice of a server add-json refused by the credential policy:
// one server, no other to import.
const AddJSONHint = "keep the values out of the registry: write each as a reference the client resolves (\"${VAR}\" in the JSON), or define the server with mcpwire server add NAME … --env-from K=VAR / --header-env H=VAR (--env-plain K=V for a value that is no secret)"

// profileOf builds the import's profile: the servers imported (added or already
// defined as read), in the order the files hold them, and, per provider, the tool
// filters its files hold for them.
func (r *ImportRequest) profileOf(servers []string, filters map[string]map[string]*providers.ServerFilters) *registry.Profile {
	p := &registry.Profile{Name: r.Profile, Servers: servers,
		Description: "imported from " + r.sources(), ProviderOverrides: map[string]*registry.Filters{}}
	for _, prov := range slices.Sorted(maps.Keys(filters)) {
		f := &registry.Filters{}
		for _, n := range slices.Sorted(maps.Keys(filters[prov])) {
			sf := filters[prov][n]
			if sf.DenyAll {
				f.ToolDeny = append(f.ToolDeny, n+"__*")
			}
			for _, t := range sf.Deny {
				f.ToolDeny = append(f.ToolDeny, n+"__"+t)
			}
			for _, t := range sf.Allow {
				f.ToolAllow = append(f.ToolAllow, n+"__"+t)
			}
		}
		if len(f.ToolDeny)+len(f.ToolAllow) > 0 {
			p.ProviderOverrides[prov] = f
		}
	}
	return p
}

// sources names the providers of the files read.
func (r *ImportRequest) sources() string {
	var names []string
	for _, c := range r.Files {
		names = providers.AppendNew(names, []string{c.Provider.Name})
	}
	return strings.Join(names, ", ")
}
