// Command every times issue 13's case as a user meets it: one whole `mcpwire inject`
// process writing a 20-server profile into every provider that has a destination
// (--provider repeated), fresh (no client file, record or receipt yet) and with
// everything up to date. Beside it, on the same filesystem, it times what any
// crash-safe fresh write of those files costs at least (the floor: the directories
// created, each file written to a temporary file, fsynced and renamed, the
// directories fsynced) and the start of a process that does nothing (/bin/true), so
// that mcpwire's own share can be read off on any machine, and the page faults of the
// mcpwire runs (median; its `git` child included), which a virtual machine may charge
// more for than for the work itself. Run by bench/every.sh.
//
// Usage: every MCPWIRE DIR RUNS
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: every MCPWIRE DIR RUNS")
		os.Exit(2)
	}
	bin, dir := os.Args[1], os.Args[2]
	var runs int
	if _, err := fmt.Sscan(os.Args[3], &runs); err != nil || runs < 1 {
		fail(fmt.Errorf("runs: %q", os.Args[3]))
	}
	args, err := providerArgs(bin)
	fail(err)
	var fresh, upToDate, floor, start []time.Duration
	var freshFaults, upFaults []int64
	files := 0
	for range runs {
		w := filepath.Join(dir, "world")
		fail(setup(w))
		d, f := timed(inject(bin, w, args))
		fresh, freshFaults = append(fresh, d), append(freshFaults, f)
		d, f = timed(inject(bin, w, args))
		upToDate, upFaults = append(upToDate, d), append(upFaults, f)
		n, d, err := floorRun(filepath.Join(dir, "floor"), w)
		fail(err)
		files, floor = n, append(floor, d)
		d, _ = timed(exec.Command("/bin/true"))
		start = append(start, d)
	}
	fmt.Printf("%d providers × 20 servers, %d runs in %s\n", len(args)/2, runs, dir)
	show := func(what string, ds []time.Duration, faults []int64) {
		slices.Sort(ds)
		fmt.Printf("%-44s best %6.1f ms  median %6.1f ms", what, ms(ds[0]), ms(ds[len(ds)/2]))
		if len(faults) > 0 {
			slices.Sort(faults)
			fmt.Printf("  %d page faults", faults[len(faults)/2])
		}
		fmt.Println()
	}
	show("mcpwire inject, fresh write", fresh, freshFaults)
	show("mcpwire inject, everything up to date", upToDate, upFaults)
	show(fmt.Sprintf("floor: %d files written durably, fresh", files), floor, nil)
	show("starting /bin/true", start, nil)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "every:", err)
		os.Exit(1)
	}
}

// timed runs cmd and returns its wall time and the minor page faults of the process
// and its children (a fresh process's pages cost more than its work on some virtual
// machines: docs/performance.md); a failure ends the program.
func timed(cmd *exec.Cmd) (time.Duration, int64) {
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(t0)
	if err != nil {
		fail(fmt.Errorf("%s: %v\n%s", cmd, err, out))
	}
	return d, minorFaults(cmd.ProcessState)
}

// providerArgs returns --provider NAME for every provider with a destination.
func providerArgs(bin string) ([]string, error) {
	out, err := exec.Command(bin, "providers", "--json").Output()
	if err != nil {
		return nil, fmt.Errorf("%s providers --json: %w", bin, err)
	}
	var ps []struct {
		Name         string         `json:"name"`
		Destinations map[string]any `json:"destinations"`
	}
	if err := json.Unmarshal(out, &ps); err != nil {
		return nil, err
	}
	var args []string
	for _, p := range ps {
		if len(p.Destinations) > 0 {
			args = append(args, "--provider", p.Name)
		}
	}
	return args, nil
}

// setup lays out a fresh world under w: HOME, XDG_CONFIG_HOME, a layer with 20
// servers and the profile p20, and a git project ignoring RunWield's file.
func setup(w string) error {
	if err := os.RemoveAll(w); err != nil {
		return err
	}
	for _, d := range []string{"home", "xdg", "layer", "proj"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			return err
		}
	}
	if out, err := exec.Command("git", "-C", filepath.Join(w, "proj"), "init", "-q", ".").CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v\n%s", err, out)
	}
	servers, names := map[string]any{}, []string{}
	for i := range 20 {
		n := fmt.Sprintf("s%02d", i)
		names = append(names, n)
		servers[n] = map[string]any{"name": n, "type": "stdio", "command": "srv", "args": []string{"--n", fmt.Sprint(i)}}
	}
	files := map[string]any{
		"layer/mcp-servers.json":  map[string]any{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": servers},
		"layer/mcp-profiles.json": map[string]any{"apiVersion": "aiwg.io/v1", "kind": "McpProfileRegistry", "profiles": map[string]any{"p20": map[string]any{"name": "p20", "servers": names}}},
		"proj/.gitignore":         nil,
	}
	for name, v := range files {
		data := []byte(".wld/mcp.json\n")
		if v != nil {
			data, _ = json.MarshalIndent(v, "", " ")
		}
		if err := os.WriteFile(filepath.Join(w, name), data, 0o600); err != nil {
			return err
		}
	}
	return exec.Command("sync").Run()
}

// inject is the command of one run in world w.
func inject(bin, w string, providers []string) *exec.Cmd {
	cmd := exec.Command(bin, append([]string{"inject", "--profile", "p20"}, providers...)...)
	cmd.Dir = filepath.Join(w, "proj")
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(w, "home"), "XDG_CONFIG_HOME="+filepath.Join(w, "xdg"),
		"AIWG_CONFIG_LAYERS="+filepath.Join(w, "layer"))
	return cmd
}

// floorRun writes, under dir, as many new directories and files as the fresh inject
// left in world w, durably and as concurrently as mcpwire does, and returns the count
// of files and the time taken.
func floorRun(dir, w string) (int, time.Duration, error) {
	var dirs []string
	var files []string
	var sizes []int64
	err := filepath.Walk(w, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(w, p)
		switch {
		case fi.IsDir() && fi.Name() == ".git":
			return filepath.SkipDir
		case fi.IsDir():
			dirs = append(dirs, rel)
		case rel != filepath.Join("proj", ".gitignore") && filepath.Dir(rel) != "layer" || filepath.Base(rel) == "mcp-servers.json":
			files, sizes = append(files, rel), append(sizes, fi.Size())
		}
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return 0, 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	if err := exec.Command("sync").Run(); err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	for _, d := range dirs[1:] {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return 0, 0, err
		}
	}
	tmps := make([]*os.File, len(files))
	for i, f := range files {
		t, err := os.OpenFile(filepath.Join(dir, f)+".tmp", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return 0, 0, err
		}
		if _, err := t.Write(make([]byte, sizes[i])); err != nil {
			return 0, 0, err
		}
		tmps[i] = t
	}
	each(len(tmps), func(i int) { _ = tmps[i].Sync(); _ = tmps[i].Close() })
	for _, f := range files {
		if err := os.Rename(filepath.Join(dir, f)+".tmp", filepath.Join(dir, f)); err != nil {
			return 0, 0, err
		}
	}
	each(len(dirs), func(i int) {
		if d, err := os.Open(filepath.Join(dir, dirs[i])); err == nil {
			_ = d.Sync()
			_ = d.Close()
		}
	})
	return len(files), time.Since(t0), nil
}

// each runs fn(0) … fn(n-1), 16 at a time (as mcpwire's fsyncs).
func each(n int, fn func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(n, 16) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
