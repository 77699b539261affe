//go:build linux && !race

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/benchgen"
)

// TestDryRunMemory bounds the peak memory of `inject --dry-run` into a generated
// 50 MB ~/.claude.json: at most 3× the file (issue 11 defect 4; 775 MiB = 15.5× at
// 4482a81, about 130 MiB = 2.6× now, and 115 MiB = 2.3× for the real write). The
// dry run holds the old and new file once each (fsys.DryRun), diffs only the changed
// region (fsys.writeHunks) and reads the file's credentials in place, without
// decoding it (policy/redact). The peak is the child process's maximum resident set
// (getrusage), measured on the mcpwire the test binary provides.
//
// spec: W9 R8
func TestDryRunMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 50 MB file")
	}
	bin, err := exec.LookPath("mcpwire")
	if err != nil {
		t.Skip("no mcpwire on PATH (run through go test)")
	}
	work := t.TempDir()
	home := filepath.Join(work, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, ".claude.json")
	if err := benchgen.WriteClaudeJSON(file, 50<<20); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "AIWG_CONFIG="+filepath.Join(home, ".aiwg"), "TMPDIR="+work,
		"AIWG_CONFIG_LAYERS=", "AIWG_MCP_CREDENTIAL_POLICY=")
	run := func(args ...string) (string, int64) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Dir = work
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mcpwire %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
		t.Logf("mcpwire %s: %v, peak RSS %.0f MiB = %.2f× the file", args[0], time.Since(start).Round(time.Millisecond),
			float64(rss)/(1<<20), float64(rss)/float64(fi.Size()))
		return string(out), rss
	}
	run("server", "add", "bench1", "--command", "bench-mcp", "--env", "API_TOKEN=sk-live-MEMSECRET1")
	out, rss := run("inject", "--provider", "claude-code", "--scope", "user", "--servers", "bench1", "--dry-run")
	if !strings.Contains(out, `+    "bench1": {`) || !strings.Contains(out, `"API_TOKEN": "REDACTED"`) || strings.Contains(out, "MEMSECRET") {
		t.Fatalf("unexpected diff:\n%s", out)
	}
	if bound := 3 * fi.Size(); rss > bound {
		t.Errorf("dry run peak RSS %d bytes > 3× the file (%d bytes)", rss, bound)
	}
	if after, err := os.Stat(file); err != nil || after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
		t.Errorf("the dry run changed the file: %v", err)
	}
}
