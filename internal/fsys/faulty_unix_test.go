//go:build unix

package fsys_test

// The transactions of this file run on fsystest.Faulty, the real filesystem with
// injected failures, which records every call: an external test, as fsystest
// imports fsys.

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
)

// TestWriteFileFailsBeforeOpenAndAtSync: a failure when the temporary file is
// created, or when it is fsynced, fails the write naming the file; the destination
// keeps its content and mode and no temporary file remains. Both the OS hook and
// Faulty's WriteStage reach the two stages.
//
// spec: W3 W9
func TestWriteFileFailsBeforeOpenAndAtSync(t *testing.T) {
	for _, stage := range []string{fsystest.StageOpen, fsystest.StageSync} {
		for _, via := range []string{"hook", "Faulty"} {
			t.Run(stage+"/"+via, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "f.json")
				fsys.WriteTestFile(t, p, "old", 0o644)
				var seen []string
				var err error
				if via == "hook" {
					o := fsys.NewOSWith(fsys.OSOptions{Fault: func(s, _ string) error {
						seen = append(seen, s)
						if s == stage {
							return fsystest.ErrInjected
						}
						return nil
					}})
					err = o.WriteFile(p, []byte("new"), 0o600, nil)
					if seen[len(seen)-1] != stage {
						t.Errorf("stages %q, want the write to stop at %q", seen, stage)
					}
				} else {
					err = (&fsystest.Faulty{FailWrite: 1, WriteStage: stage}).WriteFile(p, []byte("new"), 0o600, nil)
				}
				if !errors.Is(err, fsystest.ErrInjected) {
					t.Fatalf("err = %v, want the injected fault", err)
				}
				if !strings.HasPrefix(err.Error(), "write "+p+": ") {
					t.Errorf("error %q does not name the file", err)
				}
				if got := fsys.FileState(t, p); got != "0644 old" {
					t.Errorf("destination = %q, want untouched", got)
				}
				if got := fsys.ListTree(t, dir); !slices.Equal(got, []string{"f.json"}) {
					t.Errorf("dir holds %q, want only f.json (no temporary file)", got)
				}
			})
		}
	}
}
