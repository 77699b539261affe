package fsys

import "io/fs"

// EffectiveMode is the permission a file written or chmodded with perm really has on
// this system, as Lstat then reports it: perm itself on Unix, 0444 or 0666 on Windows
// (mode_windows.go).
func EffectiveMode(perm fs.FileMode) fs.FileMode { return effectiveMode(perm) }

// EffectiveDirMode is the same for a directory made or chmodded with perm.
func EffectiveDirMode(perm fs.FileMode) fs.FileMode { return effectiveDirMode(perm) }
