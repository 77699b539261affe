package fsys

import (
	"os"
	"sync"
	"time"
)

// LockSuffix is appended to a file's path to name its advisory lock file (W8).
const LockSuffix = ".mcpwire.lock"

// lockTimeout is how long Lock waits for another process before giving up; tests
// shorten it.
var lockTimeout = 30 * time.Second

// Lock takes the advisory lock <name>.mcpwire.lock (0600) that serialises mcpwire
// processes writing name (W8), waiting up to 30 seconds for another holder (an
// [Interrupt] stops the wait). The lock file needs name's directory to exist. Release
// removes the lock file, so none is left behind. Once it holds the lock, Lock removes
// the temporary files of name that interrupted runs left (see CleanStale).
func (o OS) Lock(name string) (release func() error, err error) {
	release, err = o.LockOnly(name)
	if err != nil {
		return nil, err
	}
	o.CleanStale(name)
	return release, nil
}

// LockOnly is Lock without the removal of stale temporary files (see [Batcher]).
func (o OS) LockOnly(name string) (release func() error, err error) {
	unlock, err := lockFile(name+LockSuffix, o.intr.check)
	if err != nil {
		return nil, err
	}
	o.after("lock", name)
	var once sync.Once
	return func() error {
		err := error(nil)
		once.Do(func() {
			err = unlock()
			o.after("unlock", name)
		})
		return err
	}, nil
}

// lockBackoff returns the pause before the next try of a contended lock.
func lockBackoff(try int) time.Duration {
	return min(time.Millisecond<<min(try, 4), 10*time.Millisecond) // 1, 2, 4, 8, 10, 10… ms
}

// sameFile reports whether path still names the open file f.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	if err != nil {
		return false
	}
	return os.SameFile(a, b)
}
