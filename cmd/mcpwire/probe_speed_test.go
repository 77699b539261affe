package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// slowServers returns a registry of n stdio test servers s01, s02, … that each wait
// delay before answering, and a profile "big" holding them in reverse order (output
// must follow the profile, not the order servers finish in), and the expected output.
func slowServers(n int, delay time.Duration) (servers, profiles, want string) {
	var entries, names []string
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("s%02d", i)
		entries = append(entries, fmt.Sprintf(`%q: {"name":%q,"type":"stdio","command":"mcptest","args":["-delay",%q,"-tools","t_%s"]}`, name, name, delay, name))
		names = append(names, name)
	}
	slices.Reverse(names)
	var out strings.Builder
	for _, name := range names {
		fmt.Fprintf(&out, "%s: t_%s\n", name, name)
	}
	return "{" + strings.Join(entries, ",") + "}", `{"big": {"name":"big","servers":["` + strings.Join(names, `","`) + `"]}}`, out.String()
}

// timedProbe probes the profile of slowServers(n, delay) and returns the wall time.
func timedProbe(tb testing.TB, n int, delay time.Duration, args ...string) time.Duration {
	tb.Helper()
	servers, profiles, want := slowServers(n, delay)
	start := time.Now()
	code, out, errOut := probeRun(tb, servers, profiles, nil, append([]string{"--profile", "big"}, args...)...)
	elapsed := time.Since(start)
	if code != 0 || out != want || errOut != "" {
		tb.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out, want, errOut)
	}
	return elapsed
}

// Issue 14, Speed: the servers of a profile are started at once, so 20 servers that
// each wait 200 ms before answering are probed in well under 2 s (one after another
// they take over 4 s); the output keeps the profile's order.
func TestProbeStartsServersConcurrently(t *testing.T) {
	if elapsed := timedProbe(t, 20, 200*time.Millisecond); elapsed >= 2*time.Second {
		t.Errorf("probing 20 servers of 200 ms took %s, want < 2s", elapsed)
	}
}

// --jobs bounds how many servers run at once: with --jobs 1, three servers of 300 ms
// take at least 900 ms.
func TestProbeJobsBound(t *testing.T) {
	if elapsed := timedProbe(t, 3, 300*time.Millisecond, "--jobs", "1"); elapsed < 900*time.Millisecond {
		t.Errorf("3 servers of 300 ms with --jobs 1 took %s: not one at a time", elapsed)
	}
	code, _, errOut := probeRun(t, `{}`, "", nil, "--servers", "x", "--jobs", "0")
	if code != 2 || !strings.Contains(errOut, "--jobs must be at least 1, not 0") {
		t.Errorf("--jobs 0: exit %d, stderr %q", code, errOut)
	}
}

// BenchmarkProbeConcurrent probes a profile of 20 stdio test servers that each wait
// 200 ms before answering (issue 14, Speed).
//
// Bound: the 20-server probe takes at most 1.5× the time of probing the slowest
// server alone (its start, the 200 ms wait, initialize and tools/list). The
// 20_servers case reports the ratio as x_slowest; 20_servers_serial (--jobs 1) shows
// what one server at a time would cost.
func BenchmarkProbeConcurrent(b *testing.B) {
	const delay = 200 * time.Millisecond
	alone := func() time.Duration {
		runs := []time.Duration{timedProbe(b, 1, delay), timedProbe(b, 1, delay), timedProbe(b, 1, delay)}
		slices.Sort(runs)
		return runs[1]
	}
	b.Run("slowest_alone", func(b *testing.B) {
		for b.Loop() {
			timedProbe(b, 1, delay)
		}
	})
	b.Run("20_servers", func(b *testing.B) {
		single := alone()
		var total time.Duration
		n := 0
		for b.Loop() {
			total += timedProbe(b, 20, delay)
			n++
		}
		b.ReportMetric(float64(total/time.Duration(n))/float64(single), "x_slowest")
	})
	b.Run("20_servers_serial", func(b *testing.B) {
		for b.Loop() {
			timedProbe(b, 20, delay, "--jobs", "1")
		}
	})
}

// spec: U7 — probe of many servers shows progress on a terminal only: on a terminal's
// stderr "probe: N/M servers" is drawn (after a short delay) and erased before the
// results; stdout is unchanged. With --json, or when stderr is a pipe, nothing is
// drawn.
func TestProbeProgressOnTerminalOnly(t *testing.T) {
	servers, profiles, want := slowServers(3, 400*time.Millisecond)
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
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		code, out := probeRunTo(t, w, servers, profiles, nil, "--profile", "big")
		w.Close()
		drawn, _ := io.ReadAll(r)
		if code != 0 || out != want || len(drawn) > 0 {
			t.Errorf("exit %d, stdout %q, stderr %q", code, out, drawn)
		}
	})
}
