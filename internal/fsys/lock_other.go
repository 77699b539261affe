//go:build (!unix && !windows) || solaris || aix

package fsys

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// locksDieWithProcess: a lock file left by a crash stays locked.
const locksDieWithProcess = false

// lockFile creates path exclusively, retrying while another process holds it or
// until stop returns an error. A lock file left by a crashed process makes later
// locks time out with an error naming it.
func lockFile(path string, stop func() error) (unlock func() error, err error) {
	deadline := time.Now().Add(lockTimeout)
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
		if err == nil {
			return func() error {
				cErr := f.Close()
				rmErr := os.Remove(path)
				return errors.Join(cErr, rmErr)
			}, nil
		}
		if !errors.Is(err, fs.ErrExist) && !errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: timed out after %v waiting for another mcpwire process (remove the file if none is running)", path, lockTimeout)
		}
		if err := stop(); err != nil {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		time.Sleep(lockBackoff(try))
	}
}
