//go:build !race

package render_test

// raceEnabled reports a -race build.
const raceEnabled = false
