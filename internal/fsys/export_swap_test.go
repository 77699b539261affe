//go:build linux || darwin

package fsys

// The helpers of the exchange tests, for the external tests (see export_test.go).
var (
	RequireSwap = requireSwap
	SetSwapHook = setSwapHook
)
