//go:build race

package fsys

// raceEnabled reports a -race build, whose instrumentation makes the large diff
// tests too slow at full size.
const raceEnabled = true
