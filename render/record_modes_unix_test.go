//go:build unix

package render_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

var recordDirs = []string{render.OwnershipDir, permissionsDir}

// recordModes walks the record directories of the write layer: every directory must
// be 0700 and every file 0600. It returns how many record files each one holds.
func recordModes(t *testing.T, w *world, step string) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, sub := range recordDirs {
		root := filepath.Join(w.layer, sub)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return err
			}
			want := fs.FileMode(0o600)
			if d.IsDir() {
				want = 0o700 | fs.ModeDir
			} else {
				n[sub]++
			}
			if fi.Mode() != want {
				rel, _ := filepath.Rel(w.layer, p)
				t.Errorf("%s: %s is %v, want %v", step, rel, fi.Mode(), want)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	return n
}

// chmodRecords gives every record file mode m, as if someone (or an older mcpwire)
// had changed it.
func chmodRecords(t *testing.T, w *world, m fs.FileMode) {
	t.Helper()
	for _, sub := range recordDirs {
		for _, p := range recordFiles(t, w.layer, sub) {
			chmod(t, p, m)
		}
	}
}

// noRecordDirs fails when a record directory already exists (so that the first run
// creates it).
func noRecordDirs(t *testing.T, w *world) {
	t.Helper()
	for _, sub := range recordDirs {
		if _, err := os.Lstat(filepath.Join(w.layer, sub)); !os.IsNotExist(err) {
			t.Fatalf("%s exists before the first run (%v)", sub, err)
		}
	}
}

// wantRecords fails unless each record directory holds n[sub] records.
func wantRecords(t *testing.T, step string, got map[string]int, own, perm int) {
	t.Helper()
	if got[render.OwnershipDir] != own || got[permissionsDir] != perm {
		t.Errorf("%s: records %v, want %d in %s and %d in %s", step, got, own, render.OwnershipDir, perm, permissionsDir)
	}
}

// TestRecordModes: ownership records (ephemeral-output records included) and deny
// records (sidecar records included) are 0600 and the record directories mcpwire
// creates 0700, whatever the umask (0 here, so that any missing bit shows), and an
// existing record with another mode is 0600 again after the next run, whether its
// content changes or not. Ephemeral output and its sidecar are 0600 too.
//
// spec: W4 C3 C5 C6
func TestRecordModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)

	t.Run("inject and uninject", func(t *testing.T) {
		w := denyWorld(t)
		noRecordDirs(t, w)
		inject(t, w, "", "a", false)
		wantRecords(t, "inject a", recordModes(t, w, "inject a"), 1, 1)

		chmodRecords(t, w, 0o644)
		inject(t, w, "", "a", false) // the same records: only the mode is wrong
		wantRecords(t, "inject a again", recordModes(t, w, "inject a again"), 1, 1)

		chmodRecords(t, w, 0o666)
		res, err := write.Inject(fsys.NewOS(), w.request("claude-code", "", "b")) // new content
		if err != nil {
			t.Fatal(err)
		}
		wantRecords(t, "inject b", recordModes(t, w, "inject b"), 1, 1)

		chmodRecords(t, w, 0o640)
		if _, err := write.Uninject(fsys.NewOS(), w.request("claude-code", "", "", res.Written[0])); err != nil {
			t.Fatal(err)
		}
		wantRecords(t, "uninject one", recordModes(t, w, "uninject one"), 1, 1)

		w.warns = nil
		inject(t, w, providers.User, "a", false) // a second destination, in the existing directories
		wantRecords(t, "inject a at user scope", recordModes(t, w, "inject a at user scope"), 2, 2)

		// a record that tracks nothing any more goes (K10: what an interrupted uninject
		// leaves converges with a finished one)
		if _, err := write.Uninject(fsys.NewOS(), w.request("claude-code", "", "", res.Written...)); err != nil {
			t.Fatal(err)
		}
		wantRecords(t, "uninject the rest", recordModes(t, w, "uninject the rest"), 1, 1)
	})

	t.Run("ephemeral --out with a sidecar", func(t *testing.T) {
		w := newWorld(t)
		noRecordDirs(t, w)
		out := filepath.Join(w.project, "run.json")
		side := write.SidecarPath(out)
		run := func(step string, servers ...string) {
			t.Helper()
			r := w.request("claude-code", "", "dev")
			if len(servers) > 0 {
				r.Servers = servers
			}
			res, err := write.Ephemeral(fsys.NewOS(), r, out)
			if err != nil {
				t.Fatalf("%s: %v", step, err)
			}
			if res.Settings != side {
				t.Fatalf("%s: sidecar %q, want %s", step, res.Settings, side)
			}
			wantRecords(t, step, recordModes(t, w, step), 1, 1)
			for _, p := range []string{out, side} {
				if fi, err := os.Lstat(p); err != nil || fi.Mode() != 0o600 {
					t.Errorf("%s: %s is %v (%v), want 0600", step, filepath.Base(p), fi.Mode(), err)
				}
			}
		}
		run("first run")
		chmodRecords(t, w, 0o644)
		chmod(t, out, 0o644)
		chmod(t, side, 0o644)
		run("same output again")
		chmodRecords(t, w, 0o666)
		run("other servers", "notes", "github")
	})
}
