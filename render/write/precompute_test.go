package write

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// preWorld is a HOME with the fixtures' layer and a project, for requests of PrepareAll.
type preWorld struct {
	t             *testing.T
	home, project string
	layer         string
	env           providers.PathEnv
}

func newPreWorld(t *testing.T) *preWorld {
	t.Helper()
	root := t.TempDir()
	w := &preWorld{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "repo")}
	w.layer = filepath.Join(w.home, ".aiwg")
	for _, d := range []string{w.home, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := fixtures.WriteLayer(w.layer); err != nil {
		t.Fatal(err)
	}
	w.env = providers.PathEnv{GOOS: runtime.GOOS, Home: w.home, Project: w.project, Getenv: func(string) string { return "" }}
	return w
}

// requests are project-scope requests writing servers, one per provider.
func (w *preWorld) requests(names []string, servers ...string) []Request {
	w.t.Helper()
	reg, err := registry.Open(fsys.NewOS(), layers.Config{Dirs: []string{w.layer}})
	if err != nil {
		w.t.Fatal(err)
	}
	var out []Request
	for _, n := range names {
		p, ok := providers.Get(n)
		if !ok {
			w.t.Fatalf("no provider %q", n)
		}
		out = append(out, Request{Registry: reg, Provider: p, Scope: providers.Project, Project: w.project,
			Servers: servers, Env: w.env, Warn: func(string) {}})
	}
	return out
}

// inject prepares and commits the requests on f.
func (w *preWorld) inject(f fsys.FS, reqs []Request) []*Prepared {
	w.t.Helper()
	preps, err := PrepareAll(f, reqs)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := Commit(f, preps, false); err != nil {
		w.t.Fatal(err)
	}
	return preps
}

// file is the named client's project file.
func (w *preWorld) file(provider string) string {
	return filepath.Join(w.project, map[string]string{"cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json",
		"roo-code": ".roo/mcp.json", "zoo-code": ".roo/mcp.json", "kiro": ".kiro/settings/mcp.json"}[provider])
}

// onlyOS hides that f is the real filesystem: its reads count as not concurrent.
type onlyOS struct{ fsys.FS }

// spec: W7 W8 C6 V10
// TestPrecomputeComputesOnTheSecondCore: on the real filesystem, PrepareAll computes
// every edit while the later requests are prepared (issue 31) — each edit's memo and
// read are there when it returns, computed once — and the transaction's plan takes
// them: the written files are those of a plan computed in order under the locks (a
// fake filesystem, which keeps every read in one goroutine). Roo Code's file, which
// mcpwire writes for Zoo Code too, is held until every request is prepared: alone,
// and as a chain of two edits when the transaction writes it for both.
func TestPrecomputeComputesOnTheSecondCore(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one core: PrepareAll computes nothing ahead")
	}
	var mu sync.Mutex
	computed := map[string]int{}
	precomputeHook = func(path string) {
		mu.Lock()
		computed[path]++
		mu.Unlock()
	}
	t.Cleanup(func() { precomputeHook = nil })

	for _, c := range []struct {
		name   string
		names  []string
		chains int // edits computed as the later edit of a shared file
	}{
		{"alone", []string{"cursor", "vscode", "roo-code", "kiro"}, 0},
		{"chain", []string{"cursor", "roo-code", "kiro", "zoo-code"}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			results := map[bool]map[string][]byte{}
			for _, real := range []bool{true, false} {
				w := newPreWorld(t)
				var f fsys.FS = fsys.NewOS()
				if !real {
					f = onlyOS{f}
				}
				// Roo Code's file first, so that Zoo Code writes there too (its first candidate)
				w.inject(fsys.NewOS(), w.requests([]string{"roo-code"}, "fetch"))
				clear(computed)
				preps, err := PrepareAll(f, w.requests(c.names, "fetch", "github"))
				if err != nil {
					t.Fatal(err)
				}
				chained := 0
				for _, p := range preps {
					e := p.edit
					if e.before != nil {
						chained++
					}
					switch {
					case real && (e.memo == nil || computed[e.path] != 1): // a chain is computed whole, once
						t.Errorf("%s: not computed ahead once (memo %v, %d times)", e.path, e.memo != nil, computed[e.path])
					case real && e.after == nil && e.preRead == nil:
						t.Errorf("%s: the read is not kept", e.path)
					case !real && e.memo != nil:
						t.Errorf("%s: computed ahead on a filesystem whose reads keep one goroutine", e.path)
					}
				}
				if real && chained != c.chains {
					t.Fatalf("%d edits linked to an earlier one, want %d", chained, c.chains)
				}
				applied := 0
				applyHook = func() { applied++ }
				if err := Commit(f, preps, false); err != nil {
					t.Fatal(err)
				}
				applyHook = nil
				if want := map[bool]int{true: 0, false: len(c.names)}[real]; applied != want {
					t.Errorf("the transaction computed %d edits, want %d", applied, want)
				}
				results[real] = map[string][]byte{}
				for _, n := range c.names {
					data, err := os.ReadFile(w.file(n))
					if err != nil {
						t.Fatal(err)
					}
					results[real][n] = bytes.ReplaceAll(data, []byte(w.project), []byte("@P@"))
				}
			}
			for n, data := range results[false] {
				if !bytes.Equal(results[true][n], data) {
					t.Errorf("%s differs computed ahead:\n%s\nand in order:\n%s", n, results[true][n], data)
				}
			}
		})
	}
}

// spec: W1 W8 C6
// TestPrecomputedFileChangedIsSeen: a client file another program writes after
// PrepareAll computed its edit ahead — the person adds a server of their own — is
// read and computed again by the transaction: their server stays, and mcpwire's are
// written beside it. The same for a file that appears where PrepareAll found none.
func TestPrecomputedFileChangedIsSeen(t *testing.T) {
	w := newPreWorld(t)
	w.inject(fsys.NewOS(), w.requests([]string{"cursor"}, "fetch"))
	preps, err := PrepareAll(fsys.NewOS(), w.requests([]string{"cursor", "kiro"}, "fetch", "github"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range preps {
		if runtime.GOMAXPROCS(0) > 1 && p.edit.memo == nil {
			t.Fatalf("%s: not computed ahead", p.edit.path)
		}
	}
	// the person's own server, added to Cursor's file, and a Kiro file of theirs
	var doc map[string]map[string]any
	data, err := os.ReadFile(w.file("cursor"))
	if err == nil {
		err = json.Unmarshal(data, &doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	doc["mcpServers"]["mine"] = map[string]any{"command": "my-server"}
	data, _ = json.MarshalIndent(doc, "", "  ")
	if err := os.WriteFile(w.file("cursor"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(w.file("kiro")), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.file("kiro"), []byte(`{"mcpServers": {"theirs": {"command": "their-server"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	applied := 0
	applyHook = func() { applied++ }
	defer func() { applyHook = nil }()
	steps := map[string]int{}
	f := fsys.NewOSWith(fsys.OSOptions{AfterStep: func(stage, _ string) { steps[stage]++ }})
	if err := Commit(f, preps, false); err != nil {
		t.Fatal(err)
	}
	if applied != 2 {
		t.Errorf("the transaction computed %d edits, want both again", applied)
	}
	// and nothing was written from the earlier read (a temporary file thrown away)
	if steps["temp"] != steps["rename"] {
		t.Errorf("%d temporary files for %d renames: a file was written from what PrepareAll read", steps["temp"], steps["rename"])
	}
	for file, want := range map[string][]string{w.file("cursor"): {`"mine"`, `"fetch"`, `"github"`},
		w.file("kiro"): {`"theirs"`, `"fetch"`, `"github"`}} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range want {
			if !bytes.Contains(data, []byte(s)) {
				t.Errorf("%s lacks %s:\n%s", file, s, data)
			}
		}
	}
}

// spec: C6 W7
// TestPrecomputeRefusesInRequestOrder: the ownership records are read on the second
// core, and a corrupt one is still refused in its request's turn: before the error
// of a later request, after an earlier one's, with nothing written — as when each
// request was prepared in full before the next.
func TestPrecomputeRefusesInRequestOrder(t *testing.T) {
	w := newPreWorld(t)
	w.inject(fsys.NewOS(), w.requests([]string{"cursor", "kiro"}, "fetch"))
	rec := func(provider string) string {
		edits, err := PrepareAll(onlyOS{fsys.NewOS()}, w.requests([]string{provider}, "fetch"))
		if err != nil {
			t.Fatal(err)
		}
		return edits[0].edit.own.Path
	}
	corrupt := rec("kiro")
	if err := os.WriteFile(corrupt, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		reqs  []Request
		want  string
		wantN string
	}{
		{"corrupt record, then an unknown server", append(w.requests([]string{"cursor", "kiro"}, "github"),
			w.requests([]string{"roo-code"}, "no-such-server")...), "corrupt ownership record", corrupt},
		{"an unknown server, then a corrupt record", append(w.requests([]string{"roo-code"}, "no-such-server"),
			w.requests([]string{"cursor", "kiro"}, "github")...), "no-such-server", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range []fsys.FS{fsys.NewOS(), onlyOS{fsys.NewOS()}} {
				_, err := PrepareAll(f, c.reqs)
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.wantN) {
					t.Errorf("%T: got %v, want %q", f, err, c.want)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Dir(w.file("roo-code"))); !os.IsNotExist(err) {
		t.Errorf("something was written: %v", err)
	}
}
