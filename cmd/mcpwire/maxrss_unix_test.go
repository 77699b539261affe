//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// maxrssOf is the peak resident memory of a process that ended, in bytes.
func maxrssOf(ps *os.ProcessState) int64 {
	rss := ps.SysUsage().(*syscall.Rusage).Maxrss
	if runtime.GOOS == "darwin" {
		return rss // bytes on macOS
	}
	return rss << 10 // KiB elsewhere
}
