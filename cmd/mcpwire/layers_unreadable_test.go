package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// unlistableFS is a layer directory of mode 000 as a user other than root sees it
// (root reads it anyway, so the tests that run as root need the seam): it stats,
// but cannot be listed.
type unlistableFS struct {
	fsys.FS
	dir string
}

func (f unlistableFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == f.dir {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	return f.FS.ReadDir(name)
}

// spec: L13 — an organisation layer that exists but cannot be read fails every
// command that reads the layers with the L13 error (as given and as resolved, and a
// hint about its mode), not a generic error about its files; nothing is written.
func TestUnreadableLowerLayer(t *testing.T) {
	vars, root := layeredEnv(t, cmdFiles)
	org := filepath.Join(root, "org")
	for _, args := range [][]string{
		{"layers"},
		{"server", "list"},
		{"inject", "--provider", "codex", "--servers", "docs", "--scope", "user"},
	} {
		env, out, errb := testEnv(t, vars)
		env.FS = unlistableFS{env.FS, org}
		code := Main(args, env)
		stderr := errb.String()
		if code != exitFailed || out.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q", args, code, out)
		}
		want := `mcpwire: error: configuration layer 1 of 3 "` + org + `" (resolved: ` + org + `): cannot be read: permission denied` + "\n"
		if !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "mcpwire: hint: a layer directory that exists must be readable by you") {
			t.Errorf("%q: stderr %q", args, stderr)
		}
		if _, err := os.Stat(filepath.Join(env.Home, ".codex")); err == nil {
			t.Errorf("%q: wrote %s", args, filepath.Join(env.Home, ".codex"))
		}
	}
}
