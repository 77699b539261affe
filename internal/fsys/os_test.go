package fsys

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/winetest"
)

// spec: W3
func TestWriteFileCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := (OS{}).WriteFile(p, []byte("one"), 0o600, nil); err != nil {
		t.Fatal(err)
	}
	if err := (OS{}).WriteFile(p, []byte("two"), 0o600, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("one")}}); err != nil {
		t.Fatal(err)
	}
	if got := fileState(t, p); got != state(0o600, "two") {
		t.Errorf("state = %q", got)
	}
	if got := listTree(t, dir); len(got) != 1 || got[0] != "a.json" {
		t.Errorf("dir holds %q", got)
	}
}

// spec: W3
func TestWriteFileRemovesTempOnFailure(t *testing.T) {
	errCheck := errors.New("check failed")
	tests := []struct {
		name    string
		os      OS
		opts    *WriteOptions
		wantErr error
	}{
		{"write", OS{hook: failStage("write")}, nil, errInjected},
		{"rename", OS{hook: failStage("rename")}, nil, errInjected},
		{"check", OS{}, &WriteOptions{Check: func() error { return errCheck }}, errCheck},
		{"expect absent", OS{}, &WriteOptions{Expect: &Snapshot{}}, ErrChanged},
		{"expect other bytes", OS{}, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("OLD")}}, ErrChanged},
		{"expect same size", OS{}, &WriteOptions{Expect: &Snapshot{Exists: true, Data: []byte("ol")}}, ErrChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.json")
			writeTestFile(t, p, "old", 0o644)
			err := tt.os.WriteFile(p, []byte("new"), 0o600, tt.opts)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if !strings.HasPrefix(err.Error(), "write "+p+": ") {
				t.Errorf("error %q does not name the file", err)
			}
			if got := fileState(t, p); got != state(0o644, "old") {
				t.Errorf("destination = %q, want untouched", got)
			}
			if got := listTree(t, dir); len(got) != 1 {
				t.Errorf("dir holds %q, want only f.json", got)
			}
		})
	}
}

// spec: W5
func TestWriteFileRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	writeTestFile(t, target, "real", 0o644)
	winetest.Skip(t, winetest.Symlinks)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	err := (OS{}).WriteFile(link, []byte("x"), 0o600, nil)
	if err == nil || !strings.Contains(err.Error(), "is a symlink") || !errors.Is(err, ErrSymlink) {
		t.Fatalf("err = %v, want a symlink refusal", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link changed: %v %v", fi, err)
	}
	if got := fileState(t, target); got != state(0o644, "real") {
		t.Errorf("target = %q", got)
	}
	noTemp(t, dir)
}

// spec: W5
func TestWriteFileRefusesSymlinkAtRename(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	other := filepath.Join(dir, "other")
	writeTestFile(t, other, "other", 0o600)
	winetest.Skip(t, winetest.Symlinks)
	o := OS{hook: func(stage, _ string) error {
		if stage == "rename" {
			return os.Symlink(other, p) // planted between the first check and the rename
		}
		return nil
	}}
	err := o.WriteFile(p, []byte("x"), 0o600, nil)
	if !errors.Is(err, ErrSymlink) {
		t.Fatalf("err = %v, want ErrSymlink", err)
	}
	if got := fileState(t, other); got != state(0o600, "other") {
		t.Errorf("symlink target = %q", got)
	}
	if got := listTree(t, dir); len(got) != 2 {
		t.Errorf("dir = %q", got)
	}
}

// spec: W4
func TestWriteFileNewInodeAndExactMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix modes")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	writeTestFile(t, p, "old", 0o644)
	before, _ := os.Lstat(p)
	if err := (OS{}).WriteFile(p, []byte("new"), 0o600, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Lstat(p)
	if os.SameFile(before, after) {
		t.Error("file was rewritten in place, want a new inode")
	}
	if got := fileState(t, p); got != state(0o600, "new") {
		t.Errorf("state = %q", got)
	}
}

// spec: W8
func TestWriteFileKeepsOtherWritersContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	writeTestFile(t, p, "read by mcpwire", 0o600)
	snap := &Snapshot{Exists: true, Data: []byte("read by mcpwire")}
	o := OS{hook: func(stage, _ string) error {
		if stage == "write" { // another process writes while our temp file is open
			writeTestFile(t, p, "other writer", 0o600)
		}
		return nil
	}}
	err := o.WriteFile(p, []byte("mine"), 0o600, &WriteOptions{Expect: snap})
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if got := fileState(t, p); got != state(0o600, "other writer") {
		t.Errorf("state = %q", got)
	}
	noTemp(t, dir)
}

// spec: W4
func TestMkdirTempMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unix modes")
	}
	d, err := (OS{}).MkdirTemp(t.TempDir(), "mcpwire-*")
	if err != nil {
		t.Fatal(err)
	}
	if m := fileMode(t, d); m != 0o700 {
		t.Errorf("mode = %04o, want 0700", m)
	}
}

func BenchmarkWriteFile50MB(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "big.json")
	data := []byte(strings.Repeat(`{"k":"v"},`+"\n", 50<<20/10))
	snap := &Snapshot{Exists: true, Data: data}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := (OS{}).WriteFile(p, data, 0o600, &WriteOptions{Expect: snap}); err != nil {
			b.Fatal(err)
		}
	}
}

func failStage(stage string) func(string, string) error {
	return func(s, _ string) error {
		if s == stage {
			return errInjected
		}
		return nil
	}
}
