package bigbuf

import (
	"errors"
	"hash/maphash"
	"slices"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// madvPopulateRead is MADV_POPULATE_READ (Linux 5.14): map the pages of a range
// now, in one call instead of a fault per 64 KiB. Refused by older kernels, which
// then fault them in as they are touched.
const madvPopulateRead = unix.MADV_POPULATE_READ

// seed is the digests' seed, random per process: another program cannot write a
// change that keeps a chunk's digest.
var seed = maphash.MakeSeed()

// Sum is the digest of one Chunk of a file (Mapped.Sums).
func Sum(b []byte) uint64 { return maphash.Bytes(seed, b) }

// Map maps size bytes of the regular file open as fd read-only and takes the
// digests of its chunks, a Chunk at a time, dropping the pages behind. The mapping
// keeps its own descriptor (a dup of fd). When the file is cut short meanwhile it
// returns a *FaultError, the mapping undone; the caller reads the file instead.
func Map(fd, size int) (*Mapped, []byte, error) {
	if Mappings() >= maxMaps() {
		return nil, nil, errTooMany
	}
	own, err := dup(fd)
	if err != nil {
		return nil, nil, err
	}
	b, err := syscall.Mmap(own, 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		syscall.Close(own)
		return nil, nil, err
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	m := &Mapped{lo: lo, hi: lo + uintptr(size), fd: own, Sums: make([]uint64, 0, (size+Chunk-1)/Chunk)}
	register(m)
	err = Guard(func() {
		for at := 0; at < size; at += Chunk {
			c := b[at:min(at+Chunk, size)]
			_ = syscall.Madvise(c, madvPopulateRead)
			m.Sums = append(m.Sums, Sum(c))
			release(c)
		}
	})
	if err != nil {
		unregister(m)
		_ = syscall.Munmap(b)
		syscall.Close(own)
		return nil, nil, err
	}
	return m, b, nil
}

// mapsMu serialises the changes of maps.
var mapsMu sync.Mutex

// register adds m to the mappings that Lookup finds.
func register(m *Mapped) {
	mapsMu.Lock()
	defer mapsMu.Unlock()
	var ms []*Mapped
	if cur := maps.Load(); cur != nil {
		ms = slices.Clone(*cur)
	}
	ms = append(ms, m)
	maps.Store(&ms)
}

// errTooMany is Map's refusal once the process holds maxMaps mappings: the
// caller reads the file.
var errTooMany = errors.New("too many files mapped")

// maxMaps is how many files a process maps at most, each with a descriptor kept
// open: a quarter of its descriptors, at most 4096. A command maps a few (each
// large client file it reads, again at each redo); a test binary that runs
// thousands of transactions in one process reads the rest.
var maxMaps = sync.OnceValue(func() int {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 64
	}
	return int(min(4096, r.Cur/4))
})

// dup duplicates fd, close-on-exec.
func dup(fd int) (int, error) {
	for {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(r), nil
	}
}

// unregister removes m from the mappings (a mapping undone before any slice of it
// was handed out).
func unregister(m *Mapped) {
	mapsMu.Lock()
	defer mapsMu.Unlock()
	if cur := maps.Load(); cur != nil {
		ms := slices.DeleteFunc(slices.Clone(*cur), func(x *Mapped) bool { return x == m })
		maps.Store(&ms)
	}
}

// release drops the whole pages inside b (MADV_DONTNEED).
func release(b []byte) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := int((p+pageMask)&^pageMask - p)
	hi := int((p+uintptr(len(b)))&^pageMask - p)
	if hi <= lo {
		return
	}
	_ = syscall.Madvise(b[lo:hi], syscall.MADV_DONTNEED)
}

// Populate maps the pages of b now when it lies in a mapped file (one call for a
// whole window instead of a fault per 64 KiB).
func Populate(b []byte) {
	if m, _ := Lookup(b); m != nil {
		// from the page b starts in: madvise takes a page-aligned start, and the
		// mapping starts on one
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		back := int(p & pageMask)
		_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), -back)), len(b)+back), madvPopulateRead)
	}
}

// ErrShort reports that a copy from a mapped file ended before its range did: the
// file was cut short.
var ErrShort = errors.New("the file was cut short while being copied")

// errNoCopy is CopyRange's refusal where the kernel or the filesystems cannot copy
// between the two files: the caller writes the bytes itself.
var errNoCopy = errors.New("copy_file_range unavailable")

// IsNoCopy reports CopyRange's refusal to copy (the caller then writes the bytes).
func IsNoCopy(err error) bool { return err == errNoCopy }

// CopyRange copies n bytes of m's file from offset off to the file open as dst at
// its offset (copy_file_range: the kernel copies them, the process never touches
// them). It returns errNoCopy (IsNoCopy) when the kernel cannot, having copied
// nothing, and ErrShort when the file ended first.
func (m *Mapped) CopyRange(dst int, off int64, n int) error {
	first := true
	for n > 0 {
		k, e := unix.CopyFileRange(m.fd, &off, dst, nil, n, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e != nil && first && (e == syscall.ENOSYS || e == syscall.EXDEV || e == syscall.EINVAL || e == syscall.EOPNOTSUPP || e == syscall.EBADF):
			return errNoCopy
		case e != nil:
			return e
		case k == 0:
			return ErrShort
		}
		first = false
		n -= k
	}
	return nil
}
