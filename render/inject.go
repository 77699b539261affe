// Package render turns a selection of registry servers into edits of one client's own
// config file, in that client's dialect, and writes them safely: credential policy
// first (P1–P10), then the entries and tool filters (V1–V7, F1–F4), then an atomic,
// transactional write through the filesystem seam (W1–W9) with ownership records (C6).
package render

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/fsys"
)

// Request is one injection of servers into one provider's file.
type Request struct {
	Registry *registry.Registry
	Provider *providers.Provider
	// Scope is "" for the provider's default (V6).
	Scope providers.Scope
	// Project is the absolute project directory.
	Project string
	// Servers are the names to inject, in order.
	Servers []string
	// Filters are the profile's resolved tool filters (nil without a profile).
	Filters map[string]*registry.Filters
	// Profile names the profile, for messages.
	Profile string
	// Policy is the level asked for by a flag; nil uses the registry's (P10: the floor
	// applies either way).
	Policy *policy.Level
	// PolicyEnv is AIWG_MCP_CREDENTIAL_POLICY.
	PolicyEnv string
	// Force takes over same-named entries mcpwire did not write (C6).
	Force bool
	// KeepFilters: the request carries no tool-filter information (inject --all, or
	// --servers without a profile), so the filters already written are kept: Claude
	// deny rules are not touched and rewritten entries keep their filter members.
	KeepFilters bool
	// SkipUnsupported skips servers the client cannot take, with a warning, instead of
	// refusing (inject --all, V7).
	SkipUnsupported bool
	// Env locates home-relative files.
	Env providers.PathEnv
	// Exempt names env keys that are not credentials, per server (P8). It is honoured
	// only for the built-in aiwg entry supplied through Extra, and only for AIWG_ROOT:
	// any other server or key is checked like everything else.
	Exempt map[string]map[string]bool
	// Warn receives warnings.
	Warn func(string)
	// DryRun skips the registry's injection records.
	DryRun bool
	// Extra are servers that are not in the registry (install's built-in entry); a
	// registry server of the same name wins.
	Extra []*registry.Server
	// Legacy, when set, is a Claude settings file whose legacy built-in entry moves to
	// the destination in the same transaction (I4).
	Legacy string
	// Ignored checks that a project file is ignored by git (RunWield).
	Ignored func(path string) error
}

// Result says what an injection did.
type Result struct {
	Provider    string
	Scope       providers.Scope
	Destination string
	// Written are the servers written (or already up to date).
	Written []string
	// Changed lists the files that changed.
	Changed []string
	// Removed are entries mcpwire wrote earlier and removed because the registry now
	// disables the server and the client has no per-server switch.
	Removed []string
	// Settings is the Claude settings file holding deny rules, when one was written.
	Settings string
	// Notes are lines for the person (not warnings).
	Notes []string
}

func (r *Request) warn(msg string) {
	if r.Warn != nil {
		r.Warn(msg)
	}
}

// selected returns the registry servers of the request, refusing unknown names.
func (r *Request) selected() ([]*registry.Server, error) {
	var out []*registry.Server
	var missing []string
	for _, n := range r.Servers {
		s, ok := r.Registry.Server(n)
		for _, x := range r.Extra {
			if !ok && x.Name == n {
				s, ok = x, true
			}
		}
		if !ok {
			missing = append(missing, n)
			continue
		}
		out = append(out, s)
	}
	if len(missing) > 0 {
		what := "servers not defined in any configuration layer"
		if r.Profile != "" {
			what = fmt.Sprintf("profile %q names servers not defined in any configuration layer", r.Profile)
		}
		return nil, fmt.Errorf("%s: %s", what, strings.Join(missing, ", "))
	}
	return out, nil
}

// checkPolicy applies the effective credential policy (P1, P3, P6) and, for project
// scope, the committed-file rule (P7), to the selected servers only (P9).
func (r *Request) checkPolicy(servers []*registry.Server, scope providers.Scope, ephemeral bool) error {
	level, err := r.Registry.EffectivePolicy(r.PolicyEnv, r.Policy)
	if err != nil {
		return err
	}
	var vs []policy.Violation
	for _, s := range servers {
		vs = append(vs, policy.Check(level, r.fields(s))...)
	}
	if len(vs) > 0 {
		hint := "reference variables instead of literal values (server update NAME --env-from K=VAR, --header-env H=VAR, --bearer-env VAR), or choose another profile"
		if level >= policy.None {
			hint = "credential policy none refuses references too: choose servers that need no credentials, or another profile"
		}
		return &policy.Error{Rule: fmt.Sprintf("credential policy %q", level), Violations: vs, Hint: hint}
	}
	if scope != providers.Project || ephemeral {
		return nil
	}
	if r.Provider.GitIgnored && r.Ignored != nil {
		// RunWield reads its project file only when git ignores it, and mcpwire checks
		// that before writing: the file is never committed, so P7 does not apply.
		return nil
	}
	for _, s := range servers {
		vs = append(vs, policy.CheckProject(r.fields(s))...)
	}
	if len(vs) == 0 {
		return nil
	}
	return &policy.Error{Rule: "project scope (a committed file)", Violations: vs, Hint: r.projectHint()}
}

// projectHint is the advice of a P7 refusal: the client's private user-scope file
// when it has one, and references only where the client can spell them.
func (r *Request) projectHint() string {
	p := r.Provider
	refs := dialect.TakesRefs(p, dialect.For(p))
	var user string
	if d := p.User; d != nil {
		if paths, err := d.Candidates(r.Env); err == nil {
			user = paths[0]
		}
	}
	switch {
	case user != "" && refs:
		return "write them to " + p.Display + "'s private file instead: --scope user (" + user + "), or reference variables with --env-from K=VAR / --header-env H=VAR"
	case user != "":
		return "write them to " + p.Display + "'s private file instead: --scope user (" + user + ")"
	case refs:
		return "keep secrets out of committed files: reference variables with server update NAME --env-from K=VAR or --header-env H=VAR"
	}
	return "keep these servers out of " + p.Display + "'s project file: it is committed, and " + p.Display + " has no private file"
}

func (r *Request) fields(s *registry.Server) policy.Fields {
	return policy.Fields{
		Server: s.Name, URL: s.URL, Command: s.Command, Args: s.Args, Env: s.Env, Headers: s.Headers,
		HeaderEnv: s.HeaderEnv, EnvFrom: s.EnvFrom, BearerEnv: s.BearerEnv,
		Auth: s.Auth, OAuth: s.OAuth, ExemptEnv: r.exempt(s),
	}
}

// exemptKey is the one env key P8 exempts, on the built-in entry only.
const exemptKey = "AIWG_ROOT"

// exempt returns the env keys of s that are not credentials (P8): AIWG_ROOT, when
// the request exempts it and s is the built-in aiwg entry supplied through Extra (a
// registry server of that name replaces the built-in entry and is never exempt).
func (r *Request) exempt(s *registry.Server) map[string]bool {
	if !r.Exempt[s.Name][exemptKey] || !builtinShape(s) || !slices.Contains(r.Extra, s) {
		return nil
	}
	return map[string]bool{exemptKey: true}
}

// builtinShape reports whether s is the built-in entry: aiwg → aiwg mcp serve (I2).
func builtinShape(s *registry.Server) bool {
	return s.Name == BuiltinName && !s.Remote() && s.Command == "aiwg" && slices.Equal(s.Args, []string{"mcp", "serve"})
}

// RenderError lists every server that cannot be rendered for a client, with the
// field and reason (never a value).
type RenderError struct {
	Provider string
	Problems []dialect.Problem
}

func (e *RenderError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return fmt.Sprintf("cannot write for %s: %s", e.Provider, strings.Join(parts, "; "))
}

// plan renders the selected servers for the target. Servers that cannot be rendered
// are refused together, or skipped with a warning under SkipUnsupported.
func (r *Request) plan(t target, servers []*registry.Server) ([]namedEntry, *dialect.FilterSet, []string, error) {
	p := t.P
	var names []string
	for _, s := range servers {
		names = append(names, s.Name)
	}
	fs := dialect.Effective(r.Filters, p.Name, names)
	var entries []namedEntry
	var written []string
	var probs []dialect.Problem
	for _, s := range servers {
		v, ps := dialect.Spell(t.Target, t.d, s)
		if len(ps) > 0 {
			// a transport the client cannot take is skipped under --all (V7), whatever
			// else is wrong with the server there
			if i := slices.IndexFunc(ps, func(p dialect.Problem) bool { return p.Field == "type" }); r.SkipUnsupported && i >= 0 {
				r.warn(fmt.Sprintf("%s: skipped: %s", p.Name, ps[i]))
				continue
			}
			probs = append(probs, ps...)
			continue
		}
		if dialect.Disabled(s) && p.Switch == "" {
			if t.off != nil {
				*t.off = append(*t.off, s.Name) // Prepare removes mcpwire's entry, and says so
			} else {
				r.warn(offWarning(p, s.Name) + "; not written")
			}
			continue
		}
		if ign := ignoredFields(s); len(ign) > 0 {
			r.warn(ignoredWarning(p, s, ign))
		}
		if s.Cwd != "" && !s.Remote() && p.CwdKey == "" {
			r.warn(fmt.Sprintf("%s: %s does not start servers in a working directory from its config; cwd of %s not written", p.Name, p.Display, s.Name))
		}
		entries = append(entries, namedEntry{name: s.Name, entry: t.d.Entry(s, &v, fs.Of(s.Name))})
		written = append(written, s.Name)
	}
	if len(probs) > 0 {
		return nil, nil, nil, &RenderError{Provider: p.Display, Problems: probs}
	}
	spec := t.d.Filters()
	if spec.AllowRefused {
		if ap := fs.AllowPatterns(); len(ap) > 0 {
			return nil, nil, nil, fmt.Errorf("%s has no restrict-only allowlist, so toolAllow cannot be applied: %s", p.Display, strings.Join(ap, ", "))
		}
	}
	spec.Warnings(p.Display, fs, written)
	for _, w := range fs.Warnings {
		r.warn(p.Name + ": " + w)
	}
	return entries, fs, written, nil
}

// Prepared is an injection checked and planned, ready to be written.
type Prepared struct {
	// Result describes the injection; Changed is filled by Commit.
	Result  *Result
	targets []fsys.Target
	reg     *registry.Registry
	perm    *permEdit
	warn    func(string)
	// edit is the client file's edit; off are the disabled servers it removes (an
	// entry mcpwire wrote, unchanged since) because the client has no switch for them.
	edit *fileEdit
	off  []string
	dry  bool
	// projectWarn are the R10 warnings of absolute project paths, said when the
	// destination changes.
	projectWarn []string
}

// Inject writes the request's servers into the provider's file for the scope, with
// its ownership record, as one transaction; receipts are recorded after success.
func Inject(f fsys.FS, r Request) (*Result, error) {
	prep, err := Prepare(f, r)
	if err != nil {
		return nil, err
	}
	if err := Commit(f, []*Prepared{prep}, !r.DryRun); err != nil {
		return nil, err
	}
	return prep.Result, nil
}

// Prepare checks and plans an injection without writing: the policy (P6), the
// rendering of every server (V4–V7), the destination and its ownership record.
func Prepare(f fsys.FS, r Request) (*Prepared, error) {
	p := r.Provider
	scope, path, err := r.destination(f)
	if err != nil {
		return nil, err
	}
	servers, err := r.selected()
	if err != nil {
		return nil, err
	}
	prep := &Prepared{Result: &Result{Provider: p.Name, Scope: scope}, reg: r.Registry, warn: r.warn, dry: r.DryRun}
	if len(servers) == 0 {
		prep.Result.Notes = append(prep.Result.Notes, "no servers to inject: nothing written")
		return prep, nil
	}
	if err := r.checkPolicy(servers, scope, false); err != nil {
		return nil, err
	}
	prep.Result.Destination = path
	t := newTarget(p, scope, r.Project, false)
	t.off = &prep.off
	entries, filters, written, err := r.plan(t, servers)
	if err != nil {
		return nil, err
	}
	prep.Result.Written = written
	if t.absoluteProject() && !(p.GitIgnored && r.Ignored != nil) {
		// said when the file changes (Commit), not on every run that leaves it as it is
		for _, s := range servers {
			if fields := t.projectFields(s); len(fields) > 0 && slices.Contains(written, s.Name) {
				prep.projectWarn = append(prep.projectWarn, fmt.Sprintf("%s: %s of %s: ${project} is written as the absolute path %s into %s, a project file usually committed (%s has no workspace variable); other checkouts need their own inject",
					p.Name, strings.Join(fields, ", "), s.Name, r.Project, path, p.Display))
			}
		}
	}
	edit := &fileEdit{p: p, d: t.d, path: path, set: entries, remove: prep.off, filters: filters, force: r.Force, keepFilters: r.KeepFilters}
	prep.edit = edit
	if p.GitIgnored && scope == providers.Project && r.Ignored != nil {
		if err := r.Ignored(path); err != nil {
			return nil, err
		}
	}
	if prep.targets, err = r.fileTargets(f, edit, scope); err != nil {
		return nil, err
	}
	if r.Legacy != "" {
		lt, ok, err := legacyTarget(f, r.Legacy, r.Project)
		if err != nil {
			return nil, err
		}
		if ok {
			prep.targets = append([]fsys.Target{prep.targets[0], lt}, prep.targets[1:]...)
		}
	}
	if dr, ok := t.d.(dialect.DenyRuler); ok && !r.KeepFilters {
		perm, targets, err := r.settingsTargets(f, scope, dr.DenyRules(filters))
		if err != nil {
			return nil, err
		}
		// MCP config → settings → deny record → ownership record (W7)
		prep.targets = append([]fsys.Target{prep.targets[0]}, append(targets, prep.targets[1:]...)...)
		prep.perm = perm
	}
	return prep, nil
}

// Commit writes every prepared injection as one transaction (W7): every target is
// checked before the first write, and a failure undoes the finished writes. With
// receipts, injectedProviders records are saved after success.
func Commit(f fsys.FS, preps []*Prepared, receipts bool) error {
	var targets []fsys.Target
	for _, p := range preps {
		targets = append(targets, p.targets...)
	}
	if len(targets) == 0 {
		return nil
	}
	results, err := fsys.Apply(f, targets)
	if err != nil {
		return err
	}
	i := 0
	for _, p := range preps {
		p.offWarnings()
		if p.edit != nil {
			for _, w := range p.edit.notes {
				p.warn(w)
			}
		}
		if p.perm != nil && p.perm.active {
			if w := p.perm.warning(); w != "" {
				p.warn(w)
			}
			p.Result.Settings = p.perm.path
		}
		for range p.targets {
			if results[i].Changed {
				p.Result.Changed = append(p.Result.Changed, results[i].Path)
			}
			i++
		}
		if slices.Contains(p.Result.Changed, p.Result.Destination) {
			for _, w := range p.projectWarn {
				p.warn(w)
			}
		}
	}
	if !receipts {
		return nil
	}
	for _, p := range preps {
		if len(p.Result.Written) > 0 {
			if err := p.reg.RecordInjection(p.Result.Written, p.Result.Provider); err != nil {
				return fmt.Errorf("the client files were written, but recording the injection failed: %w", err)
			}
		}
		if len(p.Result.Removed) > 0 {
			if err := p.reg.ForgetInjection(p.Result.Removed, p.Result.Provider); err != nil {
				return fmt.Errorf("the client files were written, but updating the injection records failed: %w", err)
			}
		}
	}
	return nil
}

// offWarnings says, for each disabled server the client cannot switch off, what
// became of it: mcpwire's own unchanged entry was removed; an entry mcpwire did not
// write (or that changed since) stays; else it is simply not written.
func (p *Prepared) offWarnings() {
	if p.edit == nil {
		return
	}
	removed := "removed"
	if p.dry {
		removed = "would remove"
	}
	for _, n := range p.off {
		w := offWarning(p.edit.p, n)
		switch {
		case slices.Contains(p.edit.dropped, n):
			w += fmt.Sprintf("; %s the entry mcpwire wrote from %s", removed, p.edit.path)
			p.Result.Removed = append(p.Result.Removed, n)
		case slices.Contains(p.edit.kept, n):
			w += fmt.Sprintf("; not written, and the entry in %s stays: mcpwire did not write it, or it changed since", p.edit.path)
		default:
			w += "; not written"
		}
		p.warn(w)
	}
}

// fileTargets returns the transaction targets of a client file edit: the file, then
// its ownership record (W7 order).
func (r *Request) fileTargets(f fsys.FS, edit *fileEdit, scope providers.Scope) ([]fsys.Target, error) {
	layer := r.Registry.Set().Write()
	recPath, canon, err := recordPath(layer.Dir, OwnershipDir, edit.path)
	if err != nil {
		return nil, err
	}
	if err := r.Registry.Set().CheckWrite(); err != nil {
		return nil, err
	}
	rec, err := readRecord(f, recPath, canon)
	if err != nil {
		return nil, err
	}
	edit.record = rec
	private := edit.p.PrivateMode
	main := fsys.Target{
		Path:    edit.path,
		DirPerm: dirMode(scope),
		Check:   parentCheck(f, scope, r.Project, edit.path),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			out, err := edit.apply(cur)
			return out, fileMode(scope, cur, private, false), false, err
		},
	}
	record := recordTarget(f, recPath, canon, edit.p.Name, func(rec *ownRecord) {
		for n, d := range edit.wrote {
			rec.Entries[n] = d
		}
		for _, n := range append(slices.Clone(edit.dropped), edit.forget...) {
			delete(rec.Entries, n)
		}
	})
	return []fsys.Target{main, record}, nil
}

// settingsTargets returns the Claude settings file and deny-record targets (C2, C3).
func (r *Request) settingsTargets(f fsys.FS, scope providers.Scope, want []string) (*permEdit, []fsys.Target, error) {
	path, err := choosePath(f, r.Provider.Settings[scope], r.Env)
	if err != nil {
		return nil, nil, err
	}
	ss := settingsScope{
		dirPerm: dirMode(scope),
		check:   parentCheck(f, scope, r.Project, path),
		mode:    func(cur fsys.Snapshot) fs.FileMode { return fileMode(scope, cur, false, true) },
	}
	return permTargets(f, r.Registry.Set().Write().Dir, path, want, ss)
}

// standalone selects and checks the servers of output that is not a client's shared
// file — ephemeral output, a Codex runtime home, steps printed for a person: the
// credential policy applies (P6), the committed-file rule does not, and ${project}
// is the absolute project directory.
func (r *Request) standalone(ephemeral bool) (target, []*registry.Server, error) {
	r.Env.Project = r.Project
	servers, err := r.selected()
	if err != nil {
		return target{}, nil, err
	}
	if err := r.checkPolicy(servers, providers.User, true); err != nil {
		return target{}, nil, err
	}
	return newTarget(r.Provider, providers.User, r.Project, ephemeral), servers, nil
}
