//go:build !windows

package winetest

// running: wine runs Windows programs only.
const running = false
