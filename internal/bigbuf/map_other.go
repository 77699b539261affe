//go:build !linux

package bigbuf

import "errors"

// errNoMap is Map's refusal: files are read, not mapped, here.
var errNoMap = errors.New("files are not mapped on this system")

// Map is refused where files are read instead (only Linux maps them: see
// map_linux.go); the caller reads the file.
func Map(fd, size int) (*Mapped, []byte, error) { return nil, nil, errNoMap }

// Sum is the digest of one Chunk of a file; unused where nothing is mapped.
func Sum([]byte) uint64 { return 0 }

// release does nothing: nothing is mapped.
func release([]byte) {}

// Populate does nothing: nothing is mapped.
func Populate([]byte) {}

// ErrShort reports that a copy from a mapped file ended before its range did.
var ErrShort = errors.New("the file was cut short while being copied")

// IsNoCopy reports CopyRange's refusal to copy: always, here.
func IsNoCopy(err error) bool { return err != nil }

// CopyRange is refused: nothing is mapped here.
func (m *Mapped) CopyRange(dst int, off int64, n int) error {
	_ = m.fd // never set here
	return errNoMap
}
