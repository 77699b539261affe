package render

import (
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/fsys"
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
	if _, err := f.Lstat(path); fsys.IsNotExist(err) {
		res.Absent = slices.Clone(r.Servers)
		return res, nil
	}
	edit, _ := r.newEdit(scope, path)
	edit.remove = r.Servers
	d := edit.d
	targets, err := r.fileTargets(f, edit, scope)
	if err != nil {
		return nil, err
	}
	var perm *permEdit
	if dr, ok := d.(dialect.DenyRuler); ok {
		var st []fsys.Target
		perm, st, err = r.settingsTargets(f, scope, nil)
		if err != nil {
			return nil, err
		}
		if perm.record == nil {
			perm = nil // no rules of mcpwire's there: leave the settings alone
		} else {
			added := perm.record.DenyAdded
			perm.keepOnly = true
			perm.wantFn = func() []string { return withoutServers(dr, added, edit.dropped) }
			targets = append([]fsys.Target{targets[0]}, append(st, targets[1:]...)...)
		}
	}
	results, err := fsys.Apply(f, targets)
	if err != nil {
		return nil, err
	}
	for _, x := range results {
		if x.Changed {
			res.Changed = append(res.Changed, x.Path)
		}
	}
	res.Removed, res.Kept = edit.dropped, edit.kept
	for _, n := range r.Servers {
		if !slices.Contains(res.Removed, n) && !slices.Contains(res.Kept, n) {
			res.Absent = append(res.Absent, n)
		}
	}
	for _, n := range res.Kept {
		r.warn(fmt.Sprintf("%s: left %s in %s: mcpwire did not write it, or it changed since mcpwire wrote it", p.Name, n, path))
	}
	for _, w := range edit.notes {
		r.warn(w)
	}
	if perm != nil {
		if w := perm.warning(); w != "" {
			r.warn(w)
		}
	}
	if len(res.Removed) > 0 && !r.DryRun {
		if err := r.Registry.ForgetInjection(res.Removed, p.Name); err != nil {
			return res, fmt.Errorf("the client file was written, but updating the injection records failed: %w", err)
		}
	}
	return res, nil
}

// withoutServers drops the deny rules that belong to the named servers.
func withoutServers(dr dialect.DenyRuler, rules, servers []string) []string {
	var out []string
	for _, rule := range rules {
		drop := false
		for _, s := range servers {
			if dr.Owns(rule, s) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, rule)
		}
	}
	return out
}
