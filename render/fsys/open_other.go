//go:build !unix

package fsys

import (
	"io/fs"
	"os"
)

// openFile is os.OpenFile (see open_unix.go).
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// readFile is os.ReadFile (see open_unix.go).
func readFile(name string) ([]byte, error) { return os.ReadFile(name) }
