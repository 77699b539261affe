package write

import (
	"bytes"
	"fmt"
	"io/fs"
	"reflect"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render"
)

// recordTarget is the transaction target that writes the record the client file's
// edit computed (fileEdit.next): the settled record, with the digest of every entry
// written and without the entries removed. It fails with ErrChanged when the record
// file is no longer the one the edit decided on.
func (e *fileEdit) recordTarget() fsys.Target {
	s := e.own
	return fsys.Target{
		Path:     s.Path,
		From:     s.Path + render.StagedSuffix, // when the staged record is this record too
		DirPerm:  0o700,
		Check:    func() error { return render.CheckRecordDir(s.FS, s.Path) },
		CheckKey: render.RecordDirKey(s.Path),
		Handoff:  s.TakeSnapshot, // the record as the client file's edit last loaded it
		Edit: func(cur fsys.Snapshot) ([]byte, fs.FileMode, bool, error) {
			if !s.Unchanged(cur) {
				return nil, 0, false, fmt.Errorf("%s: %w", s.Path, fsys.ErrChanged)
			}
			if e.after != nil {
				return cur.Data, 0, !cur.Exists, nil // the last edit of these entries writes the record
			}
			if e.next.Empty() {
				// nothing owned: no record (one that tracked the entries removed goes, so
				// that what an interrupted run left converges with a finished one, K10)
				e.recordOut = nil
				return nil, 0, true, nil
			}
			if final := e.finalRecord(); cur.Exists && reflect.DeepEqual(s.Rec, final) {
				// the record read (s.Rec is its decoding: Unchanged above) is the record
				// to write: its bytes stay, whichever mcpwire encoded them — what the
				// encoding below would also decide, without encoding 35 records of an
				// up-to-date run (issue 31)
				e.recordOut = cur.Data
				return e.recordOut, 0o600, false, nil
			}
			e.recordOut = e.encodedRecord()
			if cur.Exists && !bytes.Equal(cur.Data, e.recordOut) && bytes.Equal(s.Rec.Encode(), e.finalRecord().Encode()) {
				// the same record as an earlier mcpwire wrote it (without the members
				// of its staged record): left as it is
				e.recordOut = cur.Data
			}
			// a staged record holding these bytes is renamed over a record that does
			// not exist yet (From): it is this record
			return e.recordOut, 0o600, false, nil
		},
	}
}

// finalRecord is the record the edit writes: the settled record after the edit
// (next), with where it stands and who wrote there.
func (e *fileEdit) finalRecord() *render.OwnRecord {
	s := e.own
	rec := &render.OwnRecord{Destination: s.Canon, LocalRecord: s.Local, Provider: s.Rec.Provider, Providers: s.Rec.Writers(s.Writers...),
		Entries: e.next.Entries, Originals: e.next.Originals, Created: e.next.Created}
	if rec.Provider == "" {
		rec.Provider = s.Provider
	}
	return rec
}

// encodedRecord is finalRecord as it is written (render.OwnRecord.EncodeStaged),
// encoded once for the staged record's target and the record's own: the same edit
// (a memoized compute gives the same next) of the same record file (Load keeps the
// decoded record while its bytes stay) encodes the same.
func (e *fileEdit) encodedRecord() []byte {
	if m := e.encoded; m.next != e.next || m.rec != e.own.Rec || m.data == nil {
		e.encoded = encodedRecord{next: e.next, rec: e.own.Rec, data: e.finalRecord().EncodeStaged()}
	}
	return e.encoded.data
}

// encodedRecord is the last encoding of a record, and what it was encoded from.
type encodedRecord struct {
	next, rec *render.OwnRecord
	data      []byte
}
