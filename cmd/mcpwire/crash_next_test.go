package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
)

// nextWorld is a world of TestCrashThenAnyCommand: the files a person has before
// mcpwire comes (setup returns the directory to run in), and the clients and scope its
// commands name.
type nextWorld struct {
	name  string
	setup func(t *testing.T, root string) string
	// providers are the clients written; scope, when set, is --scope
	providers []string
	scope     string
}

// nextProfiles are the profiles of every next world: pa and pb share s02, and each
// has a deny rule of its own (Claude Code's settings change with them).
const nextProfiles = `{"profiles": {
  "pa": {"servers": ["s01", "s02"], "providerOverrides": {"*": {"toolDeny": ["s01__rm"]}}},
  "pb": {"servers": ["s02", "s03"], "providerOverrides": {"*": {"toolDeny": ["s03__x"]}}}}}`

// nextWorlds: a JSON client (Cursor, project scope), Claude Code's project files (the
// MCP config, the settings with their deny rules, both records), a TOML client
// (Codex), a YAML client (Goose), Claude Code's local scope (a project's servers
// inside ~/.claude.json), and every client at once. Each holds a person's own entry;
// the first four an s02 of the person's too, which --force takes over (H1). In the
// "created" worlds, and for every client, mcpwire creates the files and their
// directories, and removes them with the last entry (H7).
// (a function, not a package variable: TestNoWorkInInit bounds what init allocates)
func nextWorlds() []nextWorld {
	return []nextWorld{
		{"json", nextFiles(map[string]string{
			"project/.cursor/mcp.json": `{"mcpServers": {"mine": {"command": "my-mcp"}, "s02": {"command": "my-s02"}}}` + "\n",
		}), []string{"cursor"}, ""},
		{"json, created", nextFiles(nil), []string{"cursor"}, ""},
		{"claude project, created", nextFiles(nil), []string{"claude"}, ""},
		{"claude project", nextFiles(map[string]string{
			"project/.mcp.json":                   `{"mcpServers": {"mine": {"command": "my-mcp"}, "s02": {"command": "my-s02"}}}` + "\n",
			"project/.claude/settings.local.json": `{"permissions": {"deny": ["Read(.env)"]}}` + "\n",
		}), []string{"claude"}, ""},
		{"toml", nextFiles(map[string]string{
			"home/.codex/config.toml": "model = \"o3\"\n\n[mcp_servers.mine]\ncommand = \"my-mcp\"\n\n[mcp_servers.s02]\ncommand = \"my-s02\"\nstartup_timeout_sec = 30\n",
		}), []string{"codex"}, ""},
		{"yaml", nextFiles(map[string]string{
			"home/.config/goose/config.yaml": "# mine\nGOOSE_MODE: smart_approve\nextensions:\n  mine:\n    type: stdio\n    name: mine\n    cmd: my-mcp\n    enabled: true\n  s02:\n    type: stdio\n    name: s02\n    cmd: my-s02   # mine too\n    enabled: true\n",
		}), []string{"goose"}, ""},
		{"claude local scope", nextFiles(map[string]string{
			"home/.claude.json": `{"numStartups": 3, "projects": {"/elsewhere": {"mcpServers": {"mine": {"command": "my-mcp"}}}}}` + "\n",
		}), []string{"claude"}, "local"},
		{"every client", nextFiles(map[string]string{
			"project/.gitignore": ".wld/mcp.json\n",
		}), everyProvider(), ""},
	}
}

// nextFiles returns a setup writing a registry (s01…s03, nextProfiles) and files under
// root, and a git project.
func nextFiles(files map[string]string) func(t *testing.T, root string) string {
	return func(t *testing.T, root string) string {
		t.Helper()
		writeRegistry(t, filepath.Join(root, "home"), 3, nextProfiles)
		fixtures.WriteFiles(t, root, files)
		project := filepath.Join(root, "project")
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("git", "-C", project, "init", "-q", ".").CombinedOutput(); err != nil {
			t.Skipf("git init: %v\n%s", err, out)
		}
		return project
	}
}

// everyProvider names every client mcpwire writes a file for, but Zoo Code: it
// writes the first of .zoo/mcp.json and .roo/mcp.json that exists, and Roo Code
// writes the second in the same transaction, so which of them a crash left decides
// where the next command writes Zoo Code's servers — a choice of file, not of
// ownership.
func everyProvider() []string {
	var out []string
	for _, p := range providers.All() {
		if !p.Manual() && p.Name != "zoo-code" {
			out = append(out, p.Name)
		}
	}
	return out
}

// inject is one inject of a profile into every client of the world, in one transaction,
// with --force: the person's own s02 is taken over, kept, and put back when mcpwire's
// goes (H1).
func (w nextWorld) inject(profile string) [][]string {
	args := []string{"inject", "--force", "--profile", profile}
	for _, p := range w.providers {
		args = append(args, "--provider", p)
	}
	if w.scope != "" {
		args = append(args, "--scope", w.scope)
	}
	return [][]string{args}
}

// uninject removes every server of the registry, one client after the other.
func (w nextWorld) uninject() [][]string {
	var out [][]string
	for _, p := range w.providers {
		args := []string{"uninject", "--provider", p, "--servers", "s01,s02,s03"}
		if w.scope != "" {
			args = append(args, "--scope", w.scope)
		}
		out = append(out, args)
	}
	return out
}

// status is status --json of the world's clients: what it reports must be exact too.
func (w nextWorld) status() [][]string {
	args := []string{"status", "--json"}
	for _, p := range w.providers {
		args = append(args, "--provider", p)
	}
	return [][]string{args}
}

// nextCrash is a command that crashes (crashed, after the commands of before), and
// the commands that may come next.
type nextCrash struct {
	name    string
	before  func(w nextWorld) [][]string
	crashed func(w nextWorld) [][]string
	next    map[string]func(w nextWorld) [][]string
}

func nextCrashes() []nextCrash {
	return []nextCrash{
		{"profile switch pa to pb", func(w nextWorld) [][]string { return w.inject("pa") }, func(w nextWorld) [][]string { return w.inject("pb") },
			map[string]func(w nextWorld) [][]string{
				"same":          func(w nextWorld) [][]string { return w.inject("pb") },
				"other profile": func(w nextWorld) [][]string { return w.inject("pa") },
				"uninject":      nextWorld.uninject,
				"status":        nextWorld.status,
			}},
		{"first inject", func(w nextWorld) [][]string { return nil }, func(w nextWorld) [][]string { return w.inject("pa") },
			map[string]func(w nextWorld) [][]string{
				"same":          func(w nextWorld) [][]string { return w.inject("pa") },
				"other profile": func(w nextWorld) [][]string { return w.inject("pb") },
				"uninject":      nextWorld.uninject,
				"status":        nextWorld.status,
			}},
		{"uninject", func(w nextWorld) [][]string { return w.inject("pa") }, func(w nextWorld) [][]string { return w.uninject()[:1] },
			map[string]func(w nextWorld) [][]string{
				"same":          func(w nextWorld) [][]string { return w.uninject()[:1] },
				"other profile": func(w nextWorld) [][]string { return w.inject("pb") },
				"status":        nextWorld.status,
			}},
	}
}

// TestCrashThenAnyCommand stops a command at every change it makes to the disk
// (fixtures.CrashFS: as a kill -9 there, no rollback), then runs whatever may come
// next — the same command, the other profile, uninject, status — and checks that the
// result is exactly what that command leaves after the crashed one ran in full, or
// after it never ran: client files, settings, both kinds of ownership record, the
// registry's receipts, and what status reports. So no entry mcpwire wrote is ever
// left unowned, whatever comes after a crash (issue 25 finding 10: a profile switch
// killed after the client file was replaced, followed by the other profile, wrote the
// servers with an empty ownership record, and they stayed foreign for good).
//
// spec: K10 W7 C3 C6 B7
func TestCrashThenAnyCommand(t *testing.T) {
	for _, w := range nextWorlds() {
		for _, c := range nextCrashes() {
			if c.name == "uninject" && len(w.providers) > 1 {
				continue // uninject names one client: the other crashes cover every client
			}
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				if len(w.providers) > 1 {
					t.Parallel() // the longest: about 150 crash points each
				}
				m := newNextMatrix(t, w, c)
				m.check(t)
			})
		}
	}
}

// nextMatrix holds one world and crashed command: the states before and after an
// uninterrupted run of it, and the number of changes it makes.
type nextMatrix struct {
	w         nextWorld
	c         nextCrash
	root, dir string
	old, new  *dirSnapshot
	changes   int
}

func newNextMatrix(t *testing.T, w nextWorld, c nextCrash) *nextMatrix {
	t.Helper()
	m := &nextMatrix{w: w, c: c, root: filepath.Join(fastTempDir(t), "w")}
	m.dir = w.setup(t, m.root)
	m.runAll(t, c.before(w))
	m.old = snapshotDir(t, m.root)
	full := fixtures.NewCrashFS(fsys.OS{}, -1)
	m.runAll(t, c.crashed(w), full)
	m.changes = full.Changes()
	m.new = snapshotDir(t, m.root)
	return m
}

// runAll runs commands in order, each on its own file system when given (else the
// real one); each must succeed.
func (m *nextMatrix) runAll(t *testing.T, cmds [][]string, fss ...fsys.FS) string {
	t.Helper()
	var out strings.Builder
	for i, args := range cmds {
		f := fsys.NewOS()
		if i < len(fss) {
			f = fss[i]
		}
		code, stdout, stderr := runMainOut(m.root, m.dir, f, args)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		out.WriteString(stdout)
	}
	return out.String()
}

// check crashes the command after every change in turn, and runs each next command
// after it. With one client, the result must be exactly what next leaves after the
// crashed command ran in full, or after it never ran. With every client, the crashed
// transaction may have written some of their files and not others: then each path
// must hold what it holds in one of the two, and what status reports of each client
// file (its entries and whose they are: the file and its record together) must be one
// of the two.
func (m *nextMatrix) check(t *testing.T) {
	t.Helper()
	names := slices.Sorted(maps.Keys(m.c.next))
	want := map[string][2]nextState{}
	for _, name := range names {
		next := m.c.next[name](m.w)
		var w [2]nextState
		for i, s := range []*dirSnapshot{m.old, m.new} {
			s.restore(t, m.root)
			w[i] = m.state(t, next)
		}
		want[name] = w
	}
	bad := map[string]int{}
	stride := 1
	if testing.Short() && len(m.w.providers) > 1 {
		stride = 7 // every client: about 150 crash points, a minute in all
	}
	for n := 0; n < m.changes; n += stride {
		m.old.restore(t, m.root)
		c := fixtures.NewCrashFS(fsys.OS{}, n)
		for _, args := range m.c.crashed(m.w) {
			runMain(m.root, m.dir, c, args)
		}
		if !c.Crashed() {
			t.Fatalf("no crash after %d changes", n)
		}
		crashed := snapshotDir(t, m.root)
		for i, name := range names {
			next := m.c.next[name](m.w)
			if i > 0 {
				crashed.restore(t, m.root)
			}
			got := m.state(t, next)
			if next[0][0] == "status" {
				fixtures.SameTree(t, crashed.tree(t, m), got.tree)
			}
			if diff := got.against(want[name], len(m.w.providers) == 1, next[0][0] == "status"); diff != "" {
				if bad[name]++; bad[name] <= 3 {
					t.Errorf("crash after %d of %d changes, then %s (%s): %s", n, m.changes, name, strings.Join(next[0][:2], " "), diff)
				}
			}
		}
	}
	for _, name := range names {
		if bad[name] > 3 {
			t.Errorf("then %s: %d crash points in all did not converge", name, bad[name])
		}
	}
	t.Logf("%d crash points, each followed by %s", m.changes, strings.Join(names, ", "))
}

// nextState is what a next command left: the tree, and status per client file.
type nextState struct {
	tree   map[string]string
	status map[string]string
}

// state runs next and returns what it left, with status --json of the world's
// clients (what next printed, when it is that).
func (m *nextMatrix) state(t *testing.T, next [][]string) nextState {
	t.Helper()
	read, out := next[0][0] == "status", ""
	if !read {
		m.runAll(t, next)
		if len(m.w.providers) > 1 {
			out = m.runAll(t, m.w.status())
		}
	} else {
		out = m.runAll(t, next)
	}
	st := nextState{tree: m.tree(t), status: map[string]string{}}
	if out == "" {
		return st
	}
	var doc struct {
		Files []json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	for _, f := range doc.Files {
		var id struct{ Provider, Path string }
		_ = json.Unmarshal(f, &id)
		st.status[id.Provider+" "+id.Path] = string(f)
	}
	return st
}

// against returns what of s is neither as in want[0] nor as in want[1] ("" when
// nothing): the whole tree when whole, else path by path; and status file by file.
func (s nextState) against(want [2]nextState, whole, read bool) string {
	var bad []string
	switch {
	case read: // status changes nothing: only what it reports counts
	case whole:
		d0, d1 := fixtures.DiffTree(want[0].tree, s.tree), fixtures.DiffTree(want[1].tree, s.tree)
		if len(d0) > 0 && len(d1) > 0 {
			bad = append(bad, "against the crashed command run in full:\n"+strings.Join(d1, "\n"), "against it never run:\n"+strings.Join(d0, "\n"))
		}
	default:
		bad = append(bad, eitherOr(s.tree, want[0].tree, want[1].tree, "path")...)
	}
	bad = append(bad, eitherOr(s.status, want[0].status, want[1].status, "status of")...)
	return strings.Join(bad, "\n")
}

// eitherOr names every key whose value in got (or its absence) is in neither a nor b.
func eitherOr(got, a, b map[string]string, what string) []string {
	keys := map[string]bool{}
	for _, m := range []map[string]string{got, a, b} {
		for k := range m {
			keys[k] = true
		}
	}
	var bad []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		g, inG := got[k]
		x, inA := a[k]
		y, inB := b[k]
		if (inG != inA || g != x) && (inG != inB || g != y) {
			bad = append(bad, fmt.Sprintf("%s %s: %q; want %q or %q", what, k, g, x, y))
		}
	}
	return bad
}

// tree is the state of the world's files and directories, but for the directories of
// the write layer: a transaction creates them before it writes, keeps them (even on
// rollback, docs/writes.md), and an empty one holds no ownership.
func (m *nextMatrix) tree(t *testing.T) map[string]string {
	t.Helper()
	layer := filepath.Join(m.root, "home", ".aiwg") + string(filepath.Separator)
	out := fixtures.Tree(t, m.root)
	for p, v := range out {
		if strings.HasPrefix(p, layer) && strings.HasPrefix(v, "d") {
			delete(out, p)
		}
	}
	return out
}

// fastTempDir is a temporary directory for tests that write many small files: on a
// memory file system when there is one (fsync costs nothing there), else t.TempDir.
func fastTempDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "mcpwire-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// dirSnapshot is a directory tree held in memory: directories and files with their
// modes and contents, and symlinks.
type dirSnapshot struct {
	entries []snapEntry
}

type snapEntry struct {
	rel  string
	mode fs.FileMode
	data []byte
	link string
}

func snapshotDir(t *testing.T, root string) *dirSnapshot {
	t.Helper()
	s := &dirSnapshot{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		e := snapEntry{rel: rel, mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.link, err = os.Readlink(p)
		case fi.Mode().IsRegular():
			e.data, err = os.ReadFile(p)
		}
		s.entries = append(s.entries, e)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tree is the state the snapshot holds, as m.tree reads it.
func (s *dirSnapshot) tree(t *testing.T, m *nextMatrix) map[string]string {
	t.Helper()
	s.restore(t, m.root)
	return m.tree(t)
}

// restore makes root hold exactly the snapshot.
func (s *dirSnapshot) restore(t *testing.T, root string) {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	var dirs []snapEntry
	for _, e := range s.entries {
		p := filepath.Join(root, e.rel)
		var err error
		switch {
		case e.mode.IsDir():
			err = os.Mkdir(p, 0o700)
			dirs = append(dirs, e)
		case e.mode&fs.ModeSymlink != 0:
			err = os.Symlink(e.link, p)
		default:
			if err = os.WriteFile(p, e.data, e.mode.Perm()); err == nil {
				err = os.Chmod(p, e.mode.Perm())
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range slices.Backward(dirs) {
		if err := os.Chmod(filepath.Join(root, e.rel), e.mode.Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCrashHookThenOtherProfile is issue 25 finding 10 as reported, with the real
// binary and the crash-point hook (MCPWIRE_TEST_CRASH_AFTER: every step, locks and
// temporary files included): a profile switch pa → pb killed after each step, then
// inject --profile pa. The result is exactly what inject --profile pa leaves after the
// switch ran in full or never ran, and status reports every server mcpwire wrote as
// its own (before, a kill after the client file's rename left them foreign for good).
//
// spec: K10 B7 C6
func TestCrashHookThenOtherProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts about 100 processes")
	}
	for _, w := range nextWorlds() {
		if !slices.Contains([]string{"json", "claude project", "toml", "yaml"}, w.name) {
			continue
		}
		t.Run(w.name, func(t *testing.T) {
			root := filepath.Join(fastTempDir(t), "w")
			dir := w.setup(t, root)
			run := func(args [][]string, extra ...string) crashRun {
				t.Helper()
				var r crashRun
				for _, a := range args {
					if r = runIn(t, root, dir, a, extra...); r.err != nil {
						return r
					}
				}
				return r
			}
			if r := run(w.inject("pa")); r.err != nil {
				t.Fatalf("inject pa: %v\n%s", r.err, r.stderr)
			}
			old := snapshotDir(t, root)
			var want [2]map[string]string
			for i, switched := range []bool{false, true} {
				old.restore(t, root)
				if switched {
					if r := run(w.inject("pb")); r.err != nil {
						t.Fatalf("inject pb: %v\n%s", r.err, r.stderr)
					}
				}
				if r := run(w.inject("pa")); r.err != nil {
					t.Fatalf("inject pa: %v\n%s", r.err, r.stderr)
				}
				want[i] = nextTree(t, root)
			}
			kills := 0
			for n := 1; ; n++ {
				old.restore(t, root)
				r := run(w.inject("pb"), fmt.Sprintf("%s=%d", crashAfterEnv, n))
				if !r.killed() {
					if r.err != nil {
						t.Fatalf("step %d: %v\n%s", n, r.err, r.stderr)
					}
					break // the switch ran in full: every step was a crash point
				}
				kills++
				if r := run(w.inject("pa")); r.err != nil {
					t.Fatalf("killed after step %d, then inject --profile pa: %v\n%s", n, r.err, r.stderr)
				}
				got := nextTree(t, root)
				if d0, d1 := fixtures.DiffTree(want[0], got), fixtures.DiffTree(want[1], got); len(d0) > 0 && len(d1) > 0 {
					t.Errorf("killed after step %d (%s), then inject --profile pa: against the switch in full:\n%s\nagainst no switch:\n%s",
						n, strings.TrimSpace(r.stderr), strings.Join(d1, "\n"), strings.Join(d0, "\n"))
				}
			}
			if kills < 10 {
				t.Fatalf("only %d crash points", kills)
			}
			t.Logf("%d crash points, each followed by inject --profile pa", kills)
		})
	}
}

// nextTree is the tree under root as nextMatrix.tree reads it, but for the lock and
// temporary files a kill leaves: nobody reads them, and the next write of their file
// removes them (docs/writes.md "Interrupted runs"; crash_test.go counts them).
func nextTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := (&nextMatrix{root: root}).tree(t)
	for p := range out {
		if n := filepath.Base(p); strings.HasSuffix(n, fsys.LockSuffix) || strings.Contains(n, ".mcpwire-") {
			delete(out, p)
		}
	}
	return out
}
