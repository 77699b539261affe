package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// TestNoWorkInInit: mcpwire's own packages do next to nothing when the process starts
// (a scripted launch runs mcpwire every time): every init of theirs allocates at most
// 8 KB. Compiling a regular expression in a package variable took 17–18 KB and
// 0.1–0.2 ms each (yamledit, policy/redact); they compile on first use now. Measured
// with GODEBUG=inittrace=1 on this test binary, which links every package of the
// command.
func TestNoWorkInInit(t *testing.T) {
	out := inittrace(t)
	line := regexp.MustCompile(`(?m)^init (github\.com/mcpwire/mcpwire/\S*) @\S+ ms, \S+ ms clock, (\d+) bytes`)
	found := line.FindAllSubmatch(out, -1)
	if len(found) < 5 {
		t.Fatalf("inittrace printed %d of mcpwire's packages:\n%s", len(found), out)
	}
	for _, m := range found {
		if n, _ := strconv.Atoi(string(m[2])); n > 8<<10 {
			t.Errorf("init of %s allocates %d bytes, want at most 8 KB: build what it needs on first use", m[1], n)
		}
	}
}

// inittrace runs this test binary, which links every package of the command, with
// GODEBUG=inittrace=1 and returns what the package initialisations printed.
func inittrace(t *testing.T) []byte {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// TestVersionWork: `mcpwire --version` builds the command tree and prints a line:
// at most 1,000 objects and 80 KB in process on Linux (735 and 60 KB measured,
// December 2026; 728 and 59 KB on 7 December, when the bound came down from 1,500 and
// 120 KB: blackfriday's entity table alone is 762 objects and 214 KB), so that no
// command's work moves to the start of every command.
// bench/startup.sh times the whole process beside a Go "hello world".
//
// spec: H14
func TestVersionWork(t *testing.T) {
	objects, size := ^uint64(0), ^uint64(0)
	for range 3 {
		var stdout, stderr bytes.Buffer
		env := &Env{
			Getenv: func(string) string { return "" },
			Stdin:  strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			FS: fsys.NewOS(), Home: t.TempDir(), Cwd: t.TempDir(),
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code := Main([]string{"--version"}, env)
		runtime.ReadMemStats(&after)
		if code != 0 || !strings.HasPrefix(stdout.String(), "mcpwire ") {
			t.Fatalf("--version: exit %d, %q, %s", code, stdout.String(), stderr.String())
		}
		objects = min(objects, after.Mallocs-before.Mallocs)
		size = min(size, after.TotalAlloc-before.TotalAlloc)
	}
	t.Logf("--version: %d objects, %d bytes", objects, size)
	maxObjects, maxSize := uint64(1000), uint64(80<<10)
	if runtime.GOOS != "linux" {
		maxObjects, maxSize = maxObjects*3/2, maxSize*3/2 // measured on Linux
	}
	if objects > maxObjects || size > maxSize {
		t.Errorf("--version allocated %d objects and %d bytes, want at most %d and %d", objects, size, maxObjects, maxSize)
	}
}
