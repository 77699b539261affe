package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/winetest"
)

// slowServers returns a registry of n stdio test servers s01, s02, … that each wait
// delay before answering, and a profile "big" holding them in reverse order (output
// must follow the profile, not the order servers finish in), and the expected output.
// The servers run command: "mcptest" (the SDK-based test server) or leanServer's,
// with extra arguments after their own.
func slowServers(command string, n int, delay time.Duration, extra ...string) (servers, profiles, want string) {
	var entries, names []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("s%02d", i)
		args, _ := json.Marshal(append([]string{"-delay", delay.String(), "-tools", "t_" + name}, extra...))
		entries = append(entries, fmt.Sprintf(`%q: {"name":%q,"type":"stdio","command":%q,"args":%s}`, name, name, command, args))
		names = append(names, name)
	}
	slices.Reverse(names)
	var out strings.Builder
	for _, name := range names {
		fmt.Fprintf(&out, "%s: t_%s\n", name, name)
	}
	return "{" + strings.Join(entries, ",") + "}", `{"big": {"name":"big","servers":["` + strings.Join(names, `","`) + `"]}}`, out.String()
}

// leanServer builds testdata/leanmcp (a stdio MCP server on the standard library
// alone, cheap to start) once per test binary and returns its path. Where there is no
// go command (the Windows tests .ci/run runs under wine), MCPWIRE_LEANMCP names one
// built beforehand.
func leanServer(tb testing.TB) string {
	tb.Helper()
	leanOnce.Do(func() {
		if leanPath = os.Getenv("MCPWIRE_LEANMCP"); leanPath != "" {
			return
		}
		dir, err := os.MkdirTemp("", "mcpwire-leanmcp-")
		if err != nil {
			leanErr = err
			return
		}
		leanPath = filepath.Join(dir, "leanmcp")
		if runtime.GOOS == "windows" {
			leanPath += ".exe"
		}
		out, err := exec.Command("go", "build", "-o", leanPath, "./testdata/leanmcp").CombinedOutput()
		if err != nil {
			leanErr = fmt.Errorf("go build ./testdata/leanmcp: %v\n%s", err, out)
		}
	})
	if leanErr != nil {
		tb.Fatal(leanErr)
	}
	return leanPath
}

var (
	leanOnce sync.Once
	leanPath string
	leanErr  error
)

// timedProbe probes the profile of slowServers(command, n, delay) and returns the
// wall time.
func timedProbe(tb testing.TB, command string, n int, delay time.Duration, args ...string) time.Duration {
	tb.Helper()
	servers, profiles, want := slowServers(command, n, delay)
	start := time.Now()
	code, out, errOut := probeRun(tb, servers, profiles, nil, append([]string{"--profile", "big"}, args...)...)
	elapsed := time.Since(start)
	if code != 0 || out != want || errOut != "" {
		tb.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, errOut)
	}
	return elapsed
}

// Issue 14, Speed: the servers of a profile are started at once, at most --jobs at a
// time. Each lean server writes when it started and ended; all twenty of a profile run
// at the same moment (each waits 200 ms before it answers, so they overlap however
// slowly the machine starts them), and with --jobs 4 never more than four. The wall
// time bound (1.5× the slowest server alone) is BenchmarkProbeConcurrent's: timing
// twenty process starts on a busy two-core CI machine would make a flaky test, the
// overlap does not. Not named "Concurrent": .ci/run runs those under -race.
func TestProbeStartsServersAtOnce(t *testing.T) {
	lean := leanServer(t)
	wait := 200 * time.Millisecond
	if winetest.Running() {
		wait = 2 * time.Second // wine starts twenty processes in more than 200 ms
	}
	for _, tc := range []struct {
		jobs []string
		want int
	}{{nil, 20}, {[]string{"--jobs", "4"}, 4}} {
		marks := t.TempDir()
		servers, profiles, want := slowServers(lean, 20, wait, "-mark", marks)
		code, out, errOut := probeRun(t, servers, profiles, nil, append([]string{"--profile", "big"}, tc.jobs...)...)
		if code != 0 || out != want || errOut != "" {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		if got := mostAtOnce(t, marks, 20); got != tc.want {
			t.Errorf("probe %v: at most %d servers ran at once, want %d", tc.jobs, got, tc.want)
		}
	}
}

// mostAtOnce reads the start and end times the n lean servers wrote into dir and
// returns the largest number that were running at one moment.
func mostAtOnce(t *testing.T, dir string, n int) int {
	t.Helper()
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	type event struct {
		at    int64
		delta int
	}
	var events []event
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var start, end int64
		if _, err := fmt.Sscan(string(data), &start, &end); err != nil {
			t.Fatalf("%s: %q: %v", f.Name(), data, err)
		}
		events = append(events, event{start, 1}, event{end, -1})
	}
	if len(files) != n {
		t.Fatalf("%d servers wrote their times, want %d", len(files), n)
	}
	slices.SortFunc(events, func(a, b event) int {
		if a.at != b.at {
			return int(a.at - b.at)
		}
		return a.delta - b.delta // an end before a start at the same instant
	})
	most, now := 0, 0
	for _, e := range events {
		now += e.delta
		most = max(most, now)
	}
	return most
}

// --jobs bounds how many servers run at once: with --jobs 1, three servers that each
// wait 300 ms never overlap (their own marks say so, not the clock: issue 24, H14).
func TestProbeJobsBound(t *testing.T) {
	marks := t.TempDir()
	servers, profiles, want := slowServers(leanServer(t), 3, 300*time.Millisecond, "-mark", marks)
	if code, out, errOut := probeRun(t, servers, profiles, nil, "--profile", "big", "--jobs", "1"); code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if got := mostAtOnce(t, marks, 3); got != 1 {
		t.Errorf("3 servers with --jobs 1: %d ran at once, want 1", got)
	}
	code, _, errOut := probeRun(t, `{}`, "", nil, "--servers", "x", "--jobs", "0")
	if code != 2 || !strings.Contains(errOut, "--jobs must be at least 1, not 0") {
		t.Errorf("--jobs 0: exit %d, stderr %q", code, errOut)
	}
}

// BenchmarkProbeConcurrent probes a profile of 20 stdio servers that each wait 200 ms
// before answering (issue 14, Speed), with the lean test server (testdata/leanmcp)
// and with the SDK-based one (mcptest, the test binary: its start-up costs tens of
// milliseconds of CPU, so on two cores twenty of them measure the machine more than
// probe).
//
// Bound: with the lean server, the 20-server probe takes at most 1.5× the time of
// probing one server alone (its start, the 200 ms wait, initialize and tools/list);
// x_slowest reports the ratio. The _serial case (--jobs 1) shows what one server at a
// time would cost (about 20×).
func BenchmarkProbeConcurrent(b *testing.B) {
	const delay = 200 * time.Millisecond
	for _, srv := range []struct{ name, command string }{{"lean", leanServer(b)}, {"sdk", "mcptest"}} {
		alone := func() time.Duration {
			runs := []time.Duration{timedProbe(b, srv.command, 1, delay), timedProbe(b, srv.command, 1, delay), timedProbe(b, srv.command, 1, delay)}
			slices.Sort(runs)
			return runs[1]
		}
		b.Run(srv.name+"/slowest_alone", func(b *testing.B) {
			for b.Loop() {
				timedProbe(b, srv.command, 1, delay)
			}
		})
		b.Run(srv.name+"/20_servers", func(b *testing.B) {
			single := alone()
			var total time.Duration
			n := 0
			for b.Loop() {
				total += timedProbe(b, srv.command, 20, delay)
				n++
			}
			b.ReportMetric(float64(total/time.Duration(n))/float64(single), "x_slowest")
		})
		b.Run(srv.name+"/20_servers_serial", func(b *testing.B) {
			for b.Loop() {
				timedProbe(b, srv.command, 20, delay, "--jobs", "1")
			}
		})
	}
}

// spec: U7 — probe of many servers shows progress on a terminal only: on a terminal's
// stderr "probe: N/M servers" is drawn (after a short delay) and erased before the
// results; stdout is unchanged. With --json, or when stderr is a pipe, nothing is
// drawn.
func TestProbeProgressOnTerminalOnly(t *testing.T) {
	servers, profiles, want := slowServers("mcptest", 3, 400*time.Millisecond)
	t.Run("terminal", func(t *testing.T) {
		tty, output := ptyCapture(t)
		code, out := probeRunTo(t, tty, servers, profiles, nil, "--profile", "big")
		drawn := output()
		if code != 0 || out != want {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		if !strings.Contains(drawn, "\rprobe: 0/3 servers") || !strings.HasSuffix(drawn, "\r") {
			t.Errorf("terminal shows %q, want progress drawn and erased", drawn)
		}
		if last := drawn[strings.LastIndex(strings.TrimSuffix(drawn, "\r"), "\r")+1:]; strings.TrimSpace(last) != "" {
			t.Errorf("progress left on the line: %q", last)
		}
	})
	t.Run("terminal with --json", func(t *testing.T) {
		tty, output := ptyCapture(t)
		code, out := probeRunTo(t, tty, servers, profiles, nil, "--profile", "big", "--json")
		if drawn := output(); code != 0 || drawn != "" || !strings.HasPrefix(out, "[") {
			t.Errorf("exit %d, terminal shows %q, stdout %q", code, drawn, out)
		}
	})
	t.Run("pipe", func(t *testing.T) {
		w, output := pipeCapture(t)
		code, out := probeRunTo(t, w, servers, profiles, nil, "--profile", "big")
		if drawn := output(); code != 0 || out != want || drawn != "" {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, drawn)
		}
	})
}
