//go:build unix

package fsys

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
)

// openFile is os.OpenFile without the attempt to register the file with the
// runtime's poller (five fcntl and epoll_ctl calls, failing for regular files and
// directories): mcpwire opens hundreds of lock, temporary and directory files per
// transaction, and reads and writes them blocking. Errors are the same *fs.PathError
// values.
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// open is syscall.Open, retried on EINTR, its error a *fs.PathError.
func open(name string, flag int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(name, flag, perm)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return -1, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return fd, nil
	}
}

// readFile is os.ReadFile in half the system calls: os.Open tries to register every
// file with the runtime's poller (five fcntl and epoll_ctl calls that fail for a
// regular file), and a transaction reads hundreds of small files. Errors are the
// same *fs.PathError values.
func readFile(name string) ([]byte, error) {
	fd, err := open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	size := 512
	if syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Size > 0 && int64(int(st.Size)) == st.Size {
		size = int(st.Size) + 1 // one more byte, to see the end without growing
	}
	data := bigbuf.Make(0, size) // huge pages for a large file (internal/bigbuf)
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		case n == 0:
			return data, nil
		}
		data = data[:len(data)+n]
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grow
		}
	}
}
