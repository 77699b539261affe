package write

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
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
	// profile names the profile, for messages
	profile string
	// stages are the staged records of the transaction, removed after it (staging.go)
	stages []*staged
	// projectWarn are the R10 warnings of absolute project paths, said when the
	// destination changes.
	projectWarn []string
}

// noServers is the note of an injection with no server to write.
const noServers = "no servers to inject: nothing written"

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

// PrepareAll prepares the requests of one transaction in order, as Prepare does each;
// what does not change while nothing is written is found out once for all of them:
// the write layer's overlap check (L8), whether the files a new file would hide exist.
// With a second core, the edits are computed there meanwhile (precompute), the
// ownership records read and checked with them; the first refusal in the order of the
// requests is returned, as when each request was prepared in full before the next.
func PrepareAll(f fsys.FS, reqs []Request) ([]*Prepared, error) {
	batch := &prepareBatch{checked: map[*registry.Registry]bool{}, exists: map[string]bool{}}
	pre := startPrecompute(f, len(reqs))
	defer pre.wait(nil) // the edits are the caller's once PrepareAll returns
	batch.lazy = pre != nil
	batch.startEarlyChecks(f, reqs)
	preps := make([]*Prepared, 0, len(reqs))
	at := make([]int, 0, len(reqs)) // the request of each prep
	var refused RenderErrors
	var stop error
	stopAt := len(reqs)
	for i, r := range reqs {
		r.batch, batch.req = batch, i
		prep, err := Prepare(f, r)
		var re *RenderError
		if errors.As(err, &re) {
			// every client's refusal is said at once (H5)
			refused = append(refused, re)
			continue
		}
		if err != nil {
			stop, stopAt = err, i
			break
		}
		preps, at = append(preps, prep), append(at, i)
		pre.add(prep.edit)
	}
	pre.wait(preps)
	if err := batch.firstRefusal(preps, at, stopAt, stop); err != nil {
		return nil, err
	}
	switch len(refused) {
	case 0:
		return preps, nil
	case 1:
		return nil, refused[0]
	}
	return nil, refused
}

// firstRefusal waits for the git checks and returns the first refusal of the
// requests up to stopAt in their order: a request's git check (started first), then
// its ownership record (read by precompute), then stop, the error that ended the
// preparing at request stopAt.
func (b *prepareBatch) firstRefusal(preps []*Prepared, at []int, stopAt int, stop error) error {
	git := b.waitIgnored()
	j := 0
	for i := 0; i <= stopAt; i++ {
		if err := git[i]; err != nil {
			return err
		}
		if i == stopAt {
			return stop
		}
		for ; j < len(at) && at[j] <= i; j++ {
			if e := preps[j].edit; at[j] == i && e != nil && e.loadErr != nil {
				return e.loadErr
			}
		}
	}
	return nil
}

// RenderErrors are the refusals of several clients in one transaction.
type RenderErrors []*RenderError

func (e RenderErrors) Error() string {
	parts := make([]string, len(e))
	for i, re := range e {
		parts[i] = re.Error()
	}
	return strings.Join(parts, "; ")
}

// Hints are the refusals' hints, each once.
func (e RenderErrors) Hints() []string {
	var out []string
	for _, re := range e {
		out = providers.AppendNew(out, re.Hints())
	}
	return out
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
	prep := &Prepared{Result: &Result{Provider: p.Name, Scope: scope}, reg: r.Registry, warn: r.warn, dry: r.DryRun, profile: r.Profile}
	if len(servers) == 0 {
		prep.Result.Notes = append(prep.Result.Notes, noServers)
		if !r.Inject.Sync {
			return prep, nil
		}
		// an empty profile still removes what mcpwire wrote there (B7)
	}
	if err := r.checkPolicy(servers, scope, path); err != nil {
		return nil, err
	}
	prep.Result.Destination = path
	edit, readers := r.newEdit(scope, path)
	prep.Result.Readers = readerNames(readers)
	t := newTarget(edit.p, scope, r.Project, false)
	t.off = &prep.off
	entries, filters, written, err := r.plan(t, servers)
	if err != nil {
		return nil, err
	}
	prep.Result.Written = written
	prep.Result.InputVars = inputVarsOf(entries)
	prep.Result.Secrets = secretsOf(entries)
	prep.Result.Notes = append(prep.Result.Notes, secretNotes(p, path, prep.Result.Secrets)...)
	if scope == providers.Project && p.ProjectNote != "" {
		prep.Result.Notes = append(prep.Result.Notes, p.ProjectNote)
	}
	if n := r.startNote(scope, path); n != "" {
		prep.Result.Notes = append(prep.Result.Notes, n)
	}
	prep.projectWarn = append(r.projectWarnings(t, servers, written, path), r.hides(f, path)...)
	edit.set, edit.remove, edit.filters = entries, prep.off, filters
	edit.force, edit.keepFilters = r.Inject.Force, r.Inject.KeepFilters
	if r.Inject.Sync {
		edit.sync = make(map[string]bool, len(r.Servers))
		for _, n := range r.Servers {
			edit.sync[n] = true
		}
	}
	prep.edit = edit
	if p.GitIgnored && scope == providers.Project && r.Inject.Ignored != nil {
		if err := r.checkIgnored(path); err != nil {
			return nil, err
		}
	}
	ft, err := r.fileTargets(f, edit, scope)
	if err != nil {
		return nil, err
	}
	return prep, r.otherTargets(f, prep, ft, t, scope)
}

// projectWarnings are the R10 warnings of ${project} written as an absolute path into
// a project file usually committed, or into a user-scope file every project shares
// (H8: the project of the working directory), said when the file changes (Commit),
// not on every run that leaves it as it is.
func (r *Request) projectWarnings(t target, servers []*registry.Server, written []string, path string) []string {
	p := r.Provider
	if t.Scope == providers.User && !t.Ephemeral {
		return userProjectWarnings(t, servers, written)
	}
	if !t.absoluteProject() || p.GitIgnored && r.Inject.Ignored != nil {
		return nil
	}
	var out []string
	for _, s := range servers {
		if fields := t.projectFields(s); len(fields) > 0 && slices.Contains(written, s.Name) {
			out = append(out, fmt.Sprintf("%s: %s of %s: ${project} is written as the absolute path %s into %s, a project file usually committed (%s has no workspace variable); other checkouts need their own inject",
				p.Name, strings.Join(fields, ", "), s.Name, r.Project, path, p.Display))
		}
	}
	return out
}

// userProjectWarnings warn of ${project} written into a user-scope file: it becomes
// the project of the working directory (the directory itself outside a git work tree),
// and every project the client opens then gets that one directory (H8).
func userProjectWarnings(t target, servers []*registry.Server, written []string) []string {
	advice := "to follow the project, inject it with --scope project"
	if t.P.Project == nil {
		advice = t.P.Display + " has no project file: the server gets this directory in every project"
	}
	var out []string
	for _, s := range servers {
		if fields := t.projectFields(s); len(fields) > 0 && slices.Contains(written, s.Name) {
			out = append(out, fmt.Sprintf("%s: %s of %s: ${project} is written as %s, the project of the working directory, into %s's user-scope file, which every project shares; %s",
				t.P.Name, strings.Join(fields, ", "), s.Name, t.Project, t.P.Display, advice))
		}
	}
	return out
}

// otherTargets sets the prepared injection's targets: the client file's, install's
// legacy file, and Claude Code's settings (deny rules), in the W7 order.
func (r *Request) otherTargets(f fsys.FS, prep *Prepared, ft fileTargetSet, t target, scope providers.Scope) error {
	edit := prep.edit
	mid := batch(batchFiles, ft.main)
	settingsBatch := batchFiles
	if r.Install.Legacy != "" {
		lt, ok, err := legacyTarget(f, r.Install.Legacy, r.Project)
		if err != nil {
			return err
		}
		if ok {
			// renamed after the destination, as before the batches, and the settings after it
			mid = append(mid, batch(batchLegacy, lt)...)
			settingsBatch = batchLegacy
		}
	}
	stages, records := batch(batchStaged, ft.stage), batch(batchRecords, ft.record)
	prep.stages = []*staged{&edit.stage}
	if dr := t.d.DenyRules(); dr != nil && !r.Inject.KeepFilters {
		rules := dr.Rules(edit.filters)
		perm, targets, err := r.settingsTargets(f, scope, nil)
		if err != nil {
			return err
		}
		// a server that stays in the file, though not selected, keeps its rules (B7)
		perm.want, perm.wantRecorded = rules, true
		perm.wantFn = func() []string {
			return append(slices.Clone(perm.want), staying(dr, perm.record, edit.staying(), r.Servers)...)
		}
		// staged records → MCP config → settings → deny record → ownership record (W7)
		stages = append(stages, batch(batchStaged, perm.stageTarget(f, targets[0]))...)
		mid = append(mid, batch(settingsBatch, targets[0])...)
		records = append(batch(batchRecords, targets[1]), records...)
		prep.stages = append(prep.stages, &perm.stage)
		prep.perm = perm
	}
	if r.DryRun {
		stages, prep.stages = nil, nil // a dry run cannot be interrupted half-way
	}
	prep.targets = append(append(stages, mid...), records...)
	return nil
}

// staying returns the deny rules mcpwire tracks (rec) of the servers in the file after
// the edit (names) that are not selected (changed since mcpwire wrote them, or
// never its own): a --profile inject that does not select them must not leave them
// unrestricted (B7).
func staying(dr providers.DenyRules, rec *render.PermRecord, names, selected []string) []string {
	if rec == nil {
		return nil
	}
	var out []string
	for _, rule := range providers.AppendNew(slices.Clone(rec.DenyAdded), rec.DenyPreserved) {
		for _, n := range names {
			if !slices.Contains(selected, n) && dr.Owns(rule, n) {
				out = append(out, rule)
				break
			}
		}
	}
	return out
}

// fileTargetSet are the transaction targets of a client file edit.
type fileTargetSet struct{ stage, main, record fsys.Target }

// fileTargets returns the targets of a client file edit: its staged record, the file,
// and its ownership record (written in that order, W7; staging.go).
func (r *Request) fileTargets(f fsys.FS, edit *fileEdit, scope providers.Scope) (fileTargetSet, error) {
	layer := r.Registry.Set().Write()
	if r.batch == nil || !r.batch.checked[r.Registry] {
		if err := r.Registry.Set().CheckWrite(); err != nil {
			return fileTargetSet{}, err
		}
		if r.batch != nil {
			r.batch.checked[r.Registry] = true
		}
	}
	var local render.LocalRecord
	if r.Provider.Dest(scope).Nested() {
		local = render.LocalRecord{Scope: scope, Project: r.Project, Container: edit.Servers}
	}
	newOwn := render.NewOwnState
	if r.batch != nil && r.batch.lazy {
		newOwn = render.UnloadedOwnState // loaded by precompute, refused in request order by PrepareAll
	}
	own, err := newOwn(f, layer.Dir, edit.path, edit.p.Name, local)
	if err != nil {
		return fileTargetSet{}, err
	}
	edit.own = own
	private := edit.p.PrivateMode
	main := fsys.Target{
		Path:    edit.path,
		DirPerm: dirMode(scope, r.Project, edit.path),
		Check:   parentCheck(f, scope, r.Project, edit.path),
		Handoff: edit.takeHandoff,
		EditContent: func(cur fsys.Snapshot) (fsys.Content, fs.FileMode, bool, error) {
			out, err := edit.compute(cur)
			if err != nil {
				return fsys.Content{}, 0, false, err
			}
			if !cur.Exists && len(edit.set) == 0 || edit.removeFile {
				// nothing to write, and no file to remove from: none; or the file
				// mcpwire created, left with nothing of anyone's (H7)
				return fsys.Content{}, 0, true, nil
			}
			if !cur.Exists && len(edit.wrote) > 0 {
				if err := yieldCheck(f, edit.p, edit.p.Dest(scope), edit.path); err != nil {
					return fsys.Content{}, 0, false, err
				}
			}
			return out, fileMode(scope, cur, private, false), false, nil
		},
	}
	stage := stageTarget(f, own.Path+render.StagedSuffix, &edit.stage, func() ([]byte, error) {
		if err := targetCheck(main); err != nil {
			return nil, err // the file's own refusals, before any edit of it (the symlink's: stagedRecord)
		}
		return edit.stagedRecord(f)
	})
	// the staged record as this target just read it is what the record's next Load
	// reads too, while its description stays the one read (issue 31: read once)
	edit.stageEdit, stage.Edit = stage.Edit, edit.editStaged
	return fileTargetSet{stage: stage, main: main, record: edit.recordTarget()}, nil
}

// settingsTargets returns the Claude settings file and deny-record targets (C2, C3).
func (r *Request) settingsTargets(f fsys.FS, scope providers.Scope, want []string) (*permEdit, []fsys.Target, error) {
	path, err := render.ChoosePath(f, r.Provider.Settings[scope], r.pathEnv())
	if err != nil {
		return nil, nil, err
	}
	ss := settingsScope{
		client: r.Provider.Name, recordDir: r.Provider.Dialect().DenyRules().RecordDir(),
		dirPerm: dirMode(scope, r.Project, path),
		check:   parentCheck(f, scope, r.Project, path),
		mode:    func(cur fsys.Snapshot) fs.FileMode { return fileMode(scope, cur, false, true) },
	}
	return permTargets(f, r.Registry.Set().Write().Dir, path, want, ss)
}

// startNote says, for a project file the client finds only in the folder it starts in
// (Dest.FromCwd), that it must start in the project when mcpwire ran elsewhere (a
// folder below it, or another one named with --project).
func (r *Request) startNote(scope providers.Scope, path string) string {
	d := r.Provider.Dest(scope)
	if scope != providers.Project || d == nil || !d.FromCwd || r.WorkDir == "" || render.SamePath(r.WorkDir, r.Project) {
		return ""
	}
	return fmt.Sprintf("%s reads %s only when it starts in %s, not in a folder below it (such as %s)", r.Provider.Display, path, r.Project, r.WorkDir)
}
