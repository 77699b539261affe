//go:build unix

package fsys

import (
	"io/fs"
	"os"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/limits"
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

// nonBlock is the flag that opens a FIFO without waiting for a writer (a file swapped
// for one after it was checked is then refused, not waited on).
const nonBlock = syscall.O_NONBLOCK

// dirOnly is the flag that opens a directory only: a FIFO where a directory was
// expected is refused by the open itself, never waited on (K2).
const dirOnly = syscall.O_DIRECTORY

// readFile is os.ReadFile for the files mcpwire reads, which others may have written
// (SPEC K1, K2): only a regular file, or a symlink to one, of at most
// limits.FileBytes. What is there is looked at first, so that no FIFO, device or
// socket is ever opened; the file is then opened without waiting (a FIFO swapped in
// meanwhile does not block) and looked at again through the descriptor, which is
// what is read. Without the poller registration of os.Open (five fcntl and epoll_ctl
// calls that fail for a regular file), as a transaction reads hundreds of small
// files. Errors are *fs.PathError values, a *NotRegularError or a *limits.Error.
func readFile(name string) ([]byte, error) {
	var st syscall.Stat_t
	if err := stat(name, &st); err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if err := checkStat(name, &st); err != nil {
		return nil, err
	}
	fd, err := open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if err := checkStat(name, &st); err != nil {
		return nil, err
	}
	if st.Size >= mapMin.Load() && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		// a large file is mapped, not read (Linux; elsewhere Map refuses): see mapMin
		if _, data, err := bigbuf.Map(fd, int(st.Size)); err == nil {
			return data, nil
		}
	}
	size := 512
	if st.Size > 0 {
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
		if len(data) > limits.FileBytes {
			return nil, limits.Size(name, limits.FileBytes) // it grew while being read
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grow
		}
	}
}

// stat is syscall.Stat, retried on EINTR.
func stat(name string, st *syscall.Stat_t) error {
	for {
		if err := syscall.Stat(name, st); err != syscall.EINTR {
			return err
		}
	}
}

// checkStat is checkRead for a stat_t.
func checkStat(name string, st *syscall.Stat_t) error {
	if st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		if st.Size > limits.FileBytes {
			return limits.Size(name, limits.FileBytes)
		}
		return nil
	}
	var mode fs.FileMode
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO:
		mode = fs.ModeNamedPipe
	case syscall.S_IFCHR:
		mode = fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		mode = fs.ModeDevice
	case syscall.S_IFSOCK:
		mode = fs.ModeSocket
	case syscall.S_IFDIR:
		mode = fs.ModeDir
	default:
		mode = fs.ModeIrregular
	}
	return &NotRegularError{Path: name, Mode: mode}
}
