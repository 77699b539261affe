package main

import (
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// TestProvidersNamesMSIX: on Windows, `mcpwire providers` names Claude Desktop's
// Microsoft Store (MSIX) file first, marked as used when it exists, then the
// classic %APPDATA% file; elsewhere only the platform file.
//
// spec: V1 I1
func TestProvidersNamesMSIX(t *testing.T) {
	p, _ := providers.Get("claude-desktop")
	home := filepath.Join(string(filepath.Separator)+"h", "u")
	local, roaming := filepath.Join(home, "local"), filepath.Join(home, "roaming")
	vars := map[string]string{"LOCALAPPDATA": local, "APPDATA": roaming}
	getenv := func(k string) string { return vars[k] }
	file := "claude_desktop_config.json"
	win := candidates(p.User, providers.PathEnv{GOOS: "windows", Home: home, Getenv: getenv}).String()
	want := filepath.Join(local, "Packages", "Claude_*", "LocalCache", "Roaming", "Claude", file) + " (when it exists) | " +
		filepath.Join(roaming, "Claude", file)
	if win != want {
		t.Errorf("windows: %q\nwant %q", win, want)
	}
	mac := candidates(p.User, providers.PathEnv{GOOS: "darwin", Home: home, Getenv: getenv}).String()
	if want := filepath.Join(home, "Library", "Application Support", "Claude", file); mac != want {
		t.Errorf("darwin: %q\nwant %q", mac, want)
	}
}
