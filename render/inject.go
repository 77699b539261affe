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

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/fsys"
)

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
	if scope == providers.Project && p.ProjectNote != "" {
		prep.Result.Notes = append(prep.Result.Notes, p.ProjectNote)
	}
	if t.absoluteProject() && !(p.GitIgnored && r.Inject.Ignored != nil) {
		// said when the file changes (Commit), not on every run that leaves it as it is
		for _, s := range servers {
			if fields := t.projectFields(s); len(fields) > 0 && slices.Contains(written, s.Name) {
				prep.projectWarn = append(prep.projectWarn, fmt.Sprintf("%s: %s of %s: ${project} is written as the absolute path %s into %s, a project file usually committed (%s has no workspace variable); other checkouts need their own inject",
					p.Name, strings.Join(fields, ", "), s.Name, r.Project, path, p.Display))
			}
		}
	}
	edit := &fileEdit{p: p, d: t.d, path: path, set: entries, remove: prep.off, filters: filters, force: r.Inject.Force, keepFilters: r.Inject.KeepFilters}
	prep.edit = edit
	if p.GitIgnored && scope == providers.Project && r.Inject.Ignored != nil {
		if err := r.Inject.Ignored(path); err != nil {
			return nil, err
		}
	}
	if prep.targets, err = r.fileTargets(f, edit, scope); err != nil {
		return nil, err
	}
	if r.Install.Legacy != "" {
		lt, ok, err := legacyTarget(f, r.Install.Legacy, r.Project)
		if err != nil {
			return nil, err
		}
		if ok {
			prep.targets = append([]fsys.Target{prep.targets[0], lt}, prep.targets[1:]...)
		}
	}
	if dr, ok := t.d.(dialect.DenyRuler); ok && !r.Inject.KeepFilters {
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
			if err == nil && !cur.Exists && len(edit.wrote) > 0 {
				err = yieldCheck(f, edit.p, edit.p.Dest(scope), edit.path)
			}
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
	path, err := choosePath(f, r.Provider.Settings[scope], r.pathEnv())
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
