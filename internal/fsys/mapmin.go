package fsys

import "sync/atomic"

// mapMin is the size from which a file is mapped read-only instead of read into
// the process's memory (internal/bigbuf; Linux only, elsewhere files are read): a
// 50 MB ~/.claude.json then stays resident a window at a time as it is scanned,
// digested, written and compared, instead of whole (issue 31; docs/writes.md, "A
// large file's edit, written in pieces"). The same size from which its edit is
// written in pieces.
var mapMin atomic.Int64

func init() { mapMin.Store(1 << 20) }

// SetMapMin sets the size from which a file is mapped instead of read, and returns
// what restores it: the crash and fault matrices map the small files they edit in
// pieces. Every mapping stays for the life of the process, with a descriptor.
func SetMapMin(n int64) (restore func()) {
	old := mapMin.Swap(n)
	return func() { mapMin.Store(old) }
}
