// Package winetest lets a test step aside where wine, which .ci/run uses to run the
// Windows build's tests on Linux, cannot do what Windows does. Skip is the only way a
// test skips for wine, so that `grep -rn 'winetest.Skip'` lists every such skip;
// docs/portability.md lists them with what a real Windows machine shows. Tests only.
package winetest

import (
	"errors"
	"syscall"
	"testing"
)

// Limitation is something wine 8 (Debian bookworm's) cannot do that Windows does.
type Limitation string

// The limitations a test may skip for.
const (
	// Symlinks: os.Symlink calls CreateSymbolicLinkW, which wine 8 implements as a stub
	// that reports success and creates nothing.
	Symlinks Limitation = "CreateSymbolicLinkW (os.Symlink) is a stub that reports success and creates nothing"
	// Speed: every file and memory call goes through wine's translation to Linux (and
	// its wineserver process), at a cost unlike Windows': a time measured under wine
	// says nothing of Windows'.
	Speed Limitation = "file and memory calls are translated to Linux, at another cost than Windows': timings say nothing of Windows'"
)

// T is what Skip needs of a test: a testing.TB, or a testscript script's T.
type T interface{ Skip(args ...any) }

var _ T = testing.TB(nil)

// Skip skips t when it runs under wine, naming the wine limitation that stops it. On
// a real Windows machine, and on every other system, it does nothing.
func Skip(t T, l Limitation) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if Running() {
		t.Skip("wine limitation: " + string(l))
	}
}

// StartFailed reports whether err is wine's failure to start a process that Windows
// starts: under load, and right after another process of the same program killed
// itself, wine 8's CreateProcess at times fails with ERROR_INTERNAL_ERROR ("Internal
// error."). A test may start the process again then; on Windows, and elsewhere,
// StartFailed is always false.
func StartFailed(err error) bool {
	const errorInternalError = syscall.Errno(1359)
	return Running() && errors.Is(err, errorInternalError)
}

// Running reports whether this process runs under wine rather than on Windows.
func Running() bool { return running }
