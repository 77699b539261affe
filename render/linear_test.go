package render_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/inspect"
	"go.yaml.in/yaml/v3"
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

// BenchmarkReadSide: status and audit over 20,000 entries of the project's .mcp.json
// (three clients read it), as bench/hostile.sh runs them over 200,000 (K7).
func BenchmarkReadSide(b *testing.B) {
	w := newWorld(b)
	clientFileOf(w, "json", 20000)
	reg := w.registry()
	env := w.env
	var ps []*providers.Provider
	for _, name := range []string{"claude-code", "copilot-cli", "qoder"} {
		ps = append(ps, w.provider(name))
	}
	for _, what := range []string{"status", "audit"} {
		b.Run(what, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if what == "status" {
					inspect.Status(fsys.NewOS(), inspect.StatusRequest{Registry: reg, Providers: ps, Env: env, Getenv: env.Getenv})
				} else {
					inspect.Audit(fsys.NewOS(), inspect.AuditRequest{Registry: reg, Providers: ps, Env: env, GOOS: env.GOOS})
				}
			}
		})
	}
}

// BenchmarkStatusGoose: status of a 1.5 MB Goose config.yaml (K7: under 200 ms), and
// go.yaml.in/yaml/v3's own parse of it, the floor.
func BenchmarkStatusGoose(b *testing.B) {
	w := newWorld(b)
	path := clientFileOf(w, "yaml", 16000)
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	reg := w.registry()
	ps := []*providers.Provider{w.provider("goose")}
	b.Run("yaml.v3", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			var n yaml.Node
			if err := yaml.Unmarshal(src, &n); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("status", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			inspect.Status(fsys.NewOS(), inspect.StatusRequest{Registry: reg, Providers: ps, Env: w.env, Getenv: w.env.Getenv})
		}
	})
}

// perEntry is allocations per entry read.
func perEntry(count uint64, entries int) float64 { return float64(count) / float64(entries) }

// spec: K7
// TestReadSideAllocationBounds bounds the work of each entry of a large project
// .mcp.json, which three clients read (Claude Code, Copilot CLI, Qoder), by the
// allocations made for it: status reads each entry back once per client, and lists
// and digests it once for all three; audit checks a file once, so reads it back once,
// whichever clients read it; import reads each entry back, checks it and adds it to
// the registry. 2,000 entries; bench/hostile.sh times 200,000.
func TestReadSideAllocationBounds(t *testing.T) {
	const n = 2000
	w := newWorld(t)
	clientFileOf(w, "json", n)
	reg := w.registry()
	env := w.env
	claude := w.provider("claude-code")
	three := []*providers.Provider{claude, w.provider("copilot-cli"), w.provider("qoder")}
	status, _ := allocsOf(func() {
		inspect.Status(fsys.NewOS(), inspect.StatusRequest{Registry: reg, Providers: three, Env: env, Getenv: env.Getenv})
	})
	audit3, _ := allocsOf(func() {
		inspect.Audit(fsys.NewOS(), inspect.AuditRequest{Registry: reg, Providers: three, Env: env, GOOS: env.GOOS})
	})
	audit1, _ := allocsOf(func() {
		inspect.Audit(fsys.NewOS(), inspect.AuditRequest{Registry: reg, Providers: three[:1], Env: env, GOOS: env.GOOS})
	})
	var imported int
	imp, _ := allocsOf(func() {
		files, errs := render.ClientFiles(fsys.NewOS(), three[:1], env, w.layer)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		res, err := inspect.Import(fsys.NewOS(), inspect.ImportRequest{Registry: reg, Files: files})
		if err != nil {
			t.Fatal(err)
		}
		imported = len(res.Added)
	})
	if imported != n {
		t.Fatalf("%d servers imported, for %d", imported, n)
	}
	t.Logf("allocations per entry: status %.1f (per client %.1f), audit %.1f (one client %.1f), import %.1f",
		perEntry(status, n), perEntry(status, 3*n), perEntry(audit3, n), perEntry(audit1, n), perEntry(imp, n))
	for _, c := range []struct {
		what  string
		got   float64
		bound float64
	}{
		{"status, per entry and client", perEntry(status, 3*n), 28}, // 77 before (K7), 29 with every entry's own reading and blocker lists; 23 now (27 on Windows)
		{"audit, per entry", perEntry(audit3, n), 1.25 * perEntry(audit1, n)},
		{"audit of one client's file, per entry", perEntry(audit1, n), 95}, // 125 when the checks sorted and walked empty maps
		{"import, per entry", perEntry(imp, n), 53},                        // 156 before, 93 with the clones through JSON (K7); 70 (74 on Windows), with the copied credentials counted in Import and servers encoded field by field; 57 with the servers handed over as a slice, kept instead of decoded again, the entries read not cloned and plain declarations checked without sets; 48 with the servers kept, not copied, their entries encoded into shared chunks, and the credential checks allocating nothing for a plain server
	} {
		if c.got > c.bound {
			t.Errorf("%s: %.1f allocations, at most %.1f", c.what, c.got, c.bound)
		}
	}
}

// spec: K7
// TestImportAdoptLooksEntriesUp: import --adopt and --as-profile look up each entry
// of a file by name (whether mcpwire would write it as it is, its record, its
// filters): a constant number of steps each, not a scan of the file (n² steps for
// 200,000 entries).
func TestImportAdoptLooksEntriesUp(t *testing.T) {
	const n = 3000
	w := newWorld(t)
	clientFileOf(w, "json", n)
	reg := w.registry()
	files, errs := render.ClientFiles(fsys.NewOS(), []*providers.Provider{w.provider("claude-code")}, w.env, w.layer)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	steps := 0
	stop := render.CountEntrySteps(&steps)
	res, err := inspect.Import(fsys.NewOS(), inspect.ImportRequest{Registry: reg, Files: files, Adopt: true, Profile: "imported"})
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || len(res.Files[0].Adopted) != n {
		t.Fatalf("adopted %v", res.Files)
	}
	if steps > 6*n {
		t.Errorf("import --adopt --as-profile of %d entries looked at entries %d times, at most %d", n, steps, 6*n)
	}
}

// spec: K7
// TestStatusGooseAllocations: status of a large Goose config.yaml allocates little more
// than go.yaml.in/yaml/v3's own parse of it, the floor of reading it (bench/hostile.sh
// times a 1.5 MB one: K7 asks for 200 ms).
func TestStatusGooseAllocations(t *testing.T) {
	w := newWorld(t)
	path := clientFileOf(w, "yaml", 3000)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	reg := w.registry()
	ps := []*providers.Provider{w.provider("goose")}
	var files []inspect.StatusFile
	status, statusBytes := allocsOf(func() {
		files = inspect.Status(fsys.NewOS(), inspect.StatusRequest{Registry: reg, Providers: ps, Env: w.env, Getenv: w.env.Getenv})
	})
	floor, floorBytes := allocsOf(func() {
		var n yaml.Node
		if err := yaml.Unmarshal(src, &n); err != nil {
			t.Fatal(err)
		}
	})
	if len(files) != 1 || len(files[0].Entries) != 3000 {
		t.Fatalf("status: %+v", files)
	}
	t.Logf("status %d allocations, %d bytes; yaml.v3's parse %d, %d: %.2f×, %.2f×", status, statusBytes, floor, floorBytes,
		float64(status)/float64(floor), float64(statusBytes)/float64(floorBytes))
	// 2.4× when entries were encoded by reflection (K7); 1.74×, and 1.86× the bytes,
	// once each entry read back was no longer a copy of the document's (View), a
	// mapping was built without a second map of its keys' lines and the names were
	// listed at their size (2.04× the bytes before); 1.45× and 1.46× once the
	// entries were read from yaml.v3's tree, the document's data not built (its
	// checks made on the tree, yamledit.checkData) and each entry's JSON written
	// from its nodes into shared blocks
	if float64(status) > 1.55*float64(floor) {
		t.Errorf("status of a Goose file: %d allocations, more than 1.55 × yaml.v3's parse (%d)", status, floor)
	}
	if float64(statusBytes) > 1.6*float64(floorBytes) {
		t.Errorf("status of a Goose file: %d bytes allocated, more than 1.6 × yaml.v3's parse (%d)", statusBytes, floorBytes)
	}
}

// spec: K7
// TestLiteralCredentialsOfAPlainServer: import checks each server it added for
// literal credentials (H4); a server of a command and arguments, as most of 200,000
// imported are, is checked with a few allocations (30 when each empty map was
// sorted and walked).
func TestLiteralCredentialsOfAPlainServer(t *testing.T) {
	s := &registry.Server{Name: "s1", Command: "npx", Args: []string{"-y", "@scope/server"}}
	n := testing.AllocsPerRun(100, func() {
		if vs := inspect.LiteralCredentials(s); len(vs) != 0 {
			t.Fatalf("%v", vs)
		}
	})
	if n > 3 { // 8 when policy.Check's closures took its fields to the heap
		t.Errorf("LiteralCredentials of a plain server: %v allocations, at most 3", n)
	}
}
