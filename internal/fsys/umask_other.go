//go:build !unix

package fsys

import "io/fs"

// Umask returns the process umask; platforms without one report 0.
func Umask() fs.FileMode { return 0 }
