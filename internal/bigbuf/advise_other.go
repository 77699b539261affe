//go:build !linux

package bigbuf

// advise does nothing where there is no madvise with huge pages.
func advise([]byte) {}
