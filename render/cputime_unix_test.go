//go:build unix

package render_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system): a benchmark's cost on
// a machine whose other load makes wall time noisy.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
