//go:build unix

package fsys

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/limits"
)

// hangGuard fails the test instead of hanging when fn blocks (a FIFO read would wait
// for a writer for ever); it bounds nothing about speed.
func hangGuard(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("%s blocked", what)
	}
}

// allocated is how many bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// spec: K2 K3
// TestReadRefusesWhatIsNotARegularFile: a FIFO, a character device, a socket, a
// directory, and a symlink to any of them (a committed `.mcp.json -> /dev/zero`) are
// refused naming the file, as not a regular file, without blocking and without reading
// (a few KB allocated); the dry run's reads go through the same check.
func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	sock := filepath.Join(dir, "s.sock")
	if l, err := net.Listen("unix", sock); err == nil {
		defer l.Close()
	}
	links := map[string]string{"zero.json": "/dev/zero", "tofifo.json": fifo, "todir.json": dir}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]string{
		fifo:                              "a named pipe (FIFO)",
		filepath.Join(dir, "tofifo.json"): "a named pipe (FIFO)",
		filepath.Join(dir, "zero.json"):   "a character device",
		"/dev/null":                       "a character device",
		dir:                               "a directory",
		filepath.Join(dir, "todir.json"):  "a directory",
	}
	if _, err := os.Stat(sock); err == nil {
		cases[sock] = "a socket"
	}
	for _, f := range []FS{OS{}, NewDryRun(OS{})} {
		for path, kind := range cases {
			var err error
			n := allocated(func() { hangGuard(t, path, func() { _, err = f.ReadFile(path) }) })
			var nr *NotRegularError
			if !errors.As(err, &nr) || !errors.Is(err, ErrNotRegular) || !errors.Is(err, limits.ErrRefused) {
				t.Errorf("%T %s: %v, want a *NotRegularError", f, path, err)
				continue
			}
			if want := path + ": refused: " + kind + ", not a regular file"; err.Error() != want {
				t.Errorf("%T: %q, want %q", f, err, want)
			}
			if n > 64<<10 {
				t.Errorf("%T %s: refusing took %d bytes", f, path, n)
			}
		}
	}
}

// spec: K1 K3
// TestReadRefusesAFileOverTheLimit: a file larger than limits.FileBytes (sparse: its
// size costs no disk) is refused naming the file and the limit, without being read.
func TestReadRefusesAFileOverTheLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, ".claude.json")
	writeTestFile(t, big, "{}", 0o600)
	if err := os.Truncate(big, limits.FileBytes+1); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(big, filepath.Join(dir, "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{big, filepath.Join(dir, "link.json")} {
		var err error
		n := allocated(func() { _, err = OS{}.ReadFile(path) })
		var le *limits.Error
		if !errors.As(err, &le) || !errors.Is(err, limits.ErrRefused) {
			t.Fatalf("%s: %v, want a *limits.Error", path, err)
		}
		if want := path + ": refused: size over mcpwire's limit of 256 MiB"; err.Error() != want {
			t.Errorf("%q, want %q", err, want)
		}
		if n > 64<<10 {
			t.Errorf("refusing took %d bytes", n)
		}
	}
	// at the limit it is read
	if err := os.Truncate(big, 4<<20); err != nil {
		t.Fatal(err)
	}
	if data, err := (OS{}).ReadFile(big); err != nil || len(data) != 4<<20 {
		t.Errorf("%d bytes, %v", len(data), err)
	}
}

// spec: K2
// TestLockAndCompareDoNotBlockOnAFIFO: a FIFO where the lock file goes is refused and
// left as it is; a file replaced by a FIFO after it was read compares as changed,
// without waiting.
func TestLockAndCompareDoNotBlockOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	if err := syscall.Mkfifo(path+".mcpwire.lock", 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	var err error
	hangGuard(t, "lock", func() { _, err = OS{}.Lock(path) })
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path+".mcpwire.lock: refused: a named pipe (FIFO)") {
		t.Errorf("lock: %v", err)
	}
	if fi, err := os.Lstat(path + ".mcpwire.lock"); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO is gone: %v", err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	var same bool
	hangGuard(t, "compare", func() { same, err = SameContent(OS{}, path, Snapshot{Exists: true, Data: []byte("{}")}) })
	if same || err != nil {
		t.Errorf("a FIFO compares as the file: %v %v", same, err)
	}
}

// spec: K2
// TestReadDirDoesNotBlockOnAFIFO: a FIFO where a directory is listed (a client's
// directory of files, the ownership records) is refused by the open, not waited on.
func TestReadDirDoesNotBlockOnAFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mcpServers")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	var err error
	hangGuard(t, "ReadDir", func() { _, err = OS{}.ReadDir(p) })
	if !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("ReadDir of a FIFO: %v", err)
	}
	if names, err := (OS{}).ReadDir(filepath.Dir(p)); err != nil || len(names) != 1 || names[0].Name() != "mcpServers" {
		t.Errorf("ReadDir of its directory: %v %v", names, err)
	}
}
