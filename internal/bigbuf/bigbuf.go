// Package bigbuf allocates the large buffers that hold a whole client file (a 50 MB
// ~/.claude.json is read into one and written from another), asking the kernel to
// back them with huge pages where it can.
//
// A fresh process touches every page of such a buffer once: with 4 KiB pages that is
// 12,800 page faults per 50 MB, which on a virtual machine cost more than reading
// the file itself. Huge pages make it a few dozen. The advice is only advice: the
// buffer is an ordinary Go slice, and where the kernel has no huge pages (or the
// system is not Linux) nothing changes. Where memory is fragmented the kernel may
// compact it before it hands out a huge page (transparent_hugepage/defrag "madvise",
// the usual default), or falls back to small pages; only buffers of a whole large
// file ask, so a small configuration never pays for it.
package bigbuf

// threshold is the capacity from which a buffer is advised: below it the page faults
// cost little, and the advice would cost a system call.
const threshold = 4 << 20

// Make returns make([]byte, n, c), advised for huge pages when c is large.
func Make(n, c int) []byte {
	b := make([]byte, n, c)
	if c >= threshold {
		advise(b[:c])
	}
	return b
}
