//go:build linux && !race

package main

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/benchgen"
)

// TestInjectMemoryBelowFile bounds the peak memory of an inject into a generated
// 32 MB ~/.claude.json, in user and in local scope (a project halfway through the
// file), and of its dry run, below the file's size (issue 31; 1.34–1.48× the file
// before, when the file was read whole into the process). The file is mapped
// read-only, its pages dropped behind every pass, its unchanged stretches copied by
// the kernel (docs/writes.md, "A large file's edit, written in pieces"). The peak is
// the child process's maximum resident set (getrusage) of the mcpwire the test
// binary provides; the file written is checked against the same edit's dry run
// (the new servers in place, everything else the same bytes).
//
// spec: W8 K7
func TestInjectMemoryBelowFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 32 MB file")
	}
	bin, err := exec.LookPath("mcpwire")
	if err != nil {
		t.Skip("no mcpwire on PATH (run through go test)")
	}
	work := t.TempDir()
	home := filepath.Join(work, "home")
	proj := filepath.Join(work, "proj")
	for _, d := range []string{home, proj} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(home, ".claude.json")
	if err := benchgen.WriteClaudeJSON(file, 32<<20); err != nil {
		t.Fatal(err)
	}
	// the project is one of the file's, halfway through its projects
	if err := renameProject(file, `"/home/dev/src/project-`, proj); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "AIWG_CONFIG="+filepath.Join(home, ".aiwg"), "TMPDIR="+work,
		"AIWG_CONFIG_LAYERS=", "AIWG_MCP_CREDENTIAL_POLICY=")
	maxrss, err := exec.LookPath("maxrss")
	if err != nil {
		t.Fatal(err)
	}
	rssOut := filepath.Join(work, "maxrss")
	env = append(env, "MCPWIRE_MAXRSS_OUT="+rssOut)
	// run runs mcpwire through maxrss (maxrss_test.go): its peak is its own, not
	// this test process's
	run := func(args ...string) (string, int64) {
		t.Helper()
		cmd := exec.Command(maxrss, append([]string{bin}, args...)...)
		cmd.Env, cmd.Dir = env, work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mcpwire %s: %v\n%.2000s", strings.Join(args, " "), err, out)
		}
		b, err := os.ReadFile(rssOut)
		if err != nil {
			t.Fatal(err)
		}
		rss, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return string(out), rss
	}
	run("server", "add", "bench1", "--command", "bench-mcp", "--arg", "--n")
	for _, scope := range [][]string{{"--scope", "user"}, {"--scope", "local", "--project", proj}} {
		size := fileSize(t, file)
		before := fileSum(t, file)
		inject := append([]string{"inject", "--provider", "claude-code", "--servers", "bench1"}, scope...)
		out, dry := run(append(inject, "--dry-run")...)
		if !strings.Contains(out, `"bench1": {`) || fileSum(t, file) != before {
			t.Fatalf("%s: unexpected dry run, or the file changed:\n%.2000s", scope[1], out)
		}
		_, rss := run(inject...)
		after := fileSize(t, file)
		t.Logf("%s scope: inject peak RSS %.1f MiB = %.2f× the file, its dry run %.1f MiB = %.2f×", scope[1],
			float64(rss)/(1<<20), float64(rss)/float64(after), float64(dry)/(1<<20), float64(dry)/float64(size))
		if rss >= after || dry >= size {
			t.Errorf("%s scope: peak RSS of the inject %d bytes, of its dry run %d bytes: not below the file's %d bytes", scope[1], rss, dry, size)
		}
		if got, _ := run(append(inject, "--dry-run")...); !strings.Contains(got, "no change") && strings.Contains(got, "+") {
			t.Errorf("%s scope: the inject did not write what its dry run showed; a dry run after it shows:\n%.2000s", scope[1], got)
		}
	}
}

// renameProject renames the project of the file whose key starts with prefix,
// halfway through the file, to dir.
func renameProject(file, prefix, dir string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	at := strings.Index(string(data[len(data)/2:]), prefix) + len(data)/2
	end := at + strings.IndexByte(string(data[at+1:at+200]), '"') + 2
	out := append(append(append([]byte{}, data[:at]...), `"`+dir+`"`...), data[end:]...)
	return os.WriteFile(file, out, 0o600)
}

func fileSize(t *testing.T, name string) int64 {
	t.Helper()
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func fileSum(t *testing.T, name string) [32]byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(data)
}
