package fsys

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// compareChunk is the read size of a streaming comparison.
const compareChunk = 1 << 20

// contentComparer is implemented by filesystems that can compare a file with bytes
// without reading it whole (a 50 MB ~/.claude.json is compared several times per
// write; reading it whole each time would triple mcpwire's memory).
type contentComparer interface {
	sameContent(name string, want Snapshot) (bool, error)
}

// SameContent reports whether name still holds exactly what want describes: same
// existence and, when it exists, the same bytes.
func SameContent(f FS, name string, want Snapshot) (bool, error) {
	if c, ok := f.(contentComparer); ok {
		return c.sameContent(name, want)
	}
	cur, err := ReadSnapshot(f, name)
	if err != nil {
		return false, err
	}
	return cur.Exists == want.Exists && bigbuf.Same(cur.Data, want.Data), nil
}

// sameContent streams the file and compares it chunk by chunk.
func (OS) sameContent(name string, want Snapshot) (bool, error) {
	fh, err := openFile(name, os.O_RDONLY|nonBlock, 0) // a FIFO swapped in does not block
	if errors.Is(err, fs.ErrNotExist) {
		return !want.Exists, nil
	}
	if err != nil {
		return false, err
	}
	defer fh.Close()
	if !want.Exists {
		return false, nil
	}
	fi, err := fh.Stat()
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() || fi.Size() != int64(len(want.Data)) {
		return false, nil
	}
	if bigbuf.IsMapped(want.Data) {
		return sameSums(fh, bigbuf.Sums(want.Data))
	}
	buf := make([]byte, min(compareChunk, len(want.Data)+1)) // a small file, a small buffer
	rest := want.Data
	for {
		n, err := io.ReadFull(fh, buf[:min(len(buf), len(rest)+1)])
		if !bytes.Equal(buf[:n], rest[:min(n, len(rest))]) || n > len(rest) {
			return false, nil
		}
		rest = rest[n:]
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return len(rest) == 0, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// sameSums reports whether the file open as fh, of the size already checked, holds
// chunks of the digests sums: the compare of a file with a mapped snapshot, whose
// pages show the file as it is now, not as it was read (docs/writes.md, "A large
// file's edit, written in pieces"). The file is read a chunk at a time into one
// buffer, never mapped.
func sameSums(fh io.Reader, sums []uint64) (bool, error) {
	buf := make([]byte, bigbuf.Chunk)
	for _, want := range sums {
		n, err := io.ReadFull(fh, buf)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			if errors.Is(err, io.EOF) {
				return false, nil
			}
			return false, err
		}
		if bigbuf.Sum(buf[:n]) != want {
			return false, nil
		}
	}
	n, err := fh.Read(buf[:1]) // nothing more
	if n > 0 {
		return false, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return true, nil
}
