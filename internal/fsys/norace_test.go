//go:build !race

package fsys

// raceEnabled reports a -race build.
const raceEnabled = false
