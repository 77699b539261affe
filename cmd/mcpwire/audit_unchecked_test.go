package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// unreadableFS is a file of mode 000 as a user other than root sees it (root reads
// it anyway, so the tests that run as root need the seam): it stats, but cannot be
// read.
type unreadableFS struct {
	fsys.FS
	path string
}

func (f unreadableFS) ReadFile(name string) ([]byte, error) {
	if name == f.path {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	}
	return f.FS.ReadFile(name)
}

// spec: H4 K5 — a client file audit cannot read is a finding of its own, "not
// checked: permission denied", in text and JSON, and exit 1: before, it was a
// warning, "no findings" and exit 0.
func TestAuditUnreadableFile(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		env, out, errb := testEnv(t, map[string]string{})
		path := filepath.Join(env.Home, ".cursor", "mcp.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(`{"mcpServers": {"gh": {"command": "x", "env": {"GITHUB_TOKEN": "ghp_0123456789abcdefghijklmnopqrstuvwxyz"}}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		env.FS = unreadableFS{env.FS, path}
		args := []string{"audit"}
		if asJSON {
			args = append(args, "--json")
		}
		if code := Main(args, env); code != exitFailed {
			t.Errorf("%q: exit %d, want 1", args, code)
		}
		if !strings.Contains(errb.String(), "mcpwire: error: audit: 1 file could not be checked\n") {
			t.Errorf("%q: stderr %q", args, errb)
		}
		if !asJSON {
			if want := "UNCHECKED  cursor  user  " + path + "  -  not checked: permission denied\n"; out.String() != want {
				t.Errorf("stdout %q, want %q", out, want)
			}
			continue
		}
		var doc struct{ Findings []map[string]string }
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Findings) != 1 || doc.Findings[0]["kind"] != "unchecked" || doc.Findings[0]["path"] != path ||
			doc.Findings[0]["why"] != "not checked: permission denied" {
			t.Errorf("findings %v", doc.Findings)
		}
	}
}
