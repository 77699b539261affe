package winetest

import (
	"testing"

	"golang.org/x/sys/windows/registry"
)

// TestRunning checks the ntdll export against a second sign of wine: the registry key
// HKLM\Software\Wine, which every wine prefix has and Windows does not.
func TestRunning(t *testing.T) {
	k, err := registry.OpenKey(registry.LOCAL_MACHINE, `Software\Wine`, registry.QUERY_VALUE)
	if err == nil {
		k.Close()
	}
	if want := err == nil; Running() != want {
		t.Errorf("Running() = %v, want %v (HKLM\\Software\\Wine: %v)", Running(), want, err)
	}
}
