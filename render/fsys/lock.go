package fsys

import (
	"sync"
	"time"
)

// LockSuffix is appended to a file's path to name its advisory lock file (W8).
const LockSuffix = ".mcpwire.lock"

// lockTimeout is how long Lock waits for another process before giving up; tests
// shorten it.
var lockTimeout = 30 * time.Second

// Lock takes the advisory lock <name>.mcpwire.lock (0600) that serialises mcpwire
// processes writing name (W8), waiting up to 30 seconds for another holder. The lock
// file needs name's directory to exist. Release removes the lock file, so none is left
// behind.
func (o OS) Lock(name string) (release func() error, err error) {
	unlock, err := lockFile(name + LockSuffix)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() error {
		err := error(nil)
		once.Do(func() { err = unlock() })
		return err
	}, nil
}

// lockBackoff returns the pause before the next try of a contended lock.
func lockBackoff(try int) time.Duration {
	return min(time.Millisecond<<min(try, 4), 10*time.Millisecond) // 1, 2, 4, 8, 10, 10… ms
}
