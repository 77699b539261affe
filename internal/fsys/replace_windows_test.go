package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// TestWriteFileOnWindows: an existing file is replaced by MoveFileEx
// (MOVEFILE_REPLACE_EXISTING) after the compare with what was read (W8); a file that
// changed after it was read is left as it is (ErrChanged: Apply then redoes the
// edit); a file that appears after the compare, where mcpwire expected none, is not
// replaced either (the move has no MOVEFILE_REPLACE_EXISTING). No temporary file
// remains.
//
// spec: W3 W8
func TestWriteFileOnWindows(t *testing.T) {
	tests := []struct {
		name     string
		old      string // "" = absent
		hook     string // the stage at which another program writes "other"
		wantErr  error
		wantFile string
	}{
		{"replaces", "read", "", nil, "0666 mine"},
		{"changed before the compare", "read", "sync", ErrChanged, "0666 other"},
		{"appeared after the compare", "", "rename", ErrChanged, "0666 other"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.json")
			want := &Snapshot{}
			if tt.old != "" {
				writeTestFile(t, p, tt.old, 0o600)
				want = &Snapshot{Exists: true, Data: []byte(tt.old)}
			}
			o := OS{hook: func(stage, _ string) error {
				if stage == tt.hook {
					writeTestFile(t, p, "other", 0o600)
				}
				return nil
			}}
			if err := o.WriteFile(p, []byte("mine"), 0o600, &WriteOptions{Expect: want}); !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got := fileState(t, p); got != tt.wantFile {
				t.Errorf("file = %q, want %q", got, tt.wantFile)
			}
			noTemp(t, dir)
		})
	}
}

// TestWriteFileHeldOpenOnWindows: a file another program holds open without sharing
// deletion cannot be replaced; mcpwire retries for about a second, then fails, the
// file unchanged and no temporary file left.
func TestWriteFileHeldOpenOnWindows(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "old", 0o600)
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ, windows.FILE_SHARE_READ, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = (OS{}).WriteFile(p, []byte("new"), 0o600, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("old")}})
	took := time.Since(start)
	windows.CloseHandle(h)
	if err == nil || took < 500*time.Millisecond {
		t.Fatalf("err = %v after %v, want a failure after retrying", err, took)
	}
	if got := fileState(t, p); got != "0666 old" {
		t.Errorf("file = %q", got)
	}
	noTemp(t, dir)
}

// TestModesOnWindows: Windows keeps only "read-only or not". A mode the owner may
// write becomes 0666 (no attribute), one he may not becomes 0444 (read-only); Apply
// compares modes that way, so writing 0600 again over such a file changes nothing.
//
// spec: W4 W6
func TestModesOnWindows(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "rw.json"), filepath.Join(dir, "ro.json")
	if err := (OS{}).WriteFile(p, []byte("x"), 0o600, nil); err != nil {
		t.Fatal(err)
	}
	if err := (OS{}).WriteFile(q, []byte("x"), 0o400, nil); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(q, 0o600) // let t.TempDir remove it
	if fileMode(t, p) != 0o666 || fileMode(t, q) != 0o444 {
		t.Errorf("modes %v %v, want 0666 and 0444", fileMode(t, p), fileMode(t, q))
	}
	res, err := Apply(OS{}, []Target{{Path: p, Edit: editSet("x", 0o600)}})
	if err != nil || res[0].Changed {
		t.Errorf("Apply = %+v, %v: want no change", res, err)
	}
}
