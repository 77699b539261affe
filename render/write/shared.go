package write

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// readerNames are the display names of clients.
func readerNames(ps []*providers.Provider) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Display)
	}
	return out
}

// newEdit is the edit of the request's file at a scope: its layout (the provider as
// it spells entries there, where the servers sit, its other writers and readers) and
// how strictly the client reads it.
func (r *Request) newEdit(scope providers.Scope, path string) (*fileEdit, []*providers.Provider) {
	lay := render.NewLayout(r.Provider, scope, path, r.Project, r.Env)
	e := &fileEdit{Layout: lay, p: lay.View, d: lay.View.Dialect(), path: path, syntax: r.Provider.Dest(scope)}
	for _, w := range append([]*providers.Provider{lay.View}, lay.Writers...) {
		e.checkers = append(e.checkers, w.Dialect())
	}
	return e, lay.Readers
}

// mergeTargets folds the targets of one transaction that write the same file — two
// writers of a shared file (V10), or Claude Code's user and local servers in
// ~/.claude.json under inject --all — into one target whose edit runs theirs in
// order, each on the content the one before leaves, so that the file is locked,
// checked and written once. at maps each given target to its merged one.
func mergeTargets(targets []fsys.Target) (out []fsys.Target, at []int) {
	at = make([]int, len(targets))
	first := map[string]int{}
	for i, t := range targets {
		k := filepath.Clean(t.Path)
		if j, ok := first[k]; ok {
			out[j] = chain(out[j], t)
			at[i] = j
			continue
		}
		first[k] = len(out)
		at[i] = len(out)
		out = append(out, t)
	}
	return out, at
}

// chain is a target whose edit is a's, then b's on a's result.
func chain(a, b fsys.Target) fsys.Target {
	c := a
	if c.DirPerm == 0 {
		c.DirPerm = b.DirPerm
	}
	c.Check = func() error {
		for _, check := range []func() error{a.Check, b.Check} {
			if check != nil {
				if err := check(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if a.Handoff != nil || b.Handoff != nil {
		// each edit's staged record may have handed a read of the file over: take
		// both, so that neither is held after planning, and edit from the first
		c.Handoff = func() (fsys.Snapshot, bool) {
			var s fsys.Snapshot
			ok := false
			for _, h := range []func() (fsys.Snapshot, bool){a.Handoff, b.Handoff} {
				if h == nil {
					continue
				}
				if hs, hok := h(); hok && !ok {
					s, ok = hs, true
				}
			}
			return s, ok
		}
	}
	c.Edit = nil
	c.EditContent = func(cur fsys.Snapshot) (fsys.Content, fs.FileMode, bool, error) {
		data, perm, remove, err := a.RunEdit(cur)
		if err != nil {
			return fsys.Content{}, 0, false, err
		}
		next := fsys.Snapshot{}
		if !remove {
			if perm == 0 {
				perm = cur.Mode
			}
			next = fsys.Snapshot{Exists: true, Data: data.Bytes(), Mode: perm}
		}
		return b.RunEdit(next)
	}
	return c
}

// linkSharedEdits tells each client-file edit of a transaction about the edits of the
// same entries (same record) before and after it: a later one counts the entries the
// earlier ones wrote as mcpwire's, though the record file does not hold them yet, and
// only the last one stages and writes the record, for every writer (V10). Linking
// edits already linked changes nothing.
func linkSharedEdits(preps []*Prepared) {
	last := map[string]*fileEdit{}
	for _, p := range preps {
		e := p.edit
		if e == nil || e.own == nil {
			continue
		}
		if prev := last[e.own.Path]; prev != nil && e.before != prev {
			// linked once: PrepareAll links them (precompute), then Commit again
			e.before, prev.after = prev, e
			prev.forgetPrecomputed()
			e.forgetPrecomputed()
			e.own.Writers = providers.AppendNew(slices.Clone(prev.own.Writers), e.own.Writers)
		}
		last[e.own.Path] = e
	}
}

// root is the first edit of these entries in the transaction.
func (e *fileEdit) root() *fileEdit {
	for e.before != nil {
		e = e.before
	}
	return e
}

// computeChain runs the edits of these entries before e, then e, on the client file
// as read: each edit of a shared file sees what the earlier ones made of it.
func (e *fileEdit) computeChain(cur fsys.Snapshot) (fsys.Content, error) {
	if e.before != nil {
		out, err := e.before.computeChain(cur)
		if err != nil {
			return fsys.Content{}, err
		}
		cur = fsys.Snapshot{Exists: true, Data: out.Bytes(), Mode: cur.Mode}
		if e.before.removeFile {
			cur = fsys.Snapshot{} // the earlier edit removes the file (H7), as chain does
		}
	}
	return e.compute(cur)
}

// hides warns when creating the request's file hides another client's file from it:
// a client that reads the first of its candidates that exists (Copilot CLI reads
// .github/mcp.json only while no .mcp.json exists) would read the new file instead.
func (r *Request) hides(f fsys.FS, path string) []string {
	if _, err := f.Lstat(path); err == nil {
		return nil
	}
	env := r.pathEnv()
	var out []string
	canon := ""
	for _, q := range providers.All() {
		if q == r.Provider {
			continue
		}
		for _, s := range q.Scopes() {
			cands, err := q.Dest(s).Candidates(env)
			if err != nil || len(cands) < 2 {
				continue
			}
			// the other candidates that exist first (an lstat each, usually none): only
			// then does it matter whether the first is this file (two real paths)
			var hidden []string
			for _, c := range cands[1:] {
				if r.exists(f, c) {
					hidden = append(hidden, c)
				}
			}
			if len(hidden) == 0 {
				continue
			}
			if canon == "" {
				canon = render.CanonicalOrClean(path)
			}
			if render.CanonicalOrClean(cands[0]) != canon {
				continue
			}
			for _, c := range hidden {
				out = append(out, fmt.Sprintf("%s: creating %s hides %s from %s, which reads the first of them that exists; its servers there no longer load",
					r.Provider.Name, path, c, q.Display))
			}
		}
	}
	return out
}
