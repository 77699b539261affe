package write

import (
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// UninjectResult says what an uninjection did.
type UninjectResult struct {
	Provider    string
	Scope       providers.Scope
	Destination string
	// Removed are the entries mcpwire removed.
	Removed []string
	// Kept are entries left in place: mcpwire did not write them, or they changed since.
	Kept []string
	// Absent are requested names the file does not hold.
	Absent []string
	// Restored are the removed entries whose original, which --force replaced, was
	// put back (H1).
	Restored []string
	// RemovedFiles are the files mcpwire created that it removed, left with nothing of
	// anyone's (H7).
	RemovedFiles []string
	// Changed lists the files that changed.
	Changed []string
}

// Uninject removes the request's servers from the provider's file — only entries
// mcpwire wrote and nobody changed since (C6) — with the Claude deny rules mcpwire
// added for them, and forgets the injection records.
func Uninject(f fsys.FS, r Request) (*UninjectResult, error) {
	p := r.Provider
	scope, path, err := r.destination(f)
	if err != nil {
		return nil, err
	}
	res := &UninjectResult{Provider: p.Name, Scope: scope, Destination: path}
	_, err = f.Lstat(path)
	absent := fsys.IsNotExist(err)
	edit, _ := r.newEdit(scope, path)
	edit.remove = r.Servers
	ft, err := r.fileTargets(f, edit, scope)
	if err != nil {
		return nil, err
	}
	stages, mid, records := []fsys.Target{ft.stage}, []fsys.Target{ft.main}, []fsys.Target{ft.record}
	list := []*staged{&edit.stage}
	perm, st, err := r.uninjectRules(f, scope, edit)
	if err != nil {
		return nil, err
	}
	if absent && !edit.own.Exists && !edit.own.Staged && perm == nil {
		res.Absent = slices.Clone(r.Servers)
		return res, nil
	}
	// a file that is gone may still be recorded, or staged by an interrupted run: its
	// entries are forgotten, with their receipts and deny rules (K10)
	if perm != nil {
		stages = append(stages, perm.stageTarget(f, st[0]))
		mid = append(mid, st[0])
		records = append([]fsys.Target{st[1]}, records...)
		list = append(list, &perm.stage)
	}
	if r.DryRun {
		stages, list = nil, nil
	}
	results, err := fsys.Apply(f, append(append(batch(batchStaged, stages...), batch(batchFiles, mid...)...), batch(batchRecords, records...)...))
	if err != nil {
		return nil, err
	}
	r.uninjectReport(res, results, edit, perm)
	if r.DryRun {
		prep := &Prepared{edit: edit, perm: perm}
		finishRemovals(f, prep.removals(), nil)
		return res, nil
	}
	// the receipts of the entries removed, and of those an interrupted run removed
	if gone := providers.AppendNew(slices.Clone(res.Removed), edit.forgotten); len(gone) > 0 {
		if err := r.Registry.ForgetInjection(gone, p.Name); err != nil {
			return res, fmt.Errorf("the client file was written, but updating the injection records failed: %w", err)
		}
	}
	unstage(f, list, r.warn)
	prep := &Prepared{edit: edit, perm: perm}
	finishRemovals(f, prep.removals(), r.warn)
	return res, nil
}

// uninjectRules plans the edit of the deny rules of the servers uninject removes, for
// a client that keeps filters as rules of a settings file (Claude Code): the settings
// edit and its record's target, or nil when mcpwire has no rules there.
func (r Request) uninjectRules(f fsys.FS, scope providers.Scope, edit *fileEdit) (*permEdit, []fsys.Target, error) {
	dr := edit.d.DenyRules()
	if dr == nil {
		return nil, nil, nil
	}
	perm, st, err := r.settingsTargets(f, scope, nil)
	if err != nil || perm.record == nil && perm.staged == nil {
		return nil, nil, err // no rules of mcpwire's there: leave the settings alone
	}
	perm.keepOnly = true
	perm.wantFn = func() []string {
		if perm.record == nil {
			return nil
		}
		// the rules of the servers removed now, and of those an interrupted run removed
		// (a rule a server staying in the file answers to as well stays, B7)
		return withoutServers(dr, perm.record.DenyAdded, append(slices.Clone(edit.dropped), edit.forgotten...), edit.staying())
	}
	return perm, st, nil
}

// uninjectReport fills the result of an uninject from what its transaction did, and
// warns about the entries and rules left in place.
func (r Request) uninjectReport(res *UninjectResult, results []fsys.Result, edit *fileEdit, perm *permEdit) {
	for _, x := range results {
		if x.Changed && !render.Transient(x.Path) {
			res.Changed = append(res.Changed, x.Path)
		}
		if x.Removed && (x.Path == edit.path || perm != nil && x.Path == perm.path) {
			res.RemovedFiles = append(res.RemovedFiles, x.Path)
		}
	}
	res.Removed, res.Kept, res.Restored = edit.dropped, edit.kept, edit.restored
	for _, n := range r.Servers {
		if !slices.Contains(res.Removed, n) && !slices.Contains(res.Kept, n) {
			res.Absent = append(res.Absent, n)
		}
	}
	for _, n := range res.Kept {
		r.warn(fmt.Sprintf("%s: left %s in %s: mcpwire did not write it, or it changed since mcpwire wrote it", r.Provider.Name, n, res.Destination))
	}
	for _, w := range edit.notes {
		r.warn(w)
	}
	if perm != nil {
		if w := perm.warning(); w != "" {
			r.warn(w)
		}
	}
}

// withoutServers drops the deny rules that belong to the named servers, except a rule
// that also belongs to a server staying in the file: Claude Code cannot tell
// "my.server" from "my_server" in a rule, and removing one must not leave the other
// unrestricted (L14, B7).
func withoutServers(dr providers.DenyRules, rules, servers, staying []string) []string {
	owned := func(rule string, names []string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return dr.Owns(rule, n) })
	}
	var out []string
	for _, rule := range rules {
		if !owned(rule, servers) || owned(rule, staying) {
			out = append(out, rule)
		}
	}
	return out
}
