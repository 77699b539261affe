package bigbuf

import "syscall"

// pageMask rounds a length down to whole 4 KiB pages, as madvise wants (a large Go
// allocation starts on a page boundary).
const pageMask = 4<<10 - 1

// advise asks for huge pages behind b (transparent huge pages in "madvise" mode, the
// usual default, serve only regions advised so). A refusal changes nothing.
func advise(b []byte) {
	_ = syscall.Madvise(b[:len(b)&^pageMask], syscall.MADV_HUGEPAGE)
}
