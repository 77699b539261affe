package fsys

import "io/fs"

// effectiveMode is the mode a file really gets on Windows, which has no permission
// bits: a read-only attribute when the owner may not write (0444), otherwise none
// (0666), which is also what Lstat reports. os.Chmod and os.OpenFile do the same
// mapping; mcpwire sets no ACL, so a file written with 0600 is as readable to other
// accounts as the directory's inherited ACL makes it (docs/writes.md).
func effectiveMode(perm fs.FileMode) fs.FileMode {
	if perm&0o200 == 0 {
		return 0o444
	}
	return 0o666
}

// effectiveDirMode is the same for a directory made or chmodded with perm (OS.Mkdir
// chmods what os.Mkdir made): the read-only attribute or not, and Lstat adds 0111.
func effectiveDirMode(perm fs.FileMode) fs.FileMode { return effectiveMode(perm) | 0o111 }
