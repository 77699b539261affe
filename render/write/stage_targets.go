package write

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render"
)

// The write batches of a transaction (fsys.Target.Batch, docs/writes.md
// "Durability"): every staged record is durable before the first client file is
// renamed, every client file (and Claude's settings) before the first record. Within
// a batch the renames may reach the disk in any order: each file's staged record
// settles it alone.
const (
	batchStaged = 1 + iota
	batchFiles
	// batchLegacy is install's legacy settings file, from which the built-in entry
	// goes only once the destination holds it.
	batchLegacy
	batchRecords
)

// batch returns the targets, each in write batch b.
func batch(b int, targets ...fsys.Target) []fsys.Target {
	for i := range targets {
		targets[i].Batch = b
	}
	return targets
}

// stageTarget is the target writing the staged deny record before the settings file.
func (e *permEdit) stageTarget(f fsys.FS, settings fsys.Target) fsys.Target {
	return stageTarget(f, e.recPath+render.StagedSuffix, &e.stage, func() ([]byte, error) {
		if err := targetCheck(settings); err != nil {
			return nil, err
		}
		cur, err := fsys.ReadSnapshotChecked(f, e.path) // and no symlink at its path
		if err != nil {
			return nil, err
		}
		out, keep, err := e.apply(cur)
		if err != nil || !e.active || !keep && !cur.Exists || cur.Exists && bytes.Equal(out, cur.Data) {
			return nil, err // the settings file does not change
		}
		after := e.newRecord(e.canon, out)
		if e.record != nil && bytes.Equal(after.Encode(), e.record.Encode()) {
			return nil, nil
		}
		return (&render.PermStage{Before: e.record, BeforeDigest: render.DenyDigest(e.before), After: after}).Encode(), nil
	})
}

// staged is one staged record of a transaction: what its target left there (written,
// or found and settled), which unstage removes once the records are written.
type staged struct {
	path string
	data []byte
	ok   bool
}

// stageTarget is the target that writes a staged record before the file it describes.
// decide returns the staged bytes, or nil when the transaction needs none (the file
// does not change, or its record stays the same); a staged record an earlier run left
// then stays as it is until unstage.
func stageTarget(f fsys.FS, path string, st *staged, decide func() ([]byte, error)) fsys.Target {
	return fsys.Target{
		Path:     path,
		Guard:    strings.TrimSuffix(path, render.StagedSuffix), // its record's lock (docs/writes.md)
		DirPerm:  0o700,
		Check:    func() error { return render.CheckRecordDir(f, path) },
		CheckKey: render.RecordDirKey(path),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			data, err := decide()
			if err != nil {
				return nil, 0, false, err
			}
			st.path = path
			switch {
			case data != nil:
				st.data, st.ok = data, true
				return data, 0o600, false, nil
			case cur.Exists:
				st.data, st.ok = cur.Data, true
				return cur.Data, 0, false, nil
			}
			st.data, st.ok = nil, false
			return nil, 0, true, nil
		},
	}
}

// editStaged is the staged record's Edit (stageEdit), first telling the ownership
// record's state what the target read of the staged file (render.OwnState.UseStaged).
func (e *fileEdit) editStaged(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
	e.own.UseStaged(cur)
	return e.stageEdit(cur)
}

// unstage removes the staged records of a finished transaction, each only while it
// holds what the transaction left there (another run may have staged its own since).
// A failure leaves a staged record that the next run settles and removes: it is said
// as a warning, not an error, since every file is written.
func unstage(f fsys.FS, list []*staged, warn func(string)) {
	var targets []fsys.Target
	for _, st := range list {
		if !st.ok {
			continue
		}
		st := st
		targets = append(targets, fsys.Target{
			Path:  st.path,
			Guard: strings.TrimSuffix(st.path, render.StagedSuffix),
			Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
				if cur.Exists && bytes.Equal(cur.Data, st.data) {
					return nil, 0, true, nil
				}
				if !cur.Exists {
					return nil, 0, true, nil
				}
				return cur.Data, 0, false, nil
			},
		})
	}
	if len(targets) == 0 {
		return
	}
	if _, err := fsys.Apply(f, targets); err != nil && warn != nil {
		warn(fmt.Sprintf("could not remove a staged ownership record (the next run settles and removes it): %v", err))
	}
}

// unstageWritten removes, while the transaction still holds their locks, the staged
// records it wrote (results), and with pre those the command's pre-staging wrote
// (preStage) whose record the transaction wrote, under the record's lock, which
// guards its staged record too: no other mcpwire process can have changed them since.
// Those it found and kept (an interrupted run's, settled) are not locked, and go with
// unstage; so does one that cannot be removed now. (Before issue 31, a pre-staged
// record went with unstage, which took the records' locks a third time.)
func unstageWritten(f fsys.FS, list []*staged, results []fsys.Result, pre bool) {
	written, changed := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		written[filepath.Clean(r.Path)] = r.Changed && !r.Removed
		changed[filepath.Clean(r.Path)] = r.Changed
	}
	var done []*staged
	var paths []string
	var want [][]byte
	for _, st := range list {
		path := filepath.Clean(st.path)
		if st.ok && (written[path] || pre && changed[strings.TrimSuffix(path, render.StagedSuffix)]) {
			done, paths, want = append(done, st), append(paths, st.path), append(want, st.data)
		}
	}
	for i, removed := range fsys.RemoveUnchanged(f, paths, want) {
		done[i].ok = !removed
	}
}

// targetCheck is the check Apply runs on a target before its Edit (its Check), for a
// staged record's target that edits it first; the other, no symlink at its path, is
// made by the read of the file that follows (fsys.ReadSnapshotChecked).
func targetCheck(t fsys.Target) error {
	if t.Check != nil {
		return t.Check()
	}
	return nil
}
