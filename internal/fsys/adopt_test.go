package fsys

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// adoptWorld is a directory with a staged file beside the file a target creates from
// it (Target.From), and the log of the steps a transaction takes there.
type adoptWorld struct {
	dir, from, path string
	log             stepLog
}

func newAdoptWorld(t *testing.T, content string) *adoptWorld {
	t.Helper()
	w := &adoptWorld{dir: t.TempDir()}
	w.from, w.path = filepath.Join(w.dir, "r.json.staged"), filepath.Join(w.dir, "r.json")
	if err := (OS{}).WriteFile(w.from, []byte(content), 0o600, nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// target creates path with data, from the staged file.
func (w *adoptWorld) target(data string) Target {
	return Target{Path: w.path, From: w.from, Batch: 2, Edit: func(cur Snapshot) ([]byte, fs.FileMode, bool, error) {
		return []byte(data), 0o600, false, nil
	}}
}

func readOr(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(absent)"
	}
	return string(data)
}

// TestApplyAdoptsFrom: a new file whose content the file named From holds already is
// that file renamed (issue 31: no temporary file, no fsync of it); From holding
// anything else, or the file existing, is an ordinary write that leaves From alone.
//
// spec: W3
func TestApplyAdoptsFrom(t *testing.T) {
	t.Run("adopted", func(t *testing.T) {
		w := newAdoptWorld(t, "record\n")
		before, err := os.Lstat(w.from)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Apply(w.log.fs(nil), []Target{w.target("record\n")}); err != nil {
			t.Fatal(err)
		}
		after, err := os.Lstat(w.path)
		// the same inode; under wine a renamed file gets another file index, and the
		// staged file gone with no temporary file written says the same
		if err != nil || runtime.GOOS != "windows" && !os.SameFile(before, after) || readOr(w.path) != "record\n" {
			t.Errorf("%s is not the staged file renamed (%v): %q", w.path, err, readOr(w.path))
		}
		if _, err := os.Lstat(w.from); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s still there: %v", w.from, err)
		}
		if got := w.log.of("temp"); len(got) > 0 {
			t.Errorf("temporary files written: %v", got)
		}
	})
	for name, tc := range map[string]struct{ from, existing string }{
		"other content": {from: "other\n"},
		"file exists":   {from: "record\n", existing: "old\n"},
	} {
		t.Run(name, func(t *testing.T) {
			w := newAdoptWorld(t, tc.from)
			if tc.existing != "" {
				if err := os.WriteFile(w.path, []byte(tc.existing), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Apply(w.log.fs(nil), []Target{w.target("record\n")}); err != nil {
				t.Fatal(err)
			}
			if got := readOr(w.path); got != "record\n" {
				t.Errorf("%s holds %q", w.path, got)
			}
			if got := readOr(w.from); got != tc.from {
				t.Errorf("%s holds %q, want it left as %q", w.from, got, tc.from)
			}
			if got := w.log.of("temp"); len(got) != 1 {
				t.Errorf("temporary files written: %v, want one", got)
			}
		})
	}
}

// TestApplyAdoptedRollback: a transaction failing after it renamed From over a new
// file writes From back before it removes the file, so that a staged record is there
// again while the rollback of the file it describes may still fail.
//
// spec: W7 K10
func TestApplyAdoptedRollback(t *testing.T) {
	w := newAdoptWorld(t, "record\n")
	later := filepath.Join(w.dir, "later")
	f := NewOSWith(OSOptions{Fault: func(stage, name string) error {
		if stage == "rename" && name == later {
			return errors.New("injected")
		}
		return nil
	}})
	targets := []Target{w.target("record\n"), {Path: later, Batch: 3, Edit: func(Snapshot) ([]byte, fs.FileMode, bool, error) {
		return []byte("x"), 0o600, false, nil
	}}}
	if _, err := Apply(f, targets); err == nil {
		t.Fatal("no error")
	}
	if got := readOr(w.from); got != "record\n" {
		t.Errorf("%s holds %q after the rollback, want it back", w.from, got)
	}
	for _, p := range []string{w.path, later} {
		if got := readOr(p); got != "(absent)" {
			t.Errorf("%s holds %q after the rollback", p, got)
		}
	}
}
