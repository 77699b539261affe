package render_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/inspect"
)

// clientFileOf writes a client file of n entries in one of the formats: the project's
// .mcp.json (three clients read it), a Goose config.yaml (a mapping), a Continue
// config.yaml (a list), a Codex config.toml.
func clientFileOf(w *world, format string, n int) string {
	var b strings.Builder
	var path string
	switch format {
	case "json":
		path = filepath.Join(w.project, ".mcp.json")
		b.WriteString("{\"mcpServers\": {\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `  "s%d": {"command": "x", "args": ["-y", "p%d"], "env": {"A": "b"}}`, i, i)
		}
		b.WriteString("\n}}\n")
	case "yaml":
		path = w.dest(w.provider("goose"), providers.User) // ~/.config/goose, %APPDATA%\Block\goose\config
		b.WriteString("# goose\nGOOSE_MODE: auto\nextensions:\n")
		for i := range n {
			fmt.Fprintf(&b, "  s%d:\n    type: stdio\n    name: s%d\n    enabled: true\n    cmd: x\n    args: [\"-y\", \"p%d\"]\n    envs: {}\n", i, i, i)
		}
	case "yaml list":
		path = filepath.Join(w.home, ".continue", "config.yaml")
		b.WriteString("name: Main Config\nversion: 0.0.1\nschema: v1\nmcpServers:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - name: s%d\n    command: x\n    args: [\"-y\", \"p%d\"]\n", i, i)
		}
	case "toml":
		path = filepath.Join(w.home, ".codex", "config.toml")
		b.WriteString("model = \"o3\"\n")
		for i := range n {
			fmt.Fprintf(&b, "\n[mcp_servers.s%d]\ncommand = \"x\"\nargs = [\"-y\", \"p%d\"]\n", i, i)
		}
	}
	w.place(path, []byte(b.String()))
	return path
}

// allocsOf is how many allocations fn makes, and how many bytes.
func allocsOf(fn func()) (count, bytes uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// spec: K7 K3
// TestReadSideIsLinear: status, audit and reading every client file for import over
// 8 times the entries allocate at most 9 times as much, in every format (a YAML
// mapping of n entries cost goccy/go-yaml n² copies; a quadratic step anywhere shows
// here as it grows). The CPU side of it (the look-ups of each entry) is counted in
// internal/jsonc's TestLookupsAndInsertionsAreLinear; bench/hostile.sh times 200,000
// entries.
func TestReadSideIsLinear(t *testing.T) {
	for _, format := range []string{"json", "yaml", "yaml list", "toml"} {
		var counts, sizes [2]uint64
		for k, n := range []int{1000, 8000} {
			w := newWorld(t)
			clientFileOf(w, format, n)
			reg := w.registry()
			env := w.env
			var ps []*providers.Provider
			for _, name := range []string{"claude-code", "copilot-cli", "qoder", "goose", "continue", "codex"} {
				ps = append(ps, w.provider(name))
			}
			entries := 0
			counts[k], sizes[k] = allocsOf(func() {
				files := inspect.Status(fsys.NewOS(), inspect.StatusRequest{Registry: reg, Providers: ps, Env: env, Getenv: env.Getenv})
				for _, f := range files {
					entries += len(f.Entries)
				}
				inspect.Audit(fsys.NewOS(), inspect.AuditRequest{Registry: reg, Providers: ps, Env: env, GOOS: env.GOOS})
				files2, _ := render.ClientFiles(fsys.NewOS(), ps, env, w.layer)
				for _, f := range files2 {
					entries += len(f.Entries)
				}
			})
			readers := 1
			if format == "json" {
				readers = 3 // Claude Code, Copilot CLI, Qoder
			}
			if entries != 2*readers*n {
				t.Fatalf("%s: %d entries read, for %d", format, entries, n)
			}
		}
		t.Logf("%s: 1,000 entries %d allocations (%d KB), 8,000: %d (%d KB)", format, counts[0], sizes[0]>>10, counts[1], sizes[1]>>10)
		if counts[1] > 9*counts[0] || sizes[1] > 9*sizes[0] {
			t.Errorf("%s: 8 times the entries take %.1f times the allocations, %.1f times the bytes", format,
				float64(counts[1])/float64(counts[0]), float64(sizes[1])/float64(sizes[0]))
		}
	}
}
