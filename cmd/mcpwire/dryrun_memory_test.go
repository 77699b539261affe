//go:build linux && !race

package main

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"io"
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

// TestDryRunMinifiedMemory: the same for a minified ~/.claude.json, one line of
// 50 MB (SPEC K7: 1.08 GB and 30 s before, when the diff printed and redacted that
// line twice): the dry run and --check show the change cut to what differs, with the
// file's credentials hidden, and peak at most 1.5× the real inject's memory (3× the
// file: the real inject holds the read and the written file, 2.3×).
//
// spec: K7 K3 R8
func TestDryRunMinifiedMemory(t *testing.T) {
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
	if err := benchgen.WriteClaudeJSON(file+".pretty", 70<<20); err != nil {
		t.Fatal(err)
	}
	// minified a little at a time: a child's peak RSS counts this process's own peak
	// (the memory it shares until it execs), which must stay small
	if err := minify(file+".pretty", file); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size()
	env := append(os.Environ(), "HOME="+home, "AIWG_CONFIG="+filepath.Join(home, ".aiwg"), "TMPDIR="+work,
		"AIWG_CONFIG_LAYERS=", "AIWG_MCP_CREDENTIAL_POLICY=")
	run := func(wantErr bool, args ...string) (string, int64) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Dir = work
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if (err != nil) != wantErr {
			t.Fatalf("mcpwire %s: %v\n%.2000s", strings.Join(args, " "), err, out)
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
		t.Logf("mcpwire %s: %v, peak RSS %.0f MiB = %.2f× the file", strings.Join(args, " "), time.Since(start).Round(time.Millisecond),
			float64(rss)/(1<<20), float64(rss)/float64(size))
		return string(out), rss
	}
	// a credential beside the user's servers, shown as context of the change
	run(false, "server", "add", "lit", "--command", "x", "--env", "API_KEY=sk-live-MINSECRET2")
	run(false, "inject", "--provider", "claude-code", "--scope", "user", "--servers", "lit")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	data = nil
	run(false, "server", "add", "bench1", "--command", "bench-mcp", "--env", "API_TOKEN=sk-live-MEMSECRET1")
	var peak int64
	for _, flag := range []string{"--dry-run", "--check"} {
		out, rss := run(flag == "--check", "inject", "--provider", "claude-code", "--scope", "user", "--servers", "bench1", flag)
		peak = max(peak, rss)
		if !strings.Contains(out, `"bench1":{"command":"bench-mcp","args":[],"env":{"API_TOKEN":"REDACTED"}}`) ||
			!strings.Contains(out, `"lit":{"command":"x","args":[],"env":{"API_KEY":"REDACTED"}}`) || strings.Contains(out, "SECRET") || len(out) > 4096 ||
			!strings.Contains(out, `\ line of `) {
			t.Fatalf("unexpected diff:\n%.3000s", out)
		}
	}
	if after, err := os.ReadFile(file); err != nil || sha256.Sum256(after) != sum {
		t.Errorf("the dry run changed the file: %v", err)
	}
	_, inject := run(false, "inject", "--provider", "claude-code", "--scope", "user", "--servers", "bench1")
	if peak > inject*3/2 {
		t.Errorf("dry run peak RSS %d bytes > 1.5× the real inject's (%d bytes)", peak, inject)
	}
}

// minify writes the JSON file from without white space outside strings to to, a
// little at a time.
func minify(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	r, w := bufio.NewReader(in), bufio.NewWriter(out)
	quoted, escaped := false, false
	for {
		c, err := r.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			continue
		}
		w.WriteByte(c)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return errors.Join(out.Close(), os.Remove(from))
}
