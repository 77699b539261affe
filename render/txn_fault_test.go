package render_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/bigbuf"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// treeState describes every path under root (see fixtures.TreeState).
func treeState(t *testing.T, root string) map[string]string {
	t.Helper()
	st, err := fixtures.TreeState(root)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// diffStates names every path added, removed or changed between two tree states.
func diffStates(before, after map[string]string) []string { return fixtures.DiffTree(before, after) }

// writtenPaths returns the paths of the WriteFile calls a Faulty saw, in order.
func writtenPaths(calls []string) []string { return callPaths(calls, "write") }

// callPaths returns the paths of the calls of one kind ("write", "mkdir") a Faulty
// saw, in order.
func callPaths(calls []string, kind string) []string {
	var out []string
	for _, c := range calls {
		if rest, ok := strings.CutPrefix(c, kind+" "); ok {
			out = append(out, rest[:strings.LastIndexByte(rest, ' ')])
		}
	}
	return out
}

// notRolledBack is diffStates after a failed transaction, leaving out the
// directories it created (a Faulty saw "mkdir" for them): a rollback keeps those
// (fsys.Apply); a file left in one still shows.
func notRolledBack(before, after map[string]string, calls []string) []string {
	after = maps.Clone(after)
	for _, d := range callPaths(calls, "mkdir") {
		delete(after, d)
	}
	return diffStates(before, after)
}

// faultScenario is one multi-file operation: setup prepares a world (with or without
// pre-existing files) and returns the operation; order is the files it writes, in
// transaction order (W7).
type faultScenario struct {
	name  string
	setup func(t *testing.T, w *world) (run func(f fsys.FS) error, order []string)
	// pieces: the run edits a JSON client file placed beforehand, which is written in
	// pieces once padded (faultRollback)
	pieces bool
}

// claudeInject injects profile dev into Claude Code at project scope: .mcp.json →
// .claude/settings.local.json → deny record → ownership record. With existing, every
// one of them exists beforehand (an earlier injection of one server, odd modes).
func claudeInject(existing bool) func(t *testing.T, w *world) (func(fsys.FS) error, []string) {
	return func(t *testing.T, w *world) (func(fsys.FS) error, []string) {
		p := w.provider("claude-code")
		mcp := w.dest(p, providers.Project)
		settings := w.settingsDest(p, providers.Project)
		order := stagedOrder(mcp, settings, recordOf(t, w, permissionsDir), recordOf(t, w, render.OwnershipDir))
		if existing {
			if padPlaced {
				w.place(mcp, []byte("{}\n")) // padded: edited in pieces
			}
			w.place(settings, fixtures.File("claude-code/project.settings.settings.local.json"))
			first := w.request("claude-code", "", "dev")
			first.Servers = []string{"notes"}
			if _, err := write.Inject(fsys.NewOS(), first); err != nil {
				t.Fatal(err)
			}
			chmod(t, mcp, 0o640)
			chmod(t, settings, 0o604)
		}
		return func(f fsys.FS) error {
			_, err := write.Inject(f, w.request("claude-code", "", "dev"))
			return err
		}, order
	}
}

// stagedOrder is the write order of a Claude Code transaction (W7): the staged records
// (docs/writes.md), the MCP config, the settings, the deny record, the ownership record.
func stagedOrder(mcp, settings, denyRec, ownRec string) []string {
	return []string{ownRec + ".staged", denyRec + ".staged", mcp, settings, denyRec, ownRec}
}

// claudeUninject removes what a profile injection wrote: .mcp.json → settings → deny
// record → ownership record.
func claudeUninject(t *testing.T, w *world) (func(fsys.FS) error, []string) {
	p := w.provider("claude-code")
	w.place(w.settingsDest(p, providers.Project), fixtures.File("claude-code/project.settings.settings.local.json"))
	w.place(w.dest(p, providers.Project), fixtures.File("claude-code/project.dev.mcp.json"))
	res, err := write.Inject(fsys.NewOS(), w.request("claude-code", "", "dev"))
	if err != nil {
		t.Fatal(err)
	}
	order := stagedOrder(res.Destination, w.settingsDest(p, providers.Project), recordOf(t, w, permissionsDir), recordOf(t, w, render.OwnershipDir))
	return func(f fsys.FS) error {
		// all but one: the records keep an entry, and are written (emptied, they go)
		_, err := write.Uninject(f, w.request("claude-code", "", "", res.Written[1:]...))
		return err
	}, order
}

// ephemeralOut writes run.json → run.settings.json → the sidecar's record → the
// output's record; with existing, an earlier run left all four.
func ephemeralOut(existing bool) func(t *testing.T, w *world) (func(fsys.FS) error, []string) {
	return func(t *testing.T, w *world) (func(fsys.FS) error, []string) {
		out := filepath.Join(w.project, "run.json")
		if existing {
			first := w.request("claude-code", "", "dev")
			first.Servers = []string{"notes", "github"} // fewer servers, other deny rules
			if _, err := write.Ephemeral(fsys.NewOS(), first, out); err != nil {
				t.Fatal(err)
			}
			chmod(t, out, 0o644)
		}
		side := write.SidecarPath(out)
		rec, _ := recordPathOf(t, w, permissionsDir, side)
		outRec, _ := recordPathOf(t, w, render.OwnershipDir, out)
		return func(f fsys.FS) error {
			_, err := write.Ephemeral(f, w.request("claude-code", "", "dev"), out)
			return err
		}, stagedOrder(out, side, rec, outRec)
	}
}

// ephemeralTempDir writes <profile>-claude-code.json → .settings.json into a new
// directory under $TMPDIR (inside the scratch tree, so that a directory left behind
// shows): on a failure the directory goes too.
func ephemeralTempDir(t *testing.T, w *world) (func(fsys.FS) error, []string) {
	tmp := filepath.Join(filepath.Dir(w.home), "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	w.env.Getenv = func(k string) string {
		if k == "TMPDIR" {
			return tmp
		}
		return ""
	}
	return func(f fsys.FS) error {
		_, err := write.Ephemeral(f, w.request("claude-code", "", "dev"), "")
		return err
	}, nil // the directory's name is known only after the run
}

func chmod(t *testing.T, path string, mode fs.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// recordOf returns the record a Claude Code project injection uses: the ownership
// record of .mcp.json, or the deny record of .claude/settings.local.json.
func recordOf(t *testing.T, w *world, sub string) string {
	t.Helper()
	p := w.provider("claude-code")
	dest := w.dest(p, providers.Project)
	if sub == permissionsDir {
		dest = w.settingsDest(p, providers.Project)
	}
	rec, _ := recordPathOf(t, w, sub, dest)
	return rec
}

// recordPathOf computes a record path independently of render: sha256 of the
// canonical (symlink-free) path (C3, C6).
func recordPathOf(t testing.TB, w *world, sub, dest string) (string, string) {
	t.Helper()
	canon, err := fsys.Canonical(dest)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(canon))
	return filepath.Join(w.layer, sub, hex.EncodeToString(sum[:])+".json"), canon
}

var faultScenarios = []faultScenario{
	{"claude inject, new files", claudeInject(false), false},
	{"claude inject, existing files", claudeInject(true), true},
	{"claude uninject", claudeUninject, true},
	{"ephemeral --out, new files", ephemeralOut(false), false},
	{"ephemeral --out, existing files", ephemeralOut(true), false},
	{"ephemeral temporary directory", ephemeralTempDir, false},
}

// TestFaultRollback fails, in turn, every write of a multi-file operation, once when
// its temporary file is written and once at its rename, with and without
// pre-existing files. Every time the operation fails with the injected fault and the
// whole world is as before: every file's content and mode restored, no file
// created (directories the transaction created stay, empty: fsys.Apply), no
// temporary or lock file left, and no ownership record or receipt
// (injectedProviders) written. A final run without faults proves the
// operation really writes those files in transaction order (MCP config → settings →
// deny record → ownership record).
//
// spec: W7 W3 W9 C3 C5 C6
func TestFaultRollback(t *testing.T) { faultRollback(t, false) }

// faultRollback is TestFaultRollback; with pieces, the JSON files placed are padded
// (padPlaced) and the run without faults of every scenario that edits one must write
// it in pieces (fsys.OS's piecewise write, never joined).
func faultRollback(t *testing.T, pieces bool) {
	padPlaced = pieces
	defer func() { padPlaced = false }()
	for _, sc := range faultScenarios {
		t.Run(sc.name, func(t *testing.T) {
			// the files written, in order, by a run without faults
			w := newWorld(t)
			run, order := sc.setup(t, w)
			ok := &fsystest.Faulty{}
			mapped := bigbuf.Mappings()
			if err := run(ok); err != nil {
				t.Fatalf("without faults: %v", err)
			}
			t.Logf("%d writes in pieces", ok.PieceWrites())
			if pieces && sc.pieces && ok.PieceWrites() == 0 {
				t.Fatal("no file was written in pieces")
			}
			if pieces && sc.pieces && runtime.GOOS == "linux" && bigbuf.Mappings() == mapped {
				t.Fatal("no file was mapped")
			}
			got := writtenPaths(ok.Calls())
			if order == nil { // paths known only after the run: the MCP file, then the sidecar
				sep := string(filepath.Separator)
				if len(got) != 2 || !strings.HasSuffix(got[0], sep+"dev-claude-code.json") || !strings.HasSuffix(got[1], sep+"dev-claude-code.settings.json") {
					t.Fatalf("writes without faults: %q", got)
				}
				order = got
			}
			if !slices.Equal(got, order) {
				t.Fatalf("writes without faults:\n%s\nwant, in this order:\n%s", strings.Join(got, "\n"), strings.Join(order, "\n"))
			}
			for n := 1; n <= len(order); n++ {
				for _, stage := range []string{fsystest.StageWrite, fsystest.StageRename} {
					t.Run(fmt.Sprintf("write %d (%s) %s", n, filepath.Base(order[n-1]), stage), func(t *testing.T) {
						w := newWorld(t)
						run, _ := sc.setup(t, w)
						root := filepath.Dir(w.home)
						before := treeState(t, root)
						f := &fsystest.Faulty{FailWrite: n, WriteStage: stage}
						err := run(f)
						if !errors.Is(err, fsystest.ErrInjected) {
							t.Fatalf("error %v, want the injected fault", err)
						}
						if d := notRolledBack(before, treeState(t, root), f.Calls()); len(d) > 0 {
							t.Errorf("not rolled back:\n%s\ncalls:\n%s", strings.Join(d, "\n"), strings.Join(f.Calls(), "\n"))
						}
					})
				}
			}
		})
	}
}

// TestRecordDirRefusedBeforeWriting: an ownership or deny-record directory that is a
// file, or a symlink, is refused before anything is written (no write, no mkdir, no
// lock), and every file stays as it was.
//
// spec: W7 C3 C6 L9
func TestRecordDirRefusedBeforeWriting(t *testing.T) {
	for _, sub := range []string{render.OwnershipDir, permissionsDir} {
		for _, kind := range []string{"file", "symlink"} {
			t.Run(sub+" "+kind, func(t *testing.T) {
				w := newWorld(t)
				dir := filepath.Join(w.layer, sub)
				switch kind {
				case "file":
					if err := os.WriteFile(dir, []byte("not a directory\n"), 0o600); err != nil {
						t.Fatal(err)
					}
				case "symlink":
					real := filepath.Join(w.home, "elsewhere")
					if err := os.Mkdir(real, 0o700); err != nil {
						t.Fatal(err)
					}
					winetest.Skip(t, winetest.Symlinks)
					if err := os.Symlink(real, dir); err != nil {
						t.Fatal(err)
					}
				}
				root := filepath.Dir(w.home)
				before := treeState(t, root)
				f := &fsystest.Faulty{}
				_, err := write.Inject(f, w.request("claude-code", "", "dev"))
				if err == nil || !strings.Contains(err.Error(), dir) {
					t.Fatalf("error %v, want a refusal naming %s", err, dir)
				}
				if calls := f.Calls(); len(calls) > 0 {
					t.Errorf("refused after touching the disk: %q", calls)
				}
				if d := diffStates(before, treeState(t, root)); len(d) > 0 {
					t.Errorf("files changed:\n%s", strings.Join(d, "\n"))
				}
			})
		}
	}
}
