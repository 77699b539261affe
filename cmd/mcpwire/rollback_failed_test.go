package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
)

// TestFailedRollbackKeepsStagedRecord runs a fresh "mcpwire inject" into Cursor's
// project file whose ownership record fails to be written (at the rename of the
// staged record over it) and whose rollback then fails to remove the client file it
// wrote: mcpwire's entries stay in the file, and so must the staged record that says
// they are mcpwire's — both when the staged record was written by a transaction of its
// own first (the project's directories are created: render/write preStage) and when
// it was the transaction's first batch. The next inject settles it as after a crash,
// and the uninject after that removes the entries and the file mcpwire created: no
// entry mcpwire wrote is left unowned.
//
// spec: K10 W7
func TestFailedRollbackKeepsStagedRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		dirs bool // the project's .cursor directory exists
	}{
		{name: "directories created", dirs: false},
		{name: "directories exist", dirs: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
			writeRegistry(t, home, 2, `{"profiles": {"p": {"servers": ["s01", "s02"]}}}`)
			if tc.dirs {
				if err := os.MkdirAll(filepath.Join(project, ".cursor"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			client := filepath.Join(project, ".cursor", "mcp.json")
			owners := filepath.Join(home, ".aiwg", "mcp-ownership")
			staged := func() []string {
				names, _ := filepath.Glob(filepath.Join(owners, "*.staged"))
				return names
			}
			// writes: the staged record, the client file, the record (adopted from the
			// staged record, or written anew): it fails at the rename, after the client
			// file's; removes: the client file's rollback
			f := &fsystest.Faulty{FailWrite: 3, WriteStage: fsystest.StageRename, FailRemove: 1}
			code, stderr := runMain(root, project, f, []string{"inject", "--provider", "cursor", "--profile", "p"})
			if code != 1 || !strings.Contains(stderr, "rollback "+client+": remove "+client+": "+fsystest.ErrInjected.Error()) {
				t.Fatalf("exit %d, stderr %q; calls %q", code, stderr, f.Calls())
			}
			if _, err := os.Stat(client); err != nil {
				t.Fatalf("the client file's rollback did not fail: %v", err)
			}
			if len(staged()) != 1 {
				t.Fatalf("staged records after the failed rollback: %q, want the one that settles %s", staged(), client)
			}

			if code, stderr := runMain(root, project, fsys.NewOS(), []string{"inject", "--provider", "cursor", "--profile", "p"}); code != 0 {
				t.Fatalf("rerun: exit %d\n%s", code, stderr)
			}
			if code, stderr := runMain(root, project, fsys.NewOS(), []string{"uninject", "--provider", "cursor", "--profile", "p"}); code != 0 {
				t.Fatalf("uninject: exit %d\n%s", code, stderr)
			}
			if b, err := os.ReadFile(client); err == nil {
				t.Errorf("%s after the uninject holds %s: mcpwire's entries (and the file it created) were left unowned", client, b)
			}
			if len(staged()) != 0 {
				t.Errorf("staged records left: %q", staged())
			}
		})
	}
}
