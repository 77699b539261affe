package write

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// permEdit computes the deny rules of one Claude settings file (C2, C4).
type permEdit struct {
	// client names the client whose settings file it is, in messages.
	client string
	path   string
	want   []string
	// wantFn, when set, computes want at edit time (uninject: the rules of the
	// servers actually removed depend on the config file's edit).
	wantFn func() []string
	// wantRecorded: wantFn adds to want only rules the record tracks (inject).
	wantRecorded bool
	// keepOnly: add no rule, only keep or remove tracked ones (uninject).
	keepOnly bool
	// record is the deny record (nil when there is none): read when the edit is
	// prepared, and again from recPath through f every time the settings edit runs
	// (under the transaction's lock), so that the rules are decided on the record as
	// it is then, not as it was when the edit was prepared (C3, C4, W8).
	record  *render.PermRecord
	f       fsys.FS
	recPath string
	canon   string
	// prepared are the record's denyAdded when the edit was prepared: an uninjection's
	// wantFn was computed from them.
	prepared []string
	sidecar  bool

	// the record as the last edit read it (for the record target's check), and the
	// staged record an interrupted run left (staging.go)
	recRaw    []byte
	recExists bool
	staged    *render.PermStage
	stage     staged

	// results of the last edit
	deny      []string
	added     []string
	preserved []string
	warn      []string
	active    bool
	// before is the deny array the last edit started from, and out its result (nil
	// when the settings file stays absent)
	before []string
	out    []byte
	// created is what the record says of a settings file mcpwire created after the
	// edit, removeFile that the edit removes it (H7); missing are its directories that
	// did not exist when an edit first found it absent; recordOut is the record as the
	// transaction writes it.
	created      *render.CreatedFile
	removeFile   bool
	missing      []string
	missingKnown bool
	recordOut    []byte
}

// loadRecord reads the deny record and its staged copy again (nothing to do for an
// edit without one, such as an ephemeral sidecar's).
func (e *permEdit) loadRecord() error {
	if e.f == nil || e.recPath == "" {
		return nil
	}
	data, exists, err := render.ReadOptional(e.f, e.recPath)
	if err != nil {
		return err
	}
	e.record, e.recRaw, e.recExists = nil, data, exists
	if exists {
		if e.record, err = render.DecodePermRecord(e.recPath, data); err != nil {
			return err
		}
	}
	e.staged = nil
	data, exists, err = render.ReadOptional(e.f, e.recPath+render.StagedSuffix)
	if err != nil || !exists {
		return err
	}
	e.staged, err = render.DecodePermStage(e.recPath+render.StagedSuffix, data)
	return err
}

// recordUnchanged reports whether the record file still holds what the last settings
// edit decided on.
func (e *permEdit) recordUnchanged(cur fsys.Snapshot) bool {
	return cur.Exists == e.recExists && (!cur.Exists || bytes.Equal(cur.Data, e.recRaw))
}

// compute applies the ownership algorithm of C4 to the current deny array. Only rules
// that become preserved in this run are warned about: those already preserved were
// named by an earlier run.
func (e *permEdit) compute(current, want []string) {
	rec := e.record
	var tracked []string
	if rec != nil {
		tracked = providers.AppendNew(slices.Clone(rec.DenyAdded), rec.DenyPreserved)
	}
	deny := slices.Clone(current)
	var added, preserved, warn []string
	unchanged := rec != nil && rec.DenyDigest != "" && rec.DenyDigest == render.DenyDigest(current)
	for _, r := range tracked {
		if !slices.Contains(deny, r) {
			continue // the person removed it: no longer tracked
		}
		wanted := slices.Contains(want, r)
		switch {
		case unchanged && !slices.Contains(rec.DenyPreserved, r) && wanted:
			added = append(added, r)
		case unchanged && !slices.Contains(rec.DenyPreserved, r):
			i := slices.Index(deny, r)
			deny = slices.Delete(deny, i, i+1)
		default: // the array changed, or the rule was already uncertain: keep it
			preserved = append(preserved, r)
			if !wanted && !slices.Contains(rec.DenyPreserved, r) {
				warn = append(warn, r)
			}
		}
	}
	for _, r := range want {
		if e.keepOnly {
			break
		}
		if slices.Contains(deny, r) {
			continue // already there: mcpwire's (tracked above) or the person's own
		}
		deny = append(deny, r)
		added = append(added, r)
	}
	e.deny, e.added, e.preserved, e.warn = deny, added, preserved, warn
}

// apply edits the settings bytes. A settings file is touched only when there are
// rules to write, a record (or a staged one) exists, or it is a sidecar.
func (e *permEdit) apply(cur fsys.Snapshot) ([]byte, bool, error) {
	e.out = nil
	if err := e.loadRecord(); err != nil {
		return nil, false, err
	}
	if e.f != nil {
		if err := render.CheckNotEmpty(e.f, format.JSON, e.path, cur); err != nil {
			return nil, false, err
		}
	}
	doc, err := format.ParseJSON(e.path, cur.Data, cur.Exists)
	if err != nil {
		return nil, false, err
	}
	current, err := render.ValidateSettings(e.path, doc)
	if err != nil {
		return nil, false, err
	}
	if e.staged != nil {
		created := render.SettleCreated(e.record.CreatedOf(), e.staged.After.Created, cur)
		settled := e.staged.Settle(e.record, current)
		switch {
		case settled != nil:
			c := *settled
			c.Created, settled = created, &c
		case created != nil:
			settled = &render.PermRecord{SettingsPath: e.staged.After.SettingsPath, Created: created}
		}
		e.record = settled
	}
	e.before = current
	want := e.want
	if e.wantFn != nil {
		want = e.wantFn()
	}
	if e.keepOnly && e.record != nil {
		// rules recorded since the uninjection was prepared belong to an injection it
		// knows nothing about: keep them
		want = slices.Clone(want)
		for _, r := range e.record.DenyAdded {
			if !slices.Contains(e.prepared, r) {
				want = providers.AppendNew(want, []string{r})
			}
		}
	}
	e.active = e.sidecar || e.record != nil || e.staged != nil || len(want) > 0
	e.created, e.removeFile = nil, false
	if !e.active {
		return cur.Data, cur.Exists, nil
	}
	e.compute(current, want)
	out, keep, err := e.settingsOut(doc, cur, current)
	if err != nil || e.sidecar {
		return out, keep, err
	}
	if !cur.Exists && !e.missingKnown {
		e.missing, e.missingKnown = missingDirs(e.f, e.path), true
	}
	var intent *render.CreatedFile
	if e.staged != nil {
		intent = e.staged.After.Created
	}
	e.created, e.removeFile = nextCreated(e.f, e.path, cur, fsys.ContentOf(out), e.record.CreatedOf(), intent, e.missing, keep, len(e.deny) == 0)
	if e.removeFile {
		out, keep, e.out = nil, false, nil
	}
	return out, keep, nil
}

// settingsOut is the settings file with the deny array of the edit, and whether
// there is a file.
func (e *permEdit) settingsOut(doc format.Document, cur fsys.Snapshot, current []string) ([]byte, bool, error) {
	if slices.Equal(current, e.deny) && cur.Exists {
		return cur.Data, true, nil
	}
	if !cur.Exists && len(e.deny) == 0 {
		return cur.Data, false, nil // no file and no rule: create none (and never "deny": null)
	}
	if e.deny == nil {
		e.deny = []string{}
	}
	if err := doc.Set([]string{"permissions", "deny"}, e.deny); err != nil {
		return nil, false, err
	}
	out, err := doc.Bytes()
	e.out = out
	return out, true, err
}

// record returns the record after the edit.
func (e *permEdit) newRecord(canon string, content []byte) *render.PermRecord {
	r := &render.PermRecord{SettingsPath: canon, DenyAdded: e.added, DenyPreserved: e.preserved, DenyDigest: render.DenyDigest(e.deny), Sidecar: e.sidecar,
		Created: e.created}
	if e.sidecar {
		r.ContentDigest = render.ContentDigest(content)
	}
	return r
}

// warning names the rules that became preserved in this run because the deny array
// changed (C4); rules an earlier run already preserved (and named) are not repeated.
func (e *permEdit) warning() string {
	if len(e.warn) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: kept deny rules %s in %s: permissions.deny changed since mcpwire wrote it, so mcpwire cannot tell whether you rely on them; remove them by hand when no longer wanted",
		e.client, strings.Join(e.warn, ", "), e.path)
}

// idle reports whether the settings edit, as prepared, has nothing to do: no rule to
// add, no record or staged record to settle, no sidecar. Its apply then leaves the
// settings file as it is (active false), so a file that is not there is not created.
// The edit reads the record again under the lock; a record another process wrote
// since makes it active then.
func (e *permEdit) idle() bool {
	return !e.sidecar && e.record == nil && e.staged == nil && len(e.want) == 0 && (e.wantFn == nil || e.wantRecorded)
}

// permTargets returns the settings edit of the deny rules want in settings, with its
// record read (a corrupt one refused before anything is written), and its two
// targets in W7 order: the settings file, then its deny record.
func permTargets(f fsys.FS, layerDir, settings string, want []string, scope settingsScope) (*permEdit, []fsys.Target, error) {
	recPath, canon, err := render.RecordPath(layerDir, scope.recordDir, settings)
	if err != nil {
		return nil, nil, err
	}
	e := &permEdit{client: scope.client, path: settings, want: want, sidecar: scope.sidecar, f: f, recPath: recPath, canon: canon}
	// read now to refuse a corrupt record before anything is written (the settings
	// edit reads it again under the lock)
	if err := e.loadRecord(); err != nil {
		return nil, nil, err
	}
	if e.record != nil {
		e.prepared = slices.Clone(e.record.DenyAdded)
	}
	if e.staged != nil {
		e.prepared = providers.AppendNew(e.prepared, e.staged.After.DenyAdded)
	}
	var written []byte
	settingsT := fsys.Target{
		Path:    settings,
		DirPerm: scope.dirPerm,
		Check:   scope.check,
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			out, keep, err := e.apply(cur)
			if err != nil {
				return nil, 0, false, err
			}
			written = out
			if !keep {
				// nothing to write and nothing there: stay absent; or the settings file
				// mcpwire created, left with no rule (H7)
				return nil, 0, true, nil
			}
			return out, scope.mode(cur), false, nil
		},
	}
	recT := fsys.Target{
		Path:     recPath,
		DirPerm:  0o700,
		Check:    func() error { return render.CheckRecordDir(f, recPath) },
		CheckKey: render.RecordDirKey(recPath),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if !e.recordUnchanged(cur) {
				// the settings edit decided on another record: never overwrite this one
				return nil, 0, false, fmt.Errorf("%s: %w", recPath, fsys.ErrChanged)
			}
			if !e.active {
				if cur.Exists {
					return cur.Data, cur.Mode.Perm(), false, nil
				}
				return nil, 0, true, nil
			}
			rec := e.newRecord(canon, written)
			if rec.Empty() {
				e.recordOut = nil
				return nil, 0, true, nil // tracks no rule: no record (K10)
			}
			e.recordOut = rec.Encode()
			return e.recordOut, 0o600, false, nil
		},
	}
	return e, []fsys.Target{settingsT, recT}, nil
}

// settingsScope says how a settings file is written.
type settingsScope struct {
	// client names the client; recordDir is the write layer's directory of its deny
	// rules' records (providers.DenyRules).
	client, recordDir string
	dirPerm           fs.FileMode
	check             func() error
	mode              func(cur fsys.Snapshot) fs.FileMode
	sidecar           bool
}
