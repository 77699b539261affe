//go:build conformance && unix

package conformance

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// captureFailure runs f as a test of its own, outside this one (testing.RunTests, the
// way `go test` runs top-level tests), so that its failure does not fail the caller,
// and returns what that test printed (unindented) and whether it failed. The inner test has the
// caller's name, so that the -run and -skip patterns that selected the caller select
// it too.
func captureFailure(t *testing.T, f func(t *testing.T)) (output string, failed bool) {
	t.Helper()
	out, err := os.CreateTemp(t.TempDir(), "report-")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	stdout := os.Stdout
	os.Stdout = out // the inner root test writes its report to os.Stdout
	ok := func() bool {
		defer func() { os.Stdout = stdout }()
		return testing.RunTests(regexp.MatchString, []testing.InternalTest{{Name: t.Name(), F: f}})
	}()
	b, err := os.ReadFile(out.Name())
	if err != nil {
		t.Fatal(err)
	}
	return unindent(string(b)), !ok
}

// unindent drops the indentation the testing package gives every line of a message.
func unindent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// TestReportShowsClientOutputAndFiles is a self-test of the harness, which runs no
// client: a disagreement found by check (after its retries), or by a labelled check
// through report, fails the test with a message that holds the problems, the client
// command with its working directory and status, the client's own stdout and stderr,
// and every file mcpwire wrote, in full (an unreadable one named as such). A client
// command that timed out fails even when its output raised no problem; a clean result
// does not fail.
//
// spec: Q3
func TestReportShowsClientOutputAndFiles(t *testing.T) {
	if f := flag.Lookup("test.failfast"); f != nil && f.Value.String() == "true" {
		t.Skip("the captured failure would stop the suite under -failfast")
	}
	dir := t.TempDir()
	mcpJSON := filepath.Join(dir, ".mcp.json")
	settings := filepath.Join(dir, ".claude", "settings.local.json")
	missing := filepath.Join(dir, "never-written.json")
	writeFile(t, mcpJSON, `{"mcpServers": {"file-mark-7e1d": {"type": "http"}}}`) // no final newline
	writeFile(t, settings, "{\"permissions\": {\"deny\": [\"mcp__deny-mark-33ac\"]}}\n")
	files := []string{mcpJSON, settings, missing}
	bin := filepath.Join(cl.dir, "node_modules", ".bin", "claude") // as the tests run it
	client := result{cmd: bin + " mcp get everything", dir: dir, exit: 1, took: 1500 * time.Millisecond,
		stdout: "stdout-mark-51b0: everything (not connected)\n", stderr: "stderr-mark-c9f2: config warning\n"}

	want := func(t *testing.T, out string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(out, p) {
				t.Errorf("the failure report lacks %q; it is:\n%s", p, out)
			}
		}
	}
	// every file mcpwire wrote, in full, after the client's output
	dump := []string{
		"=== written by mcpwire: " + mcpJSON + "\n" + `{"mcpServers": {"file-mark-7e1d": {"type": "http"}}}` + "\n",
		"=== written by mcpwire: " + settings + "\n{\"permissions\": {\"deny\": [\"mcp__deny-mark-33ac\"]}}\n",
		"=== written by mcpwire: " + missing + " (unreadable: ",
	}

	t.Run("check", func(t *testing.T) {
		runs := 0
		out, failed := captureFailure(t, func(inner *testing.T) {
			s := &scenario{t: inner, name: "fake-project", files: files}
			s.check(func(c *checker) result {
				runs++
				c.errorf("problem-mark-0a4e: everything is missing")
				return client
			})
		})
		if !failed {
			t.Fatalf("a disagreement did not fail the test; it printed:\n%s", out)
		}
		if runs != attempts {
			t.Errorf("the client command ran %d times, want %d", runs, attempts)
		}
		want(t, out,
			"fake-project: `claude mcp get everything` disagrees with what mcpwire wrote",
			"problem-mark-0a4e: everything is missing",
			"=== client command (cwd "+dir+"): exit 1 after 1.5s",
			"=== client stdout\nstdout-mark-51b0: everything (not connected)\n",
			"=== client stderr\nstderr-mark-c9f2: config warning\n")
		want(t, out, dump...)
		if i, j := strings.LastIndex(out, "stderr-mark-c9f2"), strings.Index(out, "=== written by mcpwire"); i < 0 || j < i {
			t.Errorf("the files mcpwire wrote are not shown after the client's output:\n%s", out)
		}
	})

	t.Run("labelled", func(t *testing.T) {
		out, failed := captureFailure(t, func(inner *testing.T) {
			s := &scenario{t: inner, name: "fake-project", files: files}
			c := &checker{}
			c.errorf("problem-mark-77d1: header not sent")
			s.report(result{label: "what the client sent"}, c)
		})
		if !failed {
			t.Fatalf("a labelled problem did not fail the test; it printed:\n%s", out)
		}
		want(t, out, "fake-project: what the client sent:", "problem-mark-77d1: header not sent")
		want(t, out, dump...)
	})

	t.Run("timeout", func(t *testing.T) {
		timedOut := client
		timedOut.err, timedOut.exit = errors.New("timed out after 4m0s (process group killed)"), -1
		out, failed := captureFailure(t, func(inner *testing.T) {
			s := &scenario{t: inner, name: "fake-project", files: files}
			s.check(func(c *checker) result { return timedOut })
		})
		if !failed {
			t.Fatalf("a timed-out client did not fail the test; it printed:\n%s", out)
		}
		want(t, out, "client command failed: timed out after 4m0s", "stdout-mark-51b0", "stderr-mark-c9f2")
		want(t, out, dump...)
	})

	t.Run("agreement", func(t *testing.T) {
		out, failed := captureFailure(t, func(inner *testing.T) {
			s := &scenario{t: inner, name: "fake-project", files: files}
			s.check(func(c *checker) result { return result{cmd: client.cmd, dir: dir} })
		})
		if failed {
			t.Errorf("a client that agrees failed the test:\n%s", out)
		}
	})

	t.Run("redacted", func(t *testing.T) {
		leaky := client
		leaky.stdout = "Authorization: Bearer " + sentinels["CONF_NOTES_TOKEN"] + "\n"
		out, failed := captureFailure(t, func(inner *testing.T) {
			s := &scenario{t: inner, name: "fake-project", files: files}
			s.check(func(c *checker) result {
				c.serverf("notes", "header %q", "Bearer "+sentinels["CONF_NOTES_TOKEN"])
				return leaky
			})
		})
		if !failed {
			t.Fatalf("a disagreement did not fail the test; it printed:\n%s", out)
		}
		for k, v := range sentinels {
			if strings.Contains(out, v) {
				t.Errorf("the failure report shows the value of %s:\n%s", k, out)
			}
		}
		want(t, out, `notes: header "Bearer <$CONF_NOTES_TOKEN>"`, "Authorization: Bearer <$CONF_NOTES_TOKEN>\n")
	})
}

// TestMustFlagExactly is a self-test of the drivers' negative check, which runs no
// client: it passes when the steps flag exactly the servers named, and fails, naming
// what was flagged, when they flag fewer or more.
//
// spec: Q5
func TestMustFlagExactly(t *testing.T) {
	if f := flag.Lookup("test.failfast"); f != nil && f.Value.String() == "true" {
		t.Skip("the captured failures would stop the suite under -failfast")
	}
	steps := func(flagged ...string) []step {
		return []step{
			func(c *checker) result {
				for _, n := range flagged {
					c.serverf(n, "not listed")
				}
				return result{cmd: "fake mcp list"}
			},
			func(c *checker) result { c.errorf("exit 1"); return result{cmd: "fake mcp get"} },
		}
	}
	for _, tc := range []struct {
		name    string
		flagged []string
		fails   bool
	}{
		{"exactly", []string{"tickets", "legacy"}, false},
		{"fewer", []string{"tickets"}, true},
		{"more", []string{"tickets", "legacy", "notes"}, true},
		{"none", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, failed := captureFailure(t, func(inner *testing.T) {
				s := &scenario{t: inner, name: "fake-negative"}
				s.mustFlag(steps(tc.flagged...), "legacy", "tickets")
			})
			if failed != tc.fails {
				t.Errorf("flagging %v: failed = %v, want %v; it printed:\n%s", tc.flagged, failed, tc.fails, out)
			}
			if tc.fails && !strings.Contains(out, "want exactly [legacy tickets]") {
				t.Errorf("the failure does not say what was wanted:\n%s", out)
			}
		})
	}
}
