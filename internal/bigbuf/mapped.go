package bigbuf

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"unsafe"
)

// Mapped is a large file mapped read-only in place of a read (Linux: see Map). Its
// bytes are the file's own pages, shared with the page cache: touching them makes
// them resident in the process, Release drops them again, and another program's
// write to the file (not a rename over it) shows through them. A mapping is never
// unmapped: slices of it may live anywhere (a document's pieces, a dry run's diff),
// and a command-line process ends soon enough; nor is its descriptor closed, as a
// write copies stretches of the file from it (CopyRange).
type Mapped struct {
	lo, hi uintptr
	// fd is the file's descriptor, kept open for CopyRange.
	fd int
	// Sums are the digests of the file's Chunk-sized pieces, taken as it was mapped
	// (before anything else read it): see fsys, the compare before the rename (W8).
	Sums []uint64
}

// Chunk is the step of the passes over a mapping: each drops the pages behind it
// after every Chunk, so that only about one Chunk of the file is resident at a time.
const Chunk = 1 << 20

// maps are the files mapped (register, Linux): replaced, never changed in place, so
// that a look-up (every string jsonc hands out asks, Raw.Text) takes no lock.
var maps atomic.Pointer[[]*Mapped]

// Lookup returns the mapping that b lies in (at offset off of the file), or nil.
func Lookup(b []byte) (m *Mapped, off int64) {
	if len(b) == 0 || maps.Load() == nil {
		return nil, 0
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return lookupAddr(p, p+uintptr(len(b)))
}

// lookupAddr returns the mapping holding [lo, hi).
func lookupAddr(lo, hi uintptr) (*Mapped, int64) {
	ms := maps.Load()
	if ms == nil {
		return nil, 0
	}
	for _, m := range *ms {
		if m.lo <= lo && hi <= m.hi {
			return m, int64(lo - m.lo)
		}
	}
	return nil, 0
}

// IsMapped reports whether b lies in a mapped file.
func IsMapped(b []byte) bool {
	m, _ := Lookup(b)
	return m != nil
}

// Release drops the pages wholly inside b from the process when b lies in a mapped
// file (the page cache keeps them; a later touch maps them again). Anything else is
// left alone.
func Release(b []byte) {
	if m, _ := Lookup(b); m != nil {
		release(b)
	}
}

// FaultError reports that a mapped file's page could not be read: the file was cut
// short (truncated) by another program while mapped.
type FaultError struct{ Addr uintptr }

func (e *FaultError) Error() string { return "a mapped file was cut short while being read" }

// Guard runs fn with faults turned into panics (debug.SetPanicOnFault) and returns a
// *FaultError when fn touched a page of a mapped file past its end (SIGBUS). Any
// other panic goes on.
func Guard(fn func()) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			if e := faultIn(r); e != nil {
				err = e
				return
			}
			panic(r)
		}
	}()
	fn()
	return nil
}

// faultIn returns the *FaultError of a recovered fault at an address of a mapped
// file, or nil.
func faultIn(r any) *FaultError {
	if fe, ok := r.(*FaultError); ok {
		return fe // raised again by the goroutine that waited for the one it was caught in (Faults)
	}
	re, ok := r.(runtime.Error)
	if !ok {
		return nil
	}
	a, ok := re.(interface{ Addr() uintptr })
	if !ok {
		return nil
	}
	addr := a.Addr()
	if m, _ := lookupAddr(addr, addr+1); m == nil {
		return nil
	}
	return &FaultError{Addr: addr}
}

// Recovered is faultIn for a caller that recovers itself: the *FaultError of r when
// it is a fault in a mapped file, else nil.
func Recovered(r any) error {
	if e := faultIn(r); e != nil {
		return e
	}
	return nil
}

// whole returns the mapping of which b is the whole file, or nil.
func whole(b []byte) *Mapped {
	m, off := Lookup(b)
	if m == nil || off != 0 || uintptr(len(b)) != m.hi-m.lo {
		return nil
	}
	return m
}

// Sums returns the digests of b's chunks as Map takes them: a mapped file's, taken
// when it was mapped, when b is one (its bytes now may differ: another program may
// have written to the file since), else computed.
func Sums(b []byte) []uint64 {
	if m := whole(b); m != nil {
		return m.Sums
	}
	sums := make([]uint64, 0, (len(b)+Chunk-1)/Chunk)
	for at := 0; at < len(b); at += Chunk {
		sums = append(sums, Sum(b[at:min(at+Chunk, len(b))]))
	}
	return sums
}

// Same reports whether a and b hold the same bytes, where either may be a whole
// mapped file read earlier: such a file is what it held when it was mapped (its
// digests), not what its pages show now, since two mappings of one file that
// another program wrote to in place show the same bytes. Two unmapped slices are
// compared byte by byte.
func Same(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	ma, mb := whole(a), whole(b)
	switch {
	case ma == nil && mb == nil:
		return string(a) == string(b)
	case ma == mb:
		return true
	}
	sa, sb := Sums(a), Sums(b)
	if len(sa) != len(sb) {
		return false
	}
	for i := range sa {
		if sa[i] != sb[i] {
			return false
		}
	}
	return true
}

// Count is bytes.Count(b, []byte{c}), a Chunk at a time over a mapped file, its
// pages dropped behind.
func Count(b []byte, c byte) int {
	if !IsMapped(b) {
		return bytes.Count(b, []byte{c})
	}
	n := 0
	for at := 0; at < len(b); at += Chunk {
		part := b[at:min(at+Chunk, len(b))]
		Populate(part)
		n += bytes.Count(part, []byte{c})
		release(part)
	}
	return n
}

// IndexByte is bytes.IndexByte(b, c), a Chunk at a time over a mapped file, the
// pages it passed dropped.
func IndexByte(b []byte, c byte) int {
	if !IsMapped(b) {
		return bytes.IndexByte(b, c)
	}
	for at := 0; at < len(b); at += Chunk {
		part := b[at:min(at+Chunk, len(b))]
		Populate(part)
		i := bytes.IndexByte(part, c)
		release(part)
		if i >= 0 {
			return at + i
		}
	}
	return -1
}

// LastIndexByte is bytes.LastIndexByte(b, c), a Chunk at a time backwards over a
// mapped file, the pages it passed dropped.
func LastIndexByte(b []byte, c byte) int {
	if !IsMapped(b) {
		return bytes.LastIndexByte(b, c)
	}
	for end := len(b); end > 0; end -= Chunk {
		from := max(0, end-Chunk)
		part := b[from:end]
		Populate(part)
		i := bytes.LastIndexByte(part, c)
		release(part)
		if i >= 0 {
			return from + i
		}
	}
	return -1
}

// Mappings is how many files the process has mapped (tests: the crash and fault
// matrices check that they edited mapped files).
func Mappings() int {
	if ms := maps.Load(); ms != nil {
		return len(*ms)
	}
	return 0
}

// Faults carries a fault of a mapped file caught in other goroutines to the one that
// waits for them: SetPanicOnFault is a goroutine's own, so a worker that touches a
// mapped file runs its work through Faults.Guard, and the goroutine that waits for
// the workers calls Raise, which panics with the first fault caught there, for that
// goroutine's Guard to return (cmd/mcpwire's Run: "a file changed while mcpwire was
// reading it", never a crash).
type Faults struct{ first atomic.Pointer[FaultError] }

// Guard runs fn as the package's Guard does, keeping the first fault caught.
func (f *Faults) Guard(fn func()) {
	if err := Guard(fn); err != nil {
		f.first.CompareAndSwap(nil, err.(*FaultError))
	}
}

// Raise panics with the first fault caught, if any.
func (f *Faults) Raise() {
	if e := f.first.Load(); e != nil {
		panic(e)
	}
}
