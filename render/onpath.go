package render

import (
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// OnPath reports whether a command can be started: a path that exists, or a name
// found in a directory of PATH (with an extension of PATHEXT on Windows; where PATHEXT
// is unset, .com, .exe, .bat and .cmd, as Go's exec.LookPath and cmd.exe take them).
func OnPath(cmd string, getenv func(string) string, goos string) bool {
	exts := []string{""}
	if goos == "windows" {
		pathext := getenv("PATHEXT")
		if pathext == "" {
			pathext = ".com;.exe;.bat;.cmd"
		}
		exts = append(exts, strings.Split(strings.ToLower(pathext), ";")...)
	}
	exists := func(p string) bool {
		for _, e := range exts {
			if fi, err := fsys.NewOS().Stat(p + e); err == nil && !fi.IsDir() {
				return true
			}
		}
		return false
	}
	if strings.ContainsAny(cmd, `/\`) {
		return exists(cmd)
	}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir != "" && exists(filepath.Join(dir, cmd)) {
			return true
		}
	}
	return false
}
