//go:build !unix

package fsys

import (
	"io"
	"io/fs"
	"os"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/limits"
)

// openFile is os.OpenFile (see open_unix.go).
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

// nonBlock is 0: no FIFO can be opened by a file name here.
const nonBlock = 0

// dirOnly is 0 (see open_unix.go).
const dirOnly = 0

// readFile is os.ReadFile for the files mcpwire reads (see open_unix.go): only a
// regular file of at most limits.FileBytes, looked at before it is opened and again
// through the opened file.
func readFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := checkRead(name, fi); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkRead(name, fi); err != nil {
		return nil, err
	}
	// One buffer of the file's size and a byte (to see the end without growing), as
	// on Unix: io.ReadAll grows from 512 bytes by half again each time, which held a
	// 50 MB file about twice and copied it a dozen times (K7).
	data := bigbuf.Make(0, int(fi.Size())+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if len(data) > limits.FileBytes {
			return nil, limits.Size(name, limits.FileBytes) // it grew while being read
		}
		switch {
		case err == io.EOF:
			return data, nil
		case err != nil:
			return nil, err
		case len(data) == cap(data):
			data = append(data, 0)[:len(data)] // it grew: grow
		}
	}
}

// checkRead refuses to read a file whose description (following symlinks) is not
// that of a regular file, or that is larger than mcpwire reads (K1, K2).
func checkRead(name string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return &NotRegularError{Path: name, Mode: fi.Mode().Type()}
	}
	if fi.Size() > limits.FileBytes {
		return limits.Size(name, limits.FileBytes)
	}
	return nil
}
