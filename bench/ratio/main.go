// Command ratio times whole processes against a yardstick in one run: each round
// starts every command once, in turn, beginning at another command each round, so
// that a load that comes and goes weighs on every command alike; it prints each
// command's median and its ratio to the first command's median (the yardstick). The
// first round warms the page cache and is not counted. Used by bench/startup.sh and
// bench/server-list.sh.
//
// Usage: ratio RUNS 'LABEL=ARGV...' 'LABEL=ARGV...'... — the first is the yardstick;
// ARGV is split at spaces (no quoting), and the command's output is discarded.
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

type row struct {
	label string
	argv  []string
	times []time.Duration
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: ratio RUNS 'LABEL=ARGV...' 'LABEL=ARGV...'...")
		os.Exit(2)
	}
	runs, err := strconv.Atoi(os.Args[1])
	if err != nil || runs < 1 {
		fail(fmt.Errorf("runs: %q", os.Args[1]))
	}
	var rows []*row
	for _, a := range os.Args[2:] {
		label, cmd, ok := strings.Cut(a, "=")
		if !ok || strings.TrimSpace(cmd) == "" {
			fail(fmt.Errorf("not LABEL=ARGV: %q", a))
		}
		rows = append(rows, &row{label: label, argv: strings.Fields(cmd)})
	}
	for r := 0; r <= runs; r++ {
		for j := range rows {
			x := rows[(r+j)%len(rows)]
			cmd := exec.Command(x.argv[0], x.argv[1:]...)
			t0 := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				fail(fmt.Errorf("%s: %v\n%s", x.label, err, out))
			}
			if r > 0 {
				x.times = append(x.times, time.Since(t0))
			}
		}
	}
	base := median(rows[0].times)
	for _, x := range rows {
		m := median(x.times)
		fmt.Printf("%-44s median %7.2f ms  min %7.2f ms  %5.2f× %s\n", x.label, ms(m), ms(x.times[0]), float64(m)/float64(base), rows[0].label)
	}
}

// median sorts ds and returns its middle value.
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ratio:", err)
	os.Exit(1)
}
