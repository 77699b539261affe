// Command execbench measures what mcpwire exec adds to a server's start (issue 28):
// each round starts, in turn, "env K=V /bin/true" (the baseline: a variable set and
// the program started), "mcpwire exec --env-secret K=file:F -- /bin/true" (a store
// with no program of its own), and, when PASS_REF is set, "pass show P" (the store's
// own time) and "mcpwire exec --env-secret K=pass:P -- /bin/true". The rounds are
// interleaved, each starting at the next command, so that a load that comes and goes
// weighs on every command alike and none always runs right after the same other.
//
// Usage: execbench MCPWIRE SECRET_FILE RUNS (PASS_REF=pass:P in the environment for
// the pass rows).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: execbench MCPWIRE SECRET_FILE RUNS")
		os.Exit(2)
	}
	bin, file := os.Args[1], os.Args[2]
	runs, _ := strconv.Atoi(os.Args[3])
	rows := []struct {
		name string
		argv []string
	}{
		{"env K=V /bin/true", []string{"env", "K=V", "/bin/true"}},
		{"mcpwire exec file: -- /bin/true", []string{bin, "exec", "--env-secret", "K=file:" + file, "--", "/bin/true"}},
	}
	if ref := os.Getenv("PASS_REF"); ref != "" {
		rows = append(rows,
			struct {
				name string
				argv []string
			}{"pass show (the store alone)", []string{"pass", "show", strings.TrimPrefix(ref, "pass:")}},
			struct {
				name string
				argv []string
			}{"mcpwire exec pass: -- /bin/true", []string{bin, "exec", "--env-secret", "K=" + ref, "--", "/bin/true"}})
	}
	times := make([][]time.Duration, len(rows))
	for r := 0; r <= runs; r++ {
		// each round starts at another command, so that no command always follows
		// the same one (pass show right before exec pass: would find gpg-agent busy)
		for j := range rows {
			i := (r + j) % len(rows)
			row := rows[i]
			cmd := exec.Command(row.argv[0], row.argv[1:]...)
			t0 := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n%s", row.name, err, out)
				os.Exit(1)
			}
			if r > 0 { // the first round warms the page cache
				times[i] = append(times[i], time.Since(t0))
			}
		}
	}
	med := make([]time.Duration, len(rows))
	for i, row := range rows {
		slices.Sort(times[i])
		med[i] = times[i][len(times[i])/2]
		fmt.Printf("%-34s min %6.2f ms  median %6.2f ms  p90 %6.2f ms\n", row.name, ms(times[i][0]), ms(med[i]), ms(times[i][len(times[i])*9/10]))
	}
	fmt.Printf("exec adds (median, file: store) %.2f ms over env (bound: 10 ms)\n", ms(med[1]-med[0]))
	if len(rows) == 4 {
		fmt.Printf("exec adds (median, pass: store, its own time taken off) %.2f ms over env (bound: 10 ms)\n", ms(med[3]-med[2]-med[0]))
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
