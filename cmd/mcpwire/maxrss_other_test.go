//go:build !unix

package main

import "os"

// maxrssOf is 0 where getrusage has no peak memory to give (inject_memory_test.go
// runs on Linux only).
func maxrssOf(*os.ProcessState) int64 { return 0 }
