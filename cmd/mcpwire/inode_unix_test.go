//go:build unix

package main

import (
	"io/fs"
	"syscall"
)

// inodeOf returns a file's inode number.
func inodeOf(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}
