package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// fakeClient is a codex or claude on PATH: it marks that it ran, prints its arguments
// (and cats the files given to --mcp-config and --settings), then exits with
// $FAKE_EXIT, or kills itself with $FAKE_SIGNAL.
const fakeClient = `#!/bin/sh
: > "$FAKE_MARKS/$(basename "$0")-ran"
for a in "$@"; do printf 'arg=[%s]\n' "$a"; done
while [ $# -gt 0 ]; do
  case "$1" in --mcp-config|--settings) cat "$2" || printf 'MISSING %s\n' "$2"; shift;; esac
  shift
done
[ -n "$FAKE_SIGNAL" ] && kill -s "$FAKE_SIGNAL" $$
exit "${FAKE_EXIT:-0}"
`

// sessionWorld is a temporary HOME with a one-layer registry, a Codex home, TMPDIR and
// fake clients first on PATH.
type sessionWorld struct {
	t                        *testing.T
	home, tmp, marks, bindir string
	vars                     map[string]string
}

func newSessionWorld(t *testing.T) *sessionWorld {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake clients are shell scripts")
	}
	root := t.TempDir()
	w := &sessionWorld{t: t, home: filepath.Join(root, "home"), tmp: filepath.Join(root, "tmp"),
		marks: filepath.Join(root, "marks"), bindir: filepath.Join(root, "bin")}
	files := map[string]string{
		"home/.aiwg/mcp-servers.json": `{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {
  "docs": {"type": "stdio", "command": "docs-mcp"}}}`,
		"home/.aiwg/mcp-profiles.json": `{"apiVersion": "aiwg.io/v1", "kind": "McpProfileRegistry", "profiles": {
  "dev": {"servers": ["docs"], "providerOverrides": {"*": {"toolDeny": ["docs__rm"]}}},
  "plain": {"servers": ["docs"]}}}`,
		"home/.codex/config.toml": "model = \"o3\"\n",
		"bin/codex":               fakeClient,
		"bin/claude":              fakeClient,
	}
	for p, c := range files {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{w.tmp, w.marks} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.vars = map[string]string{"CODEX_HOME": filepath.Join(w.home, ".codex"), "TMPDIR": w.tmp}
	t.Setenv("PATH", w.bindir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_MARKS", w.marks)
	t.Setenv("FAKE_EXIT", "")
	t.Setenv("FAKE_SIGNAL", "")
	return w
}

// run calls Main in-process, with f as the filesystem (nil: the real one).
func (w *sessionWorld) run(f fsys.FS, args ...string) (code int, stdout, stderr string) {
	w.t.Helper()
	env, out, errb := testEnv(w.t, w.vars)
	env.Home, env.Cwd = w.home, w.home
	if f != nil {
		env.FS = f
	}
	code = Main(args, env)
	return code, out.String(), errb.String()
}

func (w *sessionWorld) ran(client string) bool {
	_, err := os.Stat(filepath.Join(w.marks, client+"-ran"))
	return err == nil
}

func (w *sessionWorld) tmpEntries() []string {
	w.t.Helper()
	des, err := os.ReadDir(w.tmp)
	if err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}

// spec: X2 — the client's exit code becomes mcpwire's, without an error line; a client
// killed by a signal gives 128+signal, as a shell reports it.
func TestSessionExitCodeIsTheClients(t *testing.T) {
	w := newSessionWorld(t)
	for _, tc := range []struct {
		provider, exit, signal string
		want                   int
	}{
		{"codex", "0", "", 0},
		{"codex", "7", "", 7},
		{"claude-code", "3", "", 3},
		{"claude-code", "1", "", 1},
		{"codex", "2", "", 2},
		{"codex", "", "TERM", 128 + 15},
		{"claude-code", "", "KILL", 128 + 9},
	} {
		t.Setenv("FAKE_EXIT", tc.exit)
		t.Setenv("FAKE_SIGNAL", tc.signal)
		code, stdout, stderr := w.run(nil, "session", "--provider", tc.provider, "--profile", "dev", "--", "--flag", "two words", "")
		if code != tc.want {
			t.Errorf("%s exit %q signal %q: mcpwire exited %d, want %d (stderr %q)", tc.provider, tc.exit, tc.signal, code, tc.want, stderr)
		}
		if !strings.Contains(stdout, "arg=[--flag]\narg=[two words]\narg=[]\n") {
			t.Errorf("%s: client arguments not passed through:\n%s", tc.provider, stdout)
		}
		if strings.Contains(stderr, "mcpwire: error") {
			t.Errorf("%s: the client's exit code was reported as an mcpwire error: %q", tc.provider, stderr)
		}
	}
	if got := w.tmpEntries(); len(got) != 0 {
		t.Errorf("temporary Claude directories left behind: %v", got)
	}
}

// dropSidecarFS is the real filesystem except that writing a deny-rule sidecar silently
// does nothing: the sidecar mcpwire expects is missing when the client would start.
type dropSidecarFS struct{ fsys.FS }

func (d dropSidecarFS) WriteFile(name string, data []byte, perm fs.FileMode, opts *fsys.WriteOptions) error {
	if strings.HasSuffix(name, ".settings.json") {
		return nil
	}
	return d.FS.WriteFile(name, data, perm, opts)
}

// spec: X2 C5 — a missing expected sidecar refuses launch: claude is not started, and the
// temporary directory is removed. Without deny rules no sidecar is expected and the same
// filesystem launches.
func TestSessionMissingSidecarRefusesLaunch(t *testing.T) {
	w := newSessionWorld(t)
	drop := dropSidecarFS{fsys.NewOS()}
	code, stdout, stderr := w.run(drop, "session", "--provider", "claude-code", "--profile", "dev")
	if code != exitFailed {
		t.Fatalf("exit %d, want 1; stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "mcpwire: error: launch refused: the tool-permission sidecar ") || !strings.Contains(stderr, "dev-claude-code.settings.json is missing") {
		t.Fatalf("stderr %q, want the missing-sidecar refusal", stderr)
	}
	if w.ran("claude") || stdout != "" {
		t.Fatalf("claude was started: %q", stdout)
	}
	if got := w.tmpEntries(); len(got) != 0 {
		t.Fatalf("temporary directory left behind: %v", got)
	}
	// the control: no deny rules, no sidecar expected
	code, stdout, stderr = w.run(drop, "session", "--provider", "claude-code", "--profile", "plain")
	if code != 0 || !w.ran("claude") || strings.Contains(stdout, "--settings") {
		t.Fatalf("plain: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// and with the real filesystem the sidecar is there when claude starts
	code, stdout, stderr = w.run(nil, "session", "--provider", "claude-code", "--profile", "dev")
	if code != 0 || !strings.Contains(stdout, "arg=[--settings]") || !strings.Contains(stdout, `"mcp__docs__rm"`) || strings.Contains(stdout, "MISSING") {
		t.Fatalf("dev: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// noFS fails the test on any filesystem call.
type noFS struct {
	t     *testing.T
	mu    sync.Mutex
	calls []string
}

var errNoFS = errors.New("noFS: no filesystem access expected")

func (n *noFS) hit(op, name string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.calls = append(n.calls, op+" "+name)
	n.t.Errorf("unexpected filesystem access: %s %s", op, name)
	return errNoFS
}

func (n *noFS) ReadFile(p string) ([]byte, error)               { return nil, n.hit("ReadFile", p) }
func (n *noFS) Lstat(p string) (fs.FileInfo, error)             { return nil, n.hit("Lstat", p) }
func (n *noFS) Stat(p string) (fs.FileInfo, error)              { return nil, n.hit("Stat", p) }
func (n *noFS) ReadDir(p string) ([]fs.DirEntry, error)         { return nil, n.hit("ReadDir", p) }
func (n *noFS) EvalSymlinks(p string) (string, error)           { return "", n.hit("EvalSymlinks", p) }
func (n *noFS) Mkdir(p string, _ fs.FileMode) error             { return n.hit("Mkdir", p) }
func (n *noFS) MkdirTemp(d, _ string) (string, error)           { return "", n.hit("MkdirTemp", d) }
func (n *noFS) Remove(p string) error                           { return n.hit("Remove", p) }
func (n *noFS) Chmod(p string, _ fs.FileMode) error             { return n.hit("Chmod", p) }
func (n *noFS) Symlink(_, p string) error                       { return n.hit("Symlink", p) }
func (n *noFS) Lock(p string) (release func() error, err error) { return nil, n.hit("Lock", p) }
func (n *noFS) WriteFile(p string, _ []byte, _ fs.FileMode, _ *fsys.WriteOptions) error {
	return n.hit("WriteFile", p)
}

// spec: X1 — a profile name from the command line that could leave roles-runtime is
// refused before any filesystem access (the registry's included), for both clients.
func TestSessionUnsafeNameBeforeAnyFilesystemAccess(t *testing.T) {
	w := newSessionWorld(t)
	for _, provider := range []string{"codex", "claude-code"} {
		for _, name := range []string{"..", "../x", "a/b", `a\b`, "/abs", filepath.Join(w.home, "abs"), "Dev", "x/../dev"} {
			spy := &noFS{t: t}
			code, _, stderr := w.run(spy, "session", "--provider", provider, "--profile", name)
			if code != exitFailed || !strings.Contains(stderr, "invalid profile name") {
				t.Errorf("%s %q: exit %d, stderr %q", provider, name, code, stderr)
			}
			if len(spy.calls) > 0 {
				t.Errorf("%s %q: filesystem calls before the refusal: %v", provider, name, spy.calls)
			}
		}
	}
	if w.ran("codex") || w.ran("claude") {
		t.Fatal("a client was started")
	}
	if _, err := os.Lstat(filepath.Join(w.home, ".codex", "roles-runtime")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("roles-runtime created: %v", err)
	}
}

// spec: X2 — a client missing from PATH refuses launch with a hint; the temporary Claude
// directory is removed all the same.
func TestSessionClientNotOnPath(t *testing.T) {
	w := newSessionWorld(t)
	t.Setenv("PATH", filepath.Join(w.tmp, "nothing-here"))
	for _, tc := range []struct{ provider, binary string }{{"codex", "codex"}, {"claude-code", "claude"}} {
		code, _, stderr := w.run(nil, "session", "--provider", tc.provider, "--profile", "dev")
		if code != exitFailed || !strings.Contains(stderr, "mcpwire: error: launch refused: "+tc.binary+" not found on PATH\nmcpwire: hint: ") {
			t.Errorf("%s: exit %d, stderr %q", tc.provider, code, stderr)
		}
	}
	if got := w.tmpEntries(); len(got) != 0 {
		t.Errorf("temporary directory left behind: %v", got)
	}
}

// unreadableRecordsFS is the real filesystem except that Claude permission records
// cannot be read.
type unreadableRecordsFS struct{ fsys.FS }

func (u unreadableRecordsFS) ReadFile(name string) ([]byte, error) {
	if strings.Contains(filepath.ToSlash(name), "/claude-tool-permissions/") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return u.FS.ReadFile(name)
}

// spec: X2 C5 — a setup failure after the temporary directory was made (here: the
// sidecar's record cannot be read) refuses launch and leaves no temporary directory.
func TestSessionSetupFailureRemovesTempDir(t *testing.T) {
	w := newSessionWorld(t)
	code, stdout, stderr := w.run(unreadableRecordsFS{fsys.NewOS()}, "session", "--provider", "claude-code", "--profile", "dev")
	if code != exitFailed || !strings.Contains(stderr, "mcpwire: error: launch refused: ") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if w.ran("claude") || stdout != "" {
		t.Fatalf("claude was started: %q", stdout)
	}
	if got := w.tmpEntries(); len(got) != 0 {
		t.Fatalf("temporary directory left behind: %v", got)
	}
}
