package fsys

import (
	"bytes"
	"io"
	"io/fs"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// Content is the new content of a file: one slice, or consecutive pieces. An edit of
// a large file (a 50 MB ~/.claude.json) gives pieces, most of them slices of the file
// as it was read, so that the new content is never built in one buffer: the write
// copies the pieces to the temporary file one after the other (issue 31, "streaming
// splice"). A Content is not changed once made.
type Content struct {
	one    []byte
	pieces [][]byte
	n      int
	// joined is the pieces joined, once Bytes joined them: shared by the copies of
	// the content, so that they are joined once (a dry run's redaction and its diff
	// of a minified file both need them whole)
	joined *[]byte
}

// ContentOf is the content b.
func ContentOf(b []byte) Content { return Content{one: b, n: len(b)} }

// PiecesOf is the content made of pieces, in order. The pieces are kept, not copied:
// none of them may change while the content is in use.
func PiecesOf(pieces [][]byte) Content {
	n := lenOf(pieces)
	if len(pieces) == 1 {
		return Content{one: pieces[0], n: n}
	}
	return Content{pieces: pieces, n: n, joined: new([]byte)}
}

// Len is the content's length in bytes.
func (c Content) Len() int { return c.n }

// Split reports whether the content is in pieces (Bytes then builds a new slice).
func (c Content) Split() bool { return c.pieces != nil }

// Bytes returns the content as one slice: its own when it is one, else the pieces
// joined, the first time in a new slice that every later call (of any copy of the
// content) returns. It must not be changed.
func (c Content) Bytes() []byte {
	if c.pieces == nil {
		return c.one
	}
	if c.joined != nil && *c.joined != nil {
		return *c.joined
	}
	out := bigbuf.Make(0, c.n) // huge pages: a fresh process faults a 50 MB buffer in slowly
	for _, p := range c.pieces {
		out = append(out, p...)
	}
	if c.joined != nil {
		*c.joined = out
	}
	return out
}

// each passes the content's pieces, in order, to fn until it returns false.
func (c Content) each(fn func([]byte) bool) {
	if c.pieces == nil {
		fn(c.one)
		return
	}
	for _, p := range c.pieces {
		if !fn(p) {
			return
		}
	}
}

// WriteTo writes the content's pieces, in order, to w. It implements io.WriterTo.
func (c Content) WriteTo(w io.Writer) (int64, error) {
	var n int64
	var err error
	c.each(func(p []byte) bool {
		var k int
		k, err = w.Write(p)
		n += int64(k)
		return err == nil
	})
	return n, err
}

// Equal reports whether the content is exactly b.
func (c Content) Equal(b []byte) bool {
	if c.n != len(b) {
		return false
	}
	same := true
	c.each(func(p []byte) bool {
		same = bytes.Equal(p, b[:len(p)])
		b = b[len(p):]
		return same
	})
	return same
}

// mapped reports whether any of c's bytes lie in a mapped file (internal/bigbuf).
func (c Content) mapped() bool {
	if c.pieces == nil {
		return bigbuf.IsMapped(c.one)
	}
	for _, p := range c.pieces {
		if bigbuf.IsMapped(p) {
			return true
		}
	}
	return false
}

// identical reports whether c and d are the same content, not only the same bytes:
// the same slices.
func (c Content) identical(d Content) bool {
	switch {
	case c.n != d.n || (c.pieces == nil) != (d.pieces == nil):
		return false
	case c.pieces == nil:
		return c.n == 0 || unsafe.SliceData(c.one) == unsafe.SliceData(d.one)
	}
	return len(c.pieces) == len(d.pieces) && (len(c.pieces) == 0 || &c.pieces[0] == &d.pieces[0])
}

// SameAs reports whether the two contents hold the same bytes.
func (c Content) SameAs(d Content) bool {
	if c.n != d.n {
		return false
	}
	if d.pieces == nil {
		return c.Equal(d.one)
	}
	if c.pieces == nil {
		return d.Equal(c.one)
	}
	// both in pieces: walk them side by side
	var rest []byte
	i := 0
	same := true
	c.each(func(p []byte) bool {
		for len(p) > 0 {
			for len(rest) == 0 {
				rest = d.pieces[i]
				i++
			}
			k := min(len(p), len(rest))
			if !bytes.Equal(p[:k], rest[:k]) {
				same = false
				return false
			}
			p, rest = p[k:], rest[k:]
		}
		return true
	})
	return same
}

// contentWriter is a filesystem that writes a Content without joining its pieces.
type contentWriter interface {
	// WriteContent is [FS.WriteFile] of a Content, written piece by piece.
	WriteContent(name string, c Content, perm fs.FileMode, opts *WriteOptions) error
}

// contentStager is a [Batcher] that stages a Content piece by piece.
type contentStager interface {
	StageContent(name string, c Content, perm fs.FileMode) (*PendingWrite, error)
}

// writeContent writes c to name through f: piece by piece when f can, else joined.
func writeContent(f FS, name string, c Content, perm fs.FileMode, opts *WriteOptions) error {
	if w, ok := f.(contentWriter); ok && c.Split() {
		return w.WriteContent(name, c, perm, opts)
	}
	return f.WriteFile(name, c.Bytes(), perm, opts)
}

// stageContent stages c through b: piece by piece when b can, else joined.
func stageContent(b Batcher, name string, c Content, perm fs.FileMode) (*PendingWrite, error) {
	if s, ok := b.(contentStager); ok && c.Split() {
		return s.StageContent(name, c, perm)
	}
	return b.StageWrite(name, c.Bytes(), perm)
}

// Pieces returns the content's pieces, in order (one for a content of one slice).
// They must not be changed.
func (c Content) Pieces() [][]byte {
	if c.pieces == nil {
		return [][]byte{c.one}
	}
	return c.pieces
}

// Slice returns bytes from to to of the content: a slice of a piece when they lie in
// one, else a new slice; a slice of the content joined (Bytes) when they are most of
// it, so that such slices share one join. None is to be changed.
func (c Content) Slice(from, to int) []byte {
	if from < 0 || to > c.n || from > to {
		panic("fsys: Content.Slice out of range")
	}
	if c.pieces == nil {
		return c.one[from:to]
	}
	if c.joined != nil && (*c.joined != nil || to-from > c.n/2) {
		return c.Bytes()[from:to]
	}
	var out []byte
	at := 0
	for _, p := range c.pieces {
		lo, hi := max(from-at, 0), min(to-at, len(p))
		at += len(p)
		if lo >= hi {
			if at >= to {
				break
			}
			continue
		}
		if out == nil && hi-lo == to-from {
			return p[lo:hi]
		}
		if out == nil {
			out = make([]byte, 0, to-from)
		}
		out = append(out, p[lo:hi]...)
	}
	return out
}

// HasPrefix reports whether the content starts with prefix.
func (c Content) HasPrefix(prefix []byte) bool {
	return c.n >= len(prefix) && bytes.Equal(c.Slice(0, len(prefix)), prefix)
}

// CommonEnds returns the lengths of the common prefix and suffix of old and the
// content, not overlapping on either, compared piece by piece.
func (c Content) CommonEnds(old []byte) (prefix, suffix int) {
	ps := c.Pieces()
	for _, p := range ps {
		k := commonPrefix(p, old[prefix:])
		prefix += k
		if k < len(p) {
			break
		}
	}
	limit := min(len(old), c.n) - prefix
	for i := len(ps) - 1; i >= 0 && suffix < limit; i-- {
		p := ps[i]
		p = p[max(0, len(p)-(limit-suffix)):]
		k := commonSuffix(p, old[:len(old)-suffix])
		suffix += k
		if k < len(p) {
			break
		}
	}
	return prefix, min(suffix, limit)
}

// Drop returns the content without its first n bytes.
func (c Content) Drop(n int) Content {
	if c.pieces == nil {
		return ContentOf(c.one[n:])
	}
	ps := c.pieces
	for len(ps) > 0 && n >= len(ps[0]) {
		n -= len(ps[0])
		ps = ps[1:]
	}
	if n > 0 {
		ps = append([][]byte{ps[0][n:]}, ps[1:]...)
	}
	return Content{pieces: ps, n: lenOf(ps)}
}

// lenOf is the length of pieces.
func lenOf(ps [][]byte) int {
	n := 0
	for _, p := range ps {
		n += len(p)
	}
	return n
}

// Sub returns bytes from to to of the content as a content, without copying them.
func (c Content) Sub(from, to int) Content {
	if c.pieces == nil {
		return ContentOf(c.one[from:to])
	}
	d := c.Drop(from)
	ps, n := d.Pieces(), to-from
	var out [][]byte
	for _, p := range ps {
		if n == 0 {
			break
		}
		k := min(len(p), n)
		out, n = append(out, p[:k]), n-k
	}
	return Content{pieces: out, n: to - from}
}
