//go:build !windows

package winetest

import "testing"

func TestRunning(t *testing.T) {
	if Running() {
		t.Error("Running() = true outside Windows")
	}
}
