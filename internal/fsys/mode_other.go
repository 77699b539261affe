//go:build !windows

package fsys

import "io/fs"

// effectiveMode is the mode a file gets: perm itself where files have permission
// bits (see mode_windows.go for Windows).
func effectiveMode(perm fs.FileMode) fs.FileMode { return perm }

// effectiveDirMode is the same for a directory made or chmodded with perm: perm
// itself (OS.Mkdir chmods what os.Mkdir made, whatever the umask).
func effectiveDirMode(perm fs.FileMode) fs.FileMode { return perm }
