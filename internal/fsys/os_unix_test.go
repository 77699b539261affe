//go:build unix

package fsys

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	dir := os.Getenv(nobodyDirEnv)
	if dir == "" {
		if os.Geteuid() == 0 {
			runAsNobody(t, "TestCheckWritableDir") // root may write anywhere: check as a plain user
			return
		}
		dir = t.TempDir()
	}
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

// nobodyDirEnv names the scratch directory of a test re-run as an unprivileged user.
const nobodyDirEnv = "MCPWIRE_FSYS_NOBODY_DIR"

// runAsNobody runs one test of this binary again as uid/gid 65534, in a scratch
// directory that user can write, so that permission checks are real when the suite
// runs as root (as CI does).
func runAsNobody(t *testing.T, test string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "fsys-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fsys.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(work, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.v")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), nobodyDirEnv+"="+work, "TMPDIR="+work)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("%s as uid 65534: %v\n%s", test, err, out)
	}
}
