package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
)

// convergeWorld is one command of TestCrashConvergesThroughCLI: setup builds its world
// under root (the same path every time) and returns the directory to run in; before
// are commands run first, uninterrupted.
type convergeWorld struct {
	name   string
	setup  func(t *testing.T, root string) string
	before [][]string
	args   []string
}

var convergeWorlds = []convergeWorld{
	{"user scope", func(t *testing.T, root string) string {
		home := filepath.Join(root, "home")
		writeRegistry(t, home, 2, "")
		return home
	}, nil, []string{"inject", "--provider", "claude", "--scope", "user", "--servers", "s01,s02"}},
	{"project scope", convergeProject, nil, []string{"inject", "--provider", "claude", "--profile", "p"}},
	{"switch profiles", convergeProject, [][]string{{"inject", "--provider", "claude", "--profile", "p"}},
		[]string{"inject", "--provider", "claude", "--profile", "q"}},
	{"uninject", convergeProject, [][]string{{"inject", "--provider", "claude", "--profile", "p"}},
		[]string{"uninject", "--provider", "claude", "--servers", "s01,s02"}},
}

// convergeProject is a project with a person's server and deny rule, and profiles p
// (two servers, a deny rule) and q (one of them, another rule).
func convergeProject(t *testing.T, root string) string {
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	writeRegistry(t, home, 3, `{"profiles": {
  "p": {"servers": ["s01", "s02"], "providerOverrides": {"*": {"toolDeny": ["s01__rm", "s02__*"]}}},
  "q": {"servers": ["s03", "s01"], "providerOverrides": {"*": {"toolDeny": ["s03__x"]}}}}}`)
	for p, data := range map[string]string{
		filepath.Join(project, ".mcp.json"):                      `{"mcpServers": {"mine": {"command": "my-mcp"}}}`,
		filepath.Join(project, ".claude", "settings.local.json"): `{"permissions": {"deny": ["Read(.env)"]}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return project
}

// runMainOut runs mcpwire in process on f, in dir, with HOME root/home, and returns
// its exit code, stdout and stderr.
func runMainOut(root, dir string, f fsys.FS, args []string) (int, string, string) {
	home := filepath.Join(root, "home")
	var stdout, stderr bytes.Buffer
	env := &Env{
		Getenv: func(k string) string {
			switch k {
			case "HOME":
				return home
			case "TMPDIR":
				return root
			}
			return ""
		},
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, FS: f, Home: home, Cwd: dir,
	}
	return Main(args, env), stdout.String(), stderr.String()
}

// runMain is runMainOut without stdout.
func runMain(root, dir string, f fsys.FS, args []string) (int, string) {
	code, _, stderr := runMainOut(root, dir, f, args)
	return code, stderr
}

// TestCrashConvergesThroughCLI stops the real command, in process, at every change it
// makes to the disk (fixtures.CrashFS: as a kill -9 there, no rollback), then runs it
// again: the rerun succeeds and leaves exactly what an uninterrupted run leaves —
// client files, settings, both kinds of ownership record, the registry's receipts —
// and no staged record. The crash tests of the real binary (crash_test.go, with
// MCPWIRE_TEST_CRASH_AFTER) check the same at the level of single disk operations.
//
// spec: W7 C3 C4 C6 B7
func TestCrashConvergesThroughCLI(t *testing.T) {
	for _, w := range convergeWorlds {
		t.Run(w.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "w")
			fresh := func() string {
				if err := os.RemoveAll(root); err != nil {
					t.Fatal(err)
				}
				dir := w.setup(t, root)
				for _, args := range w.before {
					if code, stderr := runMain(root, dir, fsys.NewOS(), args); code != 0 {
						t.Fatalf("%v: exit %d\n%s", args, code, stderr)
					}
				}
				return dir
			}
			dir := fresh()
			full := fixtures.NewCrashFS(fsys.OS{}, -1)
			if code, stderr := runMain(root, dir, full, w.args); code != 0 {
				t.Fatalf("uninterrupted: exit %d\n%s", code, stderr)
			}
			want := fixtures.Tree(t, root)
			converged := 0
			for n := 0; n < full.Changes(); n++ {
				dir := fresh()
				c := fixtures.NewCrashFS(fsys.OS{}, n)
				if runMain(root, dir, c, w.args); !c.Crashed() {
					t.Fatalf("no crash after %d changes", n)
				}
				if code, stderr := runMain(root, dir, fsys.NewOS(), w.args); code != 0 {
					t.Fatalf("crash after %d changes: rerun: exit %d\n%s", n, code, stderr)
				}
				got := fixtures.Tree(t, root)
				if d := fixtures.DiffTree(want, got); len(d) > 0 {
					t.Errorf("crash after %d of %d changes: the rerun did not converge:\n%s", n, full.Changes(), strings.Join(d, "\n"))
					continue
				}
				converged++
			}
			t.Logf("%d crashes, %d reruns converged", full.Changes(), converged)
		})
	}
}
