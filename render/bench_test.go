package render_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// benchRegistry returns a registry with n stdio servers s0…s(n-1) in dir.
func benchRegistry(b *testing.B, dir string, n int) *registry.Registry {
	b.Helper()
	set, err := layers.Load(fsys.NewOS(), layers.Config{Dirs: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	reg, err := registry.Load(set)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		s := &registry.Server{Name: "s" + itoa(i), Command: "srv", Args: []string{"--n", itoa(i)},
			EnvFrom: map[string]string{"TOKEN": "TOKEN_" + itoa(i)}}
		if err := reg.AddServer(s); err != nil {
			b.Fatal(err)
		}
	}
	return reg
}

func itoa(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }

// spec: Q4 W1 W8
// BenchmarkInjectLargeClaudeJSON injects one server into a 50 MB ~/.claude.json
// (generated like Claude Code's own: a large projects map), alternating servers so
// every iteration rewrites the file: at user scope (the top-level mcpServers), and at
// local scope (V11: the mcpServers of a project halfway through the map).
func BenchmarkInjectLargeClaudeJSON(b *testing.B) {
	home := b.TempDir()
	path := filepath.Join(home, ".claude.json")
	if out, err := exec.Command("go", "run", "../bench/genclaude", "-size", "50", "-out", path).CombinedOutput(); err != nil {
		b.Fatalf("genclaude: %v\n%s", err, out)
	}
	project := filepath.Join(home, "proj")
	if err := os.Mkdir(project, 0o755); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	key := fmt.Sprintf("\"/home/dev/src/project-%06d\": {", strings.Count(string(data), "\"/home/dev/src/project-")/2)
	real, _ := filepath.EvalSymlinks(project)
	data = []byte(strings.Replace(string(data), key, strconv.Quote(real)+": {", 1))
	reg := benchRegistry(b, filepath.Join(home, ".aiwg"), 2)
	p, _ := providers.Get("claude-code")
	for _, scope := range []providers.Scope{providers.User, providers.Local} {
		b.Run(string(scope), func(b *testing.B) {
			if err := os.WriteFile(path, data, 0o600); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := write.Request{Registry: reg, Provider: p, Scope: scope, Project: project, Servers: []string{"s" + itoa(i%2)},
					Env: providers.PathEnv{GOOS: runtime.GOOS, Home: home}, DryRun: true}
				if i%2 == 1 {
					r.Servers = []string{"s00", "s01"}
				}
				if _, err := write.Inject(fsys.NewOS(), r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// spec: Q4 C5
// BenchmarkEphemeral20 renders a 20-server profile to a standalone Claude config.
func BenchmarkEphemeral20(b *testing.B) {
	dir := b.TempDir()
	reg := benchRegistry(b, filepath.Join(dir, ".aiwg"), 20)
	p, _ := providers.Get("claude-code")
	var names []string
	for i := 0; i < 20; i++ {
		names = append(names, "s"+itoa(i))
	}
	out := filepath.Join(dir, "run.json")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := write.Request{Registry: reg, Provider: p, Project: dir, Servers: names,
			Env: providers.PathEnv{GOOS: runtime.GOOS, Home: dir}}
		if _, err := write.Ephemeral(fsys.NewOS(), r, out); err != nil {
			b.Fatal(err)
		}
	}
}

// codexBenchWorld is a registry layer with n stdio servers c0…c(n-1), written as one file
// (adding them one by one would rewrite the layer n times), and a home for Codex.
func codexBenchWorld(b *testing.B, n int) (*registry.Registry, string, []string) {
	b.Helper()
	home := b.TempDir()
	layer := filepath.Join(home, ".aiwg")
	if err := os.MkdirAll(layer, 0o700); err != nil {
		b.Fatal(err)
	}
	var names []string
	var sb strings.Builder
	sb.WriteString(`{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {`)
	for i := 0; i < n; i++ {
		name := "c" + strconv.Itoa(i)
		names = append(names, name)
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `%q: {"name": %q, "type": "stdio", "command": "srv", "args": ["--n", "%d"], "envFrom": {"TOKEN_%d": "TOKEN_%d"}}`, name, name, i, i, i)
	}
	sb.WriteString("}}\n")
	if err := os.WriteFile(filepath.Join(layer, "mcp-servers.json"), []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	reg, err := registry.Open(fsys.NewOS(), layers.Config{Dirs: []string{layer}})
	if err != nil {
		b.Fatal(err)
	}
	return reg, home, names
}

// spec: Q4 W1
// BenchmarkInjectCodexTOML injects n servers into an empty ~/.codex/config.toml. Before,
// every table edit re-parsed and re-verified the whole document, so the time grew with
// the square of the servers (issue 11: 1,000 took 4.1 s, 4,000 took 153 s). Now the edits
// are one tomledit.Apply, parsed and verified once, and the strict parse is tomledit.Decode,
// whose key tracker is a tree of hash maps: go-toml's, which searched sibling tables
// linearly, made 16,000 servers quadratic again (SeenTracker.find was 44% of the profile).
//
// Bound: 4,000 servers under 1 s. Measured (-benchtime 3x, on a 2-core machine whose load
// makes wall time noisy), go-toml's decode → tomledit.Decode: 1,000 ≈ 44 → 38 ms (cpu
// 39 → 50 ms), 4,000 ≈ 247 → 135 ms (cpu 175 → 189 ms), 16,000 ≈ 1.16 s → 0.62-0.72 s
// (cpu 1.08 s → 0.69-0.78 s). 16 times the servers now take 16-19 times as long (cpu 15);
// with go-toml's decode, 26 (cpu 28).
func BenchmarkInjectCodexTOML(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			reg, home, names := codexBenchWorld(b, n)
			p, _ := providers.Get("codex")
			cfg := filepath.Join(home, ".codex", "config.toml")
			var cpu time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				os.RemoveAll(filepath.Join(home, ".codex"))
				os.RemoveAll(filepath.Join(home, ".aiwg", render.OwnershipDir))
				b.StartTimer()
				c0 := cpuTime()
				r := write.Request{Registry: reg, Provider: p, Scope: providers.User, Project: home, Servers: names,
					Env: providers.PathEnv{GOOS: runtime.GOOS, Home: home}, DryRun: true}
				if _, err := write.Inject(fsys.NewOS(), r); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
			}
			b.StopTimer()
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			if fi, err := os.Stat(cfg); err != nil || fi.Size() == 0 {
				b.Fatalf("no config written: %v", err)
			}
		})
	}
}
