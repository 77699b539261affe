//go:build unix

package fsys

import (
	"io/fs"
	"sync"
	"syscall"
)

var umaskOnce = sync.OnceValue(func() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m) & fs.ModePerm
})

// Umask returns the process umask, read once (reading it means setting it briefly).
// A new project file gets 0666 &^ Umask() (W4).
func Umask() fs.FileMode { return umaskOnce() }
