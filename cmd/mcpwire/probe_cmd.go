package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/registry"
	"github.com/urfave/cli/v2"
)

func probeCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:  "probe",
		Usage: "start each server (stdio) or connect to it (http, sse), list its tools, and check the tool filters against them",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "profile", Usage: "probe a profile's servers (__all__ = every server)"},
			listFlag("servers", "servers to probe (comma list or repeat)"),
			&cli.DurationFlag{Name: "timeout", Value: 10 * time.Second, Usage: "time each server has to start, initialize and list its tools"},
			&cli.StringFlag{Name: "provider", Usage: "also check this provider's tool filters (default: key * only)"},
			&cli.BoolFlag{Name: "strict", Usage: "exit 1 when a tool filter pattern matches no tool of a server that answered"},
			&cli.StringFlag{Name: "project", Usage: "project directory for ${project} and default working directory (default: the git work tree holding the current directory, else the current directory)"},
			&cli.IntFlag{Name: "jobs", Value: probeJobs, Usage: "how many servers to probe at once"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error { return runProbe(env, c) },
	}
}

func runProbe(env *Env, c *cli.Context) error {
	if err := exactArgs(c, 0, ""); err != nil {
		return err
	}
	timeout := c.Duration("timeout")
	if timeout <= 0 {
		return usagef("--timeout must be positive, not %s", timeout)
	}
	jobs := c.Int("jobs")
	if jobs < 1 {
		return usagef("--jobs must be at least 1, not %d", jobs)
	}
	keys := []string{registry.AllProviders}
	if name := c.String("provider"); name != "" && name != registry.AllProviders {
		p, err := provider(name)
		if err != nil {
			return err
		}
		keys = append(keys, p.Name)
	}
	reg, err := env.registry()
	if err != nil {
		return err
	}
	names, filters, profile, err := selection(c, reg, true)
	if err != nil {
		return err
	}
	servers, err := reg.Lookup(names, profile, nil)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := env.startProgress("probe", "servers", len(servers), c.Bool("json"))
	results := probeAll(ctx, env, servers, projectDir(env, c), timeout, jobs, prog.step)
	prog.end()

	if err := printProbe(env, results, c.Bool("json")); err != nil {
		return err
	}
	issues := filterWarnings(filters, keys, names, results)
	for _, is := range issues {
		env.warn(is.warning)
	}
	var failed []string
	for _, r := range results {
		if r.Error != "" {
			failed = append(failed, r.Server)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("probe failed for %d of %d servers: %s", len(failed), len(results), strings.Join(failed, ", "))
	}
	if c.Bool("strict") && len(issues) > 0 {
		return strictError(issues, profile)
	}
	return nil
}

// strictError is probe --strict's refusal (U8): the patterns that match no tool.
func strictError(issues []filterIssue, profile string) error {
	quoted := make([]string, len(issues))
	for i, is := range issues {
		quoted[i] = fmt.Sprintf("%q", is.pattern)
	}
	name := profile
	if name == "" || name == registry.AllServers {
		name = "PROFILE"
	}
	return withHint(fmt.Errorf("probe --strict: tool filter patterns that match no tool: %s", strings.Join(quoted, ", ")),
		"the tools of each server are listed above; correct the patterns with mcpwire profile edit "+name+" --clear-tool-filters, then --tool-deny/--tool-allow SERVER__TOOL")
}

// printProbe prints each server's tools or error, or the results as JSON.
func printProbe(env *Env, results []probeResult, asJSON bool) error {
	if asJSON {
		return writeJSON(env.Stdout, results)
	}
	if len(results) == 0 {
		printf(env.Stdout, "no servers to probe\n")
	}
	for _, r := range results {
		switch {
		case r.Error != "":
			printf(env.Stdout, "%s: error: %s\n", r.Server, r.Error)
		case len(r.Tools) == 0:
			printf(env.Stdout, "%s: (no tools)\n", r.Server)
		default:
			printf(env.Stdout, "%s: %s\n", r.Server, strings.Join(r.Tools, ", "))
		}
	}
	return nil
}

// probeJobs is how many servers probe starts at once unless --jobs says otherwise.
// A probe mostly waits (for a process to start, a package runner to fetch, a remote
// server to answer), so a profile of up to 32 servers is probed in one wave and takes
// about as long as its slowest server; more (__all__ of a large registry) queue for a
// slot rather than starting hundreds of processes at once. Each server's --timeout
// starts when its slot does.
const probeJobs = 32

// probeAll probes the servers, at most jobs at a time, started in the order given,
// and returns the results in that order. done is called once per server, as each
// ends.
func probeAll(ctx context.Context, env *Env, servers []*registry.Server, project string, timeout time.Duration, jobs int, done func()) []probeResult {
	results := make([]probeResult, len(servers))
	slots := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, s := range servers {
		sp, err := resolveProbe(s, env.Getenv, project, env.resolveSecret)
		if err != nil {
			results[i] = probeResult{Server: s.Name, Tools: []string{}, Error: err.Error()}
			done()
			continue
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			results[i] = sp.probe(ctx, timeout)
			done()
		})
	}
	wg.Wait()
	return results
}
