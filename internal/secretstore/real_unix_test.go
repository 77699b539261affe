//go:build unix

package secretstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
)

// pass is a Unix program (a shell script over gpg): its tests run on Unix.

// spec: S6 S5 S3 — the real pass, with a throwaway GPG key: stored, read (first
// line), checked without decrypting, replaced, deleted; nothing of the value in the
// store's directory in the clear.
func TestPassReal(t *testing.T) {
	dir := t.TempDir()
	vars := storetest.Pass(t, dir)
	e := Env{Environ: append(os.Environ(), vars...), Home: dir}
	roundTrip(t, e, "pass:mcpwire/gh/GITHUB_TOKEN")
	storetest.PassInsert(t, vars, "multi", "first\nsecond")
	if v, err := e.Resolve(context.Background(), "pass:multi"); err != nil || v != "first" {
		t.Errorf("first line: %q %v", v, err)
	}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "SENTINEL") {
				t.Errorf("%s holds the value", p)
			}
		}
		return nil
	})
}
