//go:build !unix

package explain

import "io/fs"

// rootOnly reports whether a file belongs to root and only root may write it: on
// systems without POSIX owners (Windows, where Gemini CLI checks the file's ACL
// instead) it is taken to be so.
func rootOnly(fs.FileInfo) bool { return true }
