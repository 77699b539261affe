package write

import (
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/render"
)

// spliceMin is the size of a client file from which its edit is written as pieces
// (a JSON file: the untouched stretches of the file as it was read, and the edited
// region) instead of one new buffer: a 50 MB ~/.claude.json is then held once, not
// twice (issue 31, "streaming splice"; docs/writes.md).
var spliceMin atomic.Int64

func init() { spliceMin.Store(1 << 20) }

// SetSpliceMin sets the size of a client file from which its edit is written in
// pieces, and returns what restores it: tests compare the two ways on small files.
func SetSpliceMin(n int) (restore func()) {
	old := spliceMin.Swap(int64(n))
	return func() { spliceMin.Store(old) }
}

// piecer is a document that can give its bytes in pieces (format's JSON documents).
type piecer interface {
	Pieces() [][]byte
}

// output is the edited document's content: in pieces for a large file whose
// format can give them, else one new slice.
func (e *fileEdit) output(doc format.Document, cur fsys.Snapshot) (fsys.Content, error) {
	if p, ok := doc.(piecer); ok && cur.Exists && int64(len(cur.Data)) >= spliceMin.Load() && !e.syntaxNeedsBytes() {
		return notEmpty(fsys.PiecesOf(p.Pieces()), cur), nil
	}
	out, err := doc.Bytes()
	if err != nil {
		return fsys.Content{}, err
	}
	return fsys.ContentOf(render.NotEmpty(out, cur)), nil
}

// notEmpty is render.NotEmpty of a content.
func notEmpty(out fsys.Content, cur fsys.Snapshot) fsys.Content {
	if out.Len() == 0 {
		return fsys.ContentOf(render.NotEmpty(nil, cur))
	}
	return out
}

// syntaxNeedsBytes reports whether checkSyntax reads the edited bytes: a client that
// reads strict JSON only, or refuses trailing commas or references (their files
// are small); the edit of any other file is then given in pieces.
func (e *fileEdit) syntaxNeedsBytes() bool {
	if len(e.set) == 0 {
		return false
	}
	d := e.syntax
	return e.p.StrictJSON || d != nil && (d.Strict || d.NoRefs || d.NoTrailingComma)
}

// contentDigest is render.ContentDigest of a content, hashed piece by piece.
func contentDigest(c fsys.Content) string {
	if !c.Split() {
		return render.ContentDigest(c.Bytes())
	}
	h := sha256.New()
	_, _ = c.WriteTo(h) // a hash never fails
	return hex.EncodeToString(h.Sum(nil))
}
