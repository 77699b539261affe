//go:build unix

package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWriteFileTempIsExclusive: a file that already sits at the temporary name
// mcpwire picked (another program's, or a leftover) is never opened, written or
// renamed: the create is exclusive (O_CREATE|O_EXCL), so mcpwire tries another name.
//
// spec: W3
func TestWriteFileTempIsExclusive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "old", 0o644)
	var names []string
	o := OS{hook: func(stage, name string) error {
		if stage != "open" {
			return nil
		}
		names = append(names, name)
		if len(names) == 1 { // someone else takes the first name just before mcpwire
			writeTestFile(t, name, "foreign file", 0o640)
		}
		return nil
	}}
	if err := o.WriteFile(p, []byte("new"), 0o600, nil); err != nil {
		t.Fatal(err)
	}
	if len(names) != 2 || names[0] == names[1] {
		t.Fatalf("temporary names tried: %q, want two different ones", names)
	}
	for _, n := range names {
		if filepath.Dir(n) != dir || !strings.HasPrefix(filepath.Base(n), ".f.json.mcpwire-") || !strings.HasSuffix(n, ".tmp") {
			t.Errorf("temporary name %s, want .f.json.mcpwire-*.tmp beside the destination", n)
		}
	}
	if got := fileState(t, names[0]); got != "0640 foreign file" {
		t.Errorf("the file at the taken name = %q, want it untouched", got)
	}
	if got := fileState(t, p); got != "0600 new" {
		t.Errorf("destination = %q", got)
	}
	if got, want := listTree(t, dir), []string{filepath.Base(names[0]), "f.json"}; !slices.Equal(got, want) {
		t.Errorf("dir holds %q, want %q", got, want)
	}
}

// tempFiles lists the mcpwire temporary files of dest's directory.
func tempFiles(t *testing.T, dest string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".mcpwire-*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// openFD reports whether this process holds a descriptor open on path (Linux only;
// ok is false elsewhere).
func openFD(t *testing.T, path string) (open, ok bool) {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return false, false
	}
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && target == path {
			return true, true
		}
	}
	return false, true
}

// TestWriteFileStages walks the steps of an atomic replace in order: open (the
// temporary file does not exist yet), write (it exists, empty, already with the final
// mode even under umask 077), sync (it holds every byte, still the same file and
// mode, still open), rename (closed); the destination is untouched until the rename.
//
// spec: W3 W4
func TestWriteFileStages(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "old", 0o604)
	const data = "new content"
	var stages []string
	var tmp string
	var atWrite os.FileInfo
	o := OS{hook: func(stage, name string) error {
		stages = append(stages, stage)
		if stage == "open" {
			tmp = name
			if _, err := os.Lstat(name); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("open: %s exists before it is created (%v)", name, err)
			}
			return nil
		}
		if name != p {
			t.Errorf("%s: hook got %s, want the destination %s", stage, name, p)
		}
		if got := fileState(t, p); got != "0604 old" {
			t.Errorf("%s: destination = %q before the rename", stage, got)
		}
		if m := tempFiles(t, p); len(m) != 1 || m[0] != tmp {
			t.Errorf("%s: temporary files %q, want only %s", stage, m, tmp)
			return nil
		}
		fi, err := os.Lstat(tmp)
		if err != nil {
			t.Errorf("%s: %v", stage, err)
			return nil
		}
		open, canTell := openFD(t, tmp)
		switch stage {
		case "write":
			atWrite = fi
			if got := fileState(t, tmp); got != "0644 " {
				t.Errorf("write: temporary file = %q, want empty with the final mode 0644", got)
			}
		case "sync":
			if got := fileState(t, tmp); got != "0644 "+data {
				t.Errorf("sync: temporary file = %q, want every byte written, mode 0644", got)
			}
			if atWrite != nil && !os.SameFile(atWrite, fi) {
				t.Error("sync: the temporary file was replaced after it was created")
			}
			if canTell && !open {
				t.Error("sync: the temporary file is already closed")
			}
		case "rename":
			if got := fileState(t, tmp); got != "0644 "+data {
				t.Errorf("rename: temporary file = %q", got)
			}
			if canTell && open {
				t.Error("rename: the temporary file is still open")
			}
		}
		return nil
	}}
	withUmask(t, 0o077, func() {
		if err := o.WriteFile(p, []byte(data), 0o644, nil); err != nil {
			t.Fatal(err)
		}
	})
	if want := []string{"open", "write", "sync", "rename"}; !slices.Equal(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	if got := fileState(t, p); got != "0644 "+data {
		t.Errorf("destination = %q", got)
	}
	if got := listTree(t, dir); !slices.Equal(got, []string{"f.json"}) {
		t.Errorf("dir holds %q", got)
	}
}
