//go:build unix

package explain

import (
	"io/fs"
	"syscall"
)

// rootOnly reports whether a file belongs to root and only root may write it.
func rootOnly(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}
