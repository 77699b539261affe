//go:build !windows

package secretstore

import (
	"fmt"
	"os"
)

// ownerOnly refuses a file that its group or others may read or write.
func ownerOnly(fi os.FileInfo) error {
	if m := fi.Mode().Perm(); m&0o077 != 0 {
		return &Error{Msg: fmt.Sprintf("mode %04o: a secret file must be readable by its owner only (chmod 600 it)", m)}
	}
	return nil
}
