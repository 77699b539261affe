package render

import (
	"slices"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// H7: what mcpwire created, it removes. The record of a client file (or of Claude
// Code's settings file) that mcpwire created says so, with the directories it created
// for it, and the digest of the file as mcpwire last wrote it. While the file holds
// exactly that, everything in it is mcpwire's: when the last entry mcpwire wrote goes,
// the file goes, then those directories (each only when empty), then the record. A
// file someone else changed since is theirs too, and stays.
//
// The directories are known before they are created: a transaction that creates a
// directory for a client file first writes its staged records alone (Commit), so that
// a crash right after the mkdir leaves a staged record naming it, and the next run
// counts it as mcpwire's.

// CreatedFile says that mcpwire created a file: the directories it created for it,
// outermost first, and the sha256 of the file as mcpwire last wrote it ("" once
// mcpwire removed it, its directories still to go).
type CreatedFile struct {
	Dirs   []string `json:"dirs,omitempty"`
	Digest string   `json:"digest,omitempty"`
}

// Pending reports a file mcpwire removed (or never wrote) whose directories are
// still to go.
func (c *CreatedFile) Pending() bool { return c != nil && c.Digest == "" && len(c.Dirs) > 0 }

func sameCreated(a, b *CreatedFile) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Digest == b.Digest && slices.Equal(a.Dirs, b.Dirs)
}

// SettleCreated is what a staged record says of the file mcpwire created, against the
// file now (staging.go): the file as the transaction wrote it (or removed it: absent)
// means the write happened; anything else, that it did not, or that someone changed
// the file since: the record decides (the edit then finds the digest changed). The
// directories the staged record names stay mcpwire's either way (nextCreated).
func SettleCreated(rec, after *CreatedFile, cur fsys.Snapshot) *CreatedFile {
	d := ""
	if cur.Exists {
		d = ContentDigest(cur.Data)
	}
	if after != nil && after.Digest == d {
		return after
	}
	return rec
}
