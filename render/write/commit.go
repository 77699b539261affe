package write

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
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
	pre, err := preStage(f, preps, merged)
	if err != nil {
		return err
	}
	results, err := fsys.ApplyThen(f, merged, func(results []fsys.Result) {
		if receipts && !slices.ContainsFunc(preps, (*Prepared).forgets) {
			// no receipt to forget: the staged records are done with once the records
			// are written, and go under the locks the transaction holds (staging.go)
			unstageWritten(f, stages, results, pre)
		}
	})
	if err != nil {
		if pre && !errors.As(err, new(*fsys.RollbackError)) {
			unstage(f, stages, nil) // as if the transaction had never begun
		}
		// a rollback that did not complete may have left mcpwire's entries in a
		// client file: the staged records stay, and the next run settles them as
		// after a crash (docs/writes.md "Crashes")
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
			res := results[at[i]]
			if res.Changed && !render.Transient(res.Path) && !slices.Contains(p.Result.Changed, res.Path) {
				p.Result.Changed = append(p.Result.Changed, res.Path)
			}
			if res.Removed && slices.Contains(p.filePaths(), res.Path) && !slices.Contains(p.Result.RemovedFiles, res.Path) {
				p.Result.RemovedFiles = append(p.Result.RemovedFiles, res.Path)
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
		var list []removal
		for _, p := range preps {
			list = append(list, p.removals()...)
		}
		finishRemovals(f, list, preps[0].warn)
	}
	return nil
}

// preStage writes the staged records of a transaction that creates a directory for a
// client file (or Claude's settings) first, on their own, so that the directories they
// name as mcpwire's are on disk before any of them is (H7, created.go): a transaction
// creates every directory before it writes any file. The client files and the other
// targets are planned too, changing nothing, so that a refusal still comes before
// anything is written; the records are not (their directories are the staged
// records'). The transaction's own staged records then find the same content there. It
// reports whether it wrote them.
func preStage(f fsys.FS, preps []*Prepared, merged []fsys.Target) (bool, error) {
	creates := false
	for _, p := range preps {
		for _, path := range p.createPaths() {
			if _, err := f.Lstat(path); fsys.IsNotExist(err) && len(missingDirs(f, path)) > 0 {
				creates = true
			}
		}
	}
	if !creates || !slices.ContainsFunc(merged, func(t fsys.Target) bool { return t.Batch == batchStaged }) {
		return false, nil
	}
	var targets []fsys.Target
	for _, t := range merged {
		switch t.Batch {
		case batchStaged:
			targets = append(targets, t)
		case batchRecords:
			// checked with the staged records, which share their directories; their
			// edits refuse nothing the client files' do not
		default:
			t.Edit, t.EditContent = nil, planOnly(t.RunEdit)
			targets = append(targets, t)
		}
	}
	for _, p := range preps {
		if p.edit != nil {
			p.edit.keepRead = true
			defer func() { p.edit.keepRead = false }()
		}
	}
	_, err := fsys.Apply(f, targets)
	return err == nil, err
}

// planOnly is an Edit that refuses what edit refuses and changes nothing.
func planOnly(edit func(fsys.Snapshot) (fsys.Content, fs.FileMode, bool, error)) func(fsys.Snapshot) (fsys.Content, fs.FileMode, bool, error) {
	return func(cur fsys.Snapshot) (fsys.Content, fs.FileMode, bool, error) {
		if _, _, _, err := edit(cur); err != nil {
			return fsys.Content{}, 0, false, err
		}
		return fsys.ContentOf(cur.Data), 0, !cur.Exists, nil
	}
}

// filePaths are the client file and the settings file the injection writes.
func (p *Prepared) filePaths() []string {
	var out []string
	if p.edit != nil {
		out = append(out, p.edit.path)
	}
	if p.perm != nil {
		out = append(out, p.perm.path)
	}
	return out
}

// createPaths are the filePaths the injection may create: not the settings file of
// an idle settings edit (no deny rule to write, nothing recorded), which stays absent.
func (p *Prepared) createPaths() []string {
	if p.perm != nil && p.perm.idle() {
		if p.edit == nil {
			return nil
		}
		return []string{p.edit.path}
	}
	return p.filePaths()
}

// removals are the files the injection removed (or found gone) whose directories are
// still to go (H7).
func (p *Prepared) removals() []removal {
	var out []removal
	if e := p.edit; e != nil && e.next != nil && e.next.Created.Pending() && e.recordOut != nil && e.after == nil {
		out = append(out, removal{record: e.own.Path, data: e.recordOut, dirs: e.next.Created.Dirs})
	}
	if e := p.perm; e != nil && e.created.Pending() && e.recordOut != nil {
		out = append(out, removal{record: e.recPath, data: e.recordOut, dirs: e.created.Dirs})
	}
	return out
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
		gone = providers.AppendNew(gone, p.edit.forgotten)
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
	p.Result.Removed = providers.AppendNew(p.Result.Removed, e.unselected)
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
