package render

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOnPathWindowsExtensions: on Windows a command is found with an extension of
// PATHEXT, and with Go's and cmd.exe's .com, .exe, .bat, .cmd where PATHEXT is unset
// (a process started with a bare environment); elsewhere a name is taken as it is.
//
// spec: B4
func TestOnPathWindowsExtensions(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool.bat"), []byte("@exit /b 0\r\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		goos, pathext string
		want          bool
	}{
		{"windows", ".COM;.EXE;.BAT;.CMD", true},
		{"windows", "", true},
		{"windows", ".EXE", false},
		{"linux", "", false},
	} {
		env := map[string]string{"PATH": dir, "PATHEXT": c.pathext}
		if got := OnPath("tool", func(k string) string { return env[k] }, c.goos); got != c.want {
			t.Errorf("%s, PATHEXT %q: OnPath(tool) = %v, want %v", c.goos, c.pathext, got, c.want)
		}
	}
}
