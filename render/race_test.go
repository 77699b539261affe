//go:build race

package render_test

// raceEnabled reports a -race build, whose instrumentation makes every step several
// times slower: the speed bounds are the built binary's, not the race detector's.
const raceEnabled = true
