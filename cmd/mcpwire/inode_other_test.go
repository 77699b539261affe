//go:build !unix

package main

import "io/fs"

// inodeOf reports false: inode numbers are checked on Unix only.
func inodeOf(fs.FileInfo) (uint64, bool) { return 0, false }
