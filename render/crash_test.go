package render_test

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// crashScenario is one command run on a world (prepared by setup): run runs it on f.
type crashScenario struct {
	name  string
	setup func(t *testing.T, w *world)
	run   func(w *world, f fsys.FS) error
	// pieces: the run edits a JSON client file placed beforehand, which is written in
	// pieces once padded (crashConvergence)
	pieces bool
}

func injectProfile(provider, profile string) func(w *world, f fsys.FS) error {
	return func(w *world, f fsys.FS) error {
		_, err := write.Inject(f, w.request(provider, "", profile))
		return err
	}
}

// claudeProject places Claude Code's project fixtures (a person's servers and rules).
func claudeProject(t *testing.T, w *world) {
	p := w.provider("claude-code")
	w.place(w.dest(p, providers.Project), fixtures.File("claude-code/project.dev.mcp.json"))
	w.place(w.settingsDest(p, providers.Project), fixtures.File("claude-code/project.settings.settings.local.json"))
}

// switchProfiles adds profile b (fewer servers, other rules) after injecting dev.
func switchProfiles(provider string) func(t *testing.T, w *world) {
	return func(t *testing.T, w *world) {
		if provider == "claude-code" {
			claudeProject(t, w)
		}
		if _, err := write.Inject(fsys.NewOS(), w.request(provider, "", "dev")); err != nil {
			t.Fatal(err)
		}
		reg := w.registry()
		reg.Now = func() string { return "2026-01-01T00:00:00Z" } // the same file in every world
		if err := reg.AddProfile(&registry.Profile{Name: "b", Servers: []string{"notes", "fetch"},
			ProviderOverrides: map[string]*registry.Filters{"*": {ToolDeny: []string{"fetch__fetch_raw", "notes__list"}}}}); err != nil {
			t.Fatal(err)
		}
	}
}

var crashScenarios = []crashScenario{
	{"claude project inject", claudeProject, injectProfile("claude-code", "dev"), true},
	{"claude project, switch profiles", switchProfiles("claude-code"), injectProfile("claude-code", "b"), true},
	{"claude user inject", func(t *testing.T, w *world) {
		w.place(w.dest(w.provider("claude-code"), providers.User), fixtures.File("claude-code/user.dev.claude.json"))
	}, func(w *world, f fsys.FS) error {
		_, err := write.Inject(f, w.request("claude-code", providers.User, "dev"))
		return err
	}, true},
	{"claude project uninject", func(t *testing.T, w *world) {
		claudeProject(t, w)
		if _, err := write.Inject(fsys.NewOS(), w.request("claude-code", "", "dev")); err != nil {
			t.Fatal(err)
		}
	}, func(w *world, f fsys.FS) error {
		_, err := write.Uninject(f, w.request("claude-code", "", "", "notes", "tickets", "github"))
		return err
	}, true},
	{"codex, switch profiles", switchProfiles("codex"), injectProfile("codex", "b"), false},
	{"ephemeral --out", func(t *testing.T, w *world) {}, func(w *world, f fsys.FS) error {
		_, err := write.Ephemeral(f, w.request("claude-code", "", "dev"), filepath.Join(w.project, "run.json"))
		return err
	}, false},
	{"opencode, switch profiles", switchProfiles("opencode"), injectProfile("opencode", "b"), false},
}

// TestCrashConvergence stops a command at every change it makes to the disk, as a
// crash or kill -9 would (fixtures.CrashFS: nothing after that point happens, no rollback),
// then runs the same command again: the rerun succeeds and leaves exactly what an
// uninterrupted run leaves — client files, settings, deny and ownership records,
// registry receipts — and no staged record. Before staging, a crash between the
// client file and its record left the entries unowned for good (issue 11 defect 1).
//
// spec: C3 C4 C6 W7
func TestCrashConvergence(t *testing.T) { crashConvergence(t, false) }

// crashConvergence is TestCrashConvergence; with pieces, the JSON files placed are
// padded (padPlaced) and the uninterrupted run of every scenario that edits one must
// write it in pieces (fsys.OS's piecewise write, never joined).
func crashConvergence(t *testing.T, pieces bool) {
	padPlaced = pieces
	defer func() { padPlaced = false }()
	for _, sc := range crashScenarios {
		t.Run(sc.name, func(t *testing.T) {
			// the same root for every world, so that record names (hashes of paths) match
			root := filepath.Join(t.TempDir(), "w")
			fresh := func() *world {
				w := worldAt(t, root)
				sc.setup(t, w)
				return w
			}
			w := fresh()
			full := fixtures.NewCrashFS(fsys.OS{}, -1)
			mapped := bigbuf.Mappings()
			if err := sc.run(w, full); err != nil {
				t.Fatalf("uninterrupted: %v", err)
			}
			t.Logf("%d writes in pieces", full.PieceWrites())
			if pieces && sc.pieces && full.PieceWrites() == 0 {
				t.Fatal("no file was written in pieces")
			}
			if pieces && sc.pieces && runtime.GOOS == "linux" && bigbuf.Mappings() == mapped {
				t.Fatal("no file was mapped")
			}
			want := treeState(t, root)
			kills := 0
			for n := 0; n < full.Changes(); n++ {
				w := fresh()
				c := fixtures.NewCrashFS(fsys.OS{}, n)
				if err := sc.run(w, c); !c.Crashed() {
					t.Fatalf("no crash after %d changes: %v", n, err)
				}
				kills++
				if err := sc.run(w, fsys.NewOS()); err != nil {
					t.Fatalf("crash after %d changes: rerun: %v", n, err)
				}
				if d := diffStates(want, treeState(t, root)); len(d) > 0 {
					t.Errorf("crash after %d of %d changes: the rerun did not converge:\n%s", n, full.Changes(), strings.Join(d, "\n"))
				}
			}
			t.Logf("%d crashes, every rerun converged", kills)
		})
	}
}

// TestUninjectAfterCrashedInject: an inject killed after writing the client file,
// before its records: uninject finds the entries through the staged record (their
// digests match what it says was written) and removes them with their deny rules.
//
// spec: C3 C6
func TestUninjectAfterCrashedInject(t *testing.T) {
	root := filepath.Join(t.TempDir(), "w")
	w := worldAt(t, root)
	claudeProject(t, w)
	before := treeState(t, root)
	p := w.provider("claude-code")
	mcp := w.dest(p, providers.Project)
	for n := 1; ; n++ {
		w = worldAt(t, root)
		claudeProject(t, w)
		c := fixtures.NewCrashFS(fsys.OS{}, n)
		_, err := write.Inject(c, w.request("claude-code", "", "dev"))
		if !c.Crashed() {
			t.Fatal("the client file was never written")
		}
		if err == nil {
			t.Fatal("no error after the crash")
		}
		if !slices.Equal(read(t, mcp), fixtures.File("claude-code/project.dev.mcp.json")) {
			break // crashed right after the client file (and perhaps the settings)
		}
	}
	res, err := write.Uninject(fsys.NewOS(), w.request("claude-code", "", "", "notes", "tickets", "github"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Kept) > 0 || len(res.Removed) != 3 {
		t.Errorf("removed %v, kept %v; want all three removed", res.Removed, res.Kept)
	}
	after := treeState(t, root)
	for _, dir := range []string{render.OwnershipDir, permissionsDir} {
		for p := range after {
			if strings.HasPrefix(p, filepath.Join(w.layer, dir)) {
				delete(after, p) // the (emptied) records stay
			}
		}
	}
	for p := range before {
		if strings.HasPrefix(p, filepath.Join(w.layer, render.OwnershipDir)) || strings.HasPrefix(p, filepath.Join(w.layer, permissionsDir)) {
			delete(before, p)
		}
	}
	if d := diffStates(before, after); len(d) > 0 {
		t.Errorf("after uninject, not as before the inject:\n%s", strings.Join(d, "\n"))
	}
}

// worldAt is a fresh world at a fixed root.
func worldAt(t *testing.T, root string) *world {
	t.Helper()
	return newWorldIn(t, root)
}
