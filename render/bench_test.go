package render_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/fsys"
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
// every iteration rewrites the file.
func BenchmarkInjectLargeClaudeJSON(b *testing.B) {
	home := b.TempDir()
	path := filepath.Join(home, ".claude.json")
	if out, err := exec.Command("go", "run", "../bench/genclaude", "-size", "50", "-out", path).CombinedOutput(); err != nil {
		b.Fatalf("genclaude: %v\n%s", err, out)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	reg := benchRegistry(b, filepath.Join(home, ".aiwg"), 2)
	p, _ := providers.Get("claude-code")
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := render.Request{Registry: reg, Provider: p, Scope: providers.User, Project: home, Servers: []string{"s" + itoa(i%2)},
			Env: providers.PathEnv{GOOS: runtime.GOOS, Home: home}, DryRun: true}
		if i%2 == 1 {
			r.Servers = []string{"s00", "s01"}
		}
		if _, err := render.Inject(fsys.NewOS(), r); err != nil {
			b.Fatal(err)
		}
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
		r := render.Request{Registry: reg, Provider: p, Project: dir, Servers: names,
			Env: providers.PathEnv{GOOS: runtime.GOOS, Home: dir}}
		if _, err := render.Ephemeral(fsys.NewOS(), r, out); err != nil {
			b.Fatal(err)
		}
	}
}
