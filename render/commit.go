package render

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
	"github.com/mcpwire/mcpwire/render/fsys"
)

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
	linkSharedEdits(preps)
	merged, at := mergeTargets(targets)
	var stages []*staged
	for _, p := range preps {
		stages = append(stages, p.stages...)
	}
	results, err := fsys.ApplyThen(f, merged, func(results []fsys.Result) {
		if receipts && !slices.ContainsFunc(preps, (*Prepared).forgets) {
			// no receipt to forget: the staged records are done with once the records
			// are written, and go under the locks the transaction holds (staging.go)
			unstageWritten(f, stages, results)
		}
	})
	if err != nil {
		return err
	}
	i := 0
	for _, p := range preps {
		p.offWarnings()
		p.syncResults()
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
			if res := results[at[i]]; res.Changed && !transient(res.Path) && !slices.Contains(p.Result.Changed, res.Path) {
				p.Result.Changed = append(p.Result.Changed, res.Path)
			}
			i++
		}
		if slices.Contains(p.Result.Changed, p.Result.Destination) {
			for _, w := range p.projectWarn {
				p.warn(w)
			}
		}
	}
	if receipts {
		if err := saveReceipts(preps); err != nil {
			return err // the staged records stay: the next run settles them
		}
	}
	if len(preps) > 0 {
		unstage(f, stages, preps[0].warn)
	}
	return nil
}

// saveReceipts records the injections in the registry (injectedProviders, W7): the
// servers written, and no more those removed, or gone from the file since an
// interrupted run removed them — every injection of a registry in one write of it.
func saveReceipts(preps []*Prepared) error {
	var regs []*registry.Registry
	lists := map[*registry.Registry][]registry.Receipts{}
	for _, p := range preps {
		if _, ok := lists[p.reg]; !ok {
			regs = append(regs, p.reg)
		}
		lists[p.reg] = append(lists[p.reg], p.receipts())
	}
	for _, reg := range regs {
		if err := reg.SaveReceipts(lists[reg]); err != nil {
			what := "updating the injection records"
			if slices.ContainsFunc(lists[reg], func(c registry.Receipts) bool { return len(c.Written) > 0 }) {
				what = "recording the injection"
			}
			return fmt.Errorf("the client files were written, but %s failed: %w", what, err)
		}
	}
	return nil
}

// forgets reports that the injection removes entries, or forgets recorded ones: its
// receipts must then be written before its staged record goes, which says which
// receipts to forget if a crash comes in between (docs/writes.md "Crashes", row 6).
func (p *Prepared) forgets() bool {
	return p.edit != nil && (len(p.edit.dropped) > 0 || len(p.edit.forgotten) > 0)
}

// receipts are the injection's changes to the receipts: the servers written, and
// those removed, or gone from the file since an interrupted run removed them.
func (p *Prepared) receipts() registry.Receipts {
	gone := slices.Clone(p.Result.Removed)
	if p.edit != nil {
		gone = dialect.AppendNew(gone, p.edit.forgotten)
	}
	gone = slices.DeleteFunc(gone, func(n string) bool { return slices.Contains(p.Result.Written, n) })
	return registry.Receipts{Provider: p.Result.Provider, Written: p.Result.Written, Gone: gone}
}

// syncResults reports what a --profile inject removed because the profile no longer
// selects it (B7), and warns about the entries it kept because they changed since
// mcpwire wrote them.
func (p *Prepared) syncResults() {
	e := p.edit
	if e == nil {
		return
	}
	p.Result.TakenOver, p.Result.Restored = slices.Sorted(maps.Keys(e.taken)), slices.Clone(e.restored)
	p.Result.Unselected = slices.Clone(e.unselected)
	if len(e.unselected) > 0 {
		p.Result.Notes = slices.DeleteFunc(p.Result.Notes, func(n string) bool { return n == noServers })
	}
	p.Result.Removed = dialect.AppendNew(p.Result.Removed, e.unselected)
	for _, n := range e.unselectedKept {
		p.warn(fmt.Sprintf("%s: left %s in %s: profile %s does not select it, but it changed since mcpwire wrote it, so it is yours now; remove it by hand if you no longer want it",
			e.p.Name, n, e.path, p.profile))
	}
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
