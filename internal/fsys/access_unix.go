//go:build unix

package fsys

import "syscall"

// accessWX reports whether this process may create entries in dir (write and search
// permission).
func accessWX(dir string) error {
	const wOK, xOK = 0x2, 0x1
	return syscall.Access(dir, wOK|xOK)
}
