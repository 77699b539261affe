package write

import (
	"bytes"
	"fmt"
	"io/fs"

	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// outTargets returns the targets of an explicit --out path: the output, and its
// record. An existing file there must be an earlier ephemeral output mcpwire
// recorded and nobody changed since — never a hand-written file, a client's own
// file, or an earlier run's deny-rule sidecar.
func (r *Request) outTargets(f fsys.FS, out string, content []byte, entries []namedEntry, st *staged) (outTargetSet, error) {
	set := r.Registry.Set()
	if err := set.CheckWrite(); err != nil {
		return outTargetSet{}, err
	}
	recPath, canon, err := render.RecordPath(set.Write().Dir, render.OwnershipDir, out)
	if err != nil {
		return outTargetSet{}, err
	}
	for _, p := range []string{recPath, recPath + render.StagedSuffix} {
		if _, err := render.ReadOutRecord(f, p); err != nil {
			return outTargetSet{}, err // a corrupt record: refused before any write
		}
	}
	sidecar := false
	for _, dir := range providers.RuleRecordDirs() {
		if permPath, _, err := render.RecordPath(set.Write().Dir, dir, out); err == nil {
			if data, err := f.ReadFile(permPath); err == nil {
				if pr, err := render.DecodePermRecord(permPath, data); err == nil && pr.Sidecar {
					sidecar = true
				}
			}
		}
	}
	outT := fsys.Target{
		Path:  out,
		Check: func() error { return fsys.CheckRealDirs(f, "", out) },
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if !cur.Exists {
				return content, 0o600, false, nil
			}
			// the record as it is now (again under the lock), against the bytes read; or
			// the staged record of a run interrupted before its record (staging.go)
			mine := false
			for _, p := range []string{recPath, recPath + render.StagedSuffix} {
				rec, err := render.ReadOutRecord(f, p)
				if err != nil {
					return nil, 0, false, err
				}
				mine = mine || rec != nil && rec.ContentDigest == render.ContentDigest(cur.Data)
			}
			if !mine {
				if sidecar {
					return nil, 0, false, hint.Wrap(fmt.Errorf("%s is the deny-rule sidecar of an earlier run", out), anotherOut)
				}
				return nil, 0, false, hint.Wrap(fmt.Errorf("%s exists and is not a config mcpwire wrote", out), anotherOut)
			}
			return content, 0o600, false, nil
		},
	}
	nr := &render.OutRecord{Destination: canon, Provider: r.Provider.Name, Entries: map[string]string{}, Ephemeral: true, ContentDigest: render.ContentDigest(content)}
	for _, e := range entries {
		raw, err := format.Marshal(e.entry)
		if err != nil {
			return outTargetSet{}, err
		}
		nr.Entries[e.name] = format.Digest(raw)
	}
	body := nr.Encode()
	stageT := stageTarget(f, recPath+render.StagedSuffix, st, func() ([]byte, error) {
		cur, err := fsys.ReadSnapshot(f, out)
		if err != nil || cur.Exists && bytes.Equal(cur.Data, content) {
			return nil, err // the output does not change
		}
		return body, nil
	})
	recT := fsys.Target{
		Path:     recPath,
		DirPerm:  0o700,
		Check:    func() error { return render.CheckRecordDir(f, recPath) },
		CheckKey: render.RecordDirKey(recPath),
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			return body, 0o600, false, nil
		},
	}
	return outTargetSet{stage: stageT, out: outT, record: recT}, nil
}

// outTargetSet are the targets of an explicit --out path.
type outTargetSet struct{ stage, out, record fsys.Target }
