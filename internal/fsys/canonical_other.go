//go:build !linux

package fsys

// symlinkFree cannot tell here without a walk: Canonical walks.
func symlinkFree(string) bool { return false }
