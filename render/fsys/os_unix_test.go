//go:build unix

package fsys

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// withUmask runs f with the process umask set to m.
func withUmask(t *testing.T, m int, f func()) {
	t.Helper()
	old := syscall.Umask(m)
	defer syscall.Umask(old)
	f()
}

// spec: W4
func TestExactModesUnderUmask(t *testing.T) {
	for _, umask := range []int{0o022, 0o077, 0o002} {
		for _, perm := range []fs.FileMode{0o600, 0o644, 0o666, 0o640} {
			t.Run(octal(fs.FileMode(umask))+"/"+octal(perm), func(t *testing.T) {
				dir := t.TempDir()
				newFile := filepath.Join(dir, "new.json")
				oldFile := filepath.Join(dir, "old.json")
				newDir := filepath.Join(dir, "d")
				writeTestFile(t, oldFile, "old", 0o604)
				withUmask(t, umask, func() {
					if err := (OS{}).WriteFile(newFile, []byte("x"), perm, nil); err != nil {
						t.Fatal(err)
					}
					if err := (OS{}).WriteFile(oldFile, []byte("x"), perm, nil); err != nil {
						t.Fatal(err)
					}
					if err := (OS{}).Mkdir(newDir, perm|0o100); err != nil {
						t.Fatal(err)
					}
				})
				for _, p := range []string{newFile, oldFile} {
					if m := fileMode(t, p); m != perm {
						t.Errorf("%s: mode %s, want %s", filepath.Base(p), octal(m), octal(perm))
					}
				}
				if m := fileMode(t, newDir); m != perm|0o100 {
					t.Errorf("dir mode %s, want %s", octal(m), octal(perm|0o100))
				}
			})
		}
	}
}

// spec: W4
func TestUmask(t *testing.T) {
	want := syscall.Umask(0)
	syscall.Umask(want)
	if got := Umask(); got != fs.FileMode(want) {
		t.Errorf("Umask() = %s, want %s", octal(got), octal(fs.FileMode(want)))
	}
}

// spec: W8
func TestLockFileMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.json")
	withUmask(t, 0o377, func() {
		release, err := (OS{}).Lock(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := fileMode(t, p+LockSuffix); m != 0o600 {
			t.Errorf("lock file mode %s, want 0600", octal(m))
		}
		if err := release(); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := os.Lstat(p + LockSuffix); !os.IsNotExist(err) {
		t.Errorf("lock file left behind: %v", err)
	}
}

// spec: W7
func TestCheckWritableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write anywhere")
	}
	dir := t.TempDir()
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o700) })
	if err := CheckWritableDir(filepath.Join(dir, "missing", "deeper")); err != nil {
		t.Errorf("writable: %v", err)
	}
	err := CheckWritableDir(filepath.Join(ro, "missing"))
	if err == nil {
		t.Fatal("read-only dir accepted")
	}
	if want := ro + ": directory is not writable: permission denied"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}
