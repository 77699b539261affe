package render_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
)

// spyFS records every call; with fail set, each call also fails the test. It proves
// that RuntimeHome touches no file before its early refusals.
type spyFS struct {
	t     *testing.T
	inner fsys.FS
	fail  bool

	mu    sync.Mutex
	calls []string
}

var errSpy = errors.New("spyFS: no filesystem access expected")

func (s *spyFS) call(op, name string) error {
	s.mu.Lock()
	s.calls = append(s.calls, op+" "+name)
	s.mu.Unlock()
	if s.fail {
		s.t.Errorf("unexpected filesystem access: %s %s", op, name)
		return errSpy
	}
	return nil
}

func (s *spyFS) ReadFile(n string) ([]byte, error) {
	if err := s.call("ReadFile", n); err != nil {
		return nil, err
	}
	return s.inner.ReadFile(n)
}

func (s *spyFS) Lstat(n string) (fs.FileInfo, error) {
	if err := s.call("Lstat", n); err != nil {
		return nil, err
	}
	return s.inner.Lstat(n)
}

func (s *spyFS) Stat(n string) (fs.FileInfo, error) {
	if err := s.call("Stat", n); err != nil {
		return nil, err
	}
	return s.inner.Stat(n)
}

func (s *spyFS) ReadDir(n string) ([]fs.DirEntry, error) {
	if err := s.call("ReadDir", n); err != nil {
		return nil, err
	}
	return s.inner.ReadDir(n)
}

func (s *spyFS) EvalSymlinks(n string) (string, error) {
	if err := s.call("EvalSymlinks", n); err != nil {
		return "", err
	}
	return s.inner.EvalSymlinks(n)
}

func (s *spyFS) WriteFile(n string, d []byte, p fs.FileMode, o *fsys.WriteOptions) error {
	if err := s.call("WriteFile", n); err != nil {
		return err
	}
	return s.inner.WriteFile(n, d, p, o)
}

func (s *spyFS) Mkdir(n string, p fs.FileMode) error {
	if err := s.call("Mkdir", n); err != nil {
		return err
	}
	return s.inner.Mkdir(n, p)
}

func (s *spyFS) MkdirTemp(d, p string) (string, error) {
	if err := s.call("MkdirTemp", d); err != nil {
		return "", err
	}
	return s.inner.MkdirTemp(d, p)
}

func (s *spyFS) Remove(n string) error {
	if err := s.call("Remove", n); err != nil {
		return err
	}
	return s.inner.Remove(n)
}

func (s *spyFS) Chmod(n string, p fs.FileMode) error {
	if err := s.call("Chmod", n); err != nil {
		return err
	}
	return s.inner.Chmod(n, p)
}

func (s *spyFS) Symlink(o, n string) error {
	if err := s.call("Symlink", n); err != nil {
		return err
	}
	return s.inner.Symlink(o, n)
}

func (s *spyFS) Lock(n string) (func() error, error) {
	if err := s.call("Lock", n); err != nil {
		return nil, err
	}
	return s.inner.Lock(n)
}

// codexWorld is a scratch home with a Codex home and a one-layer registry.
type codexWorld struct {
	home, codexHome string
	req             write.Request
}

func newCodexWorld(t *testing.T, global string) *codexWorld {
	t.Helper()
	root := t.TempDir()
	w := &codexWorld{home: filepath.Join(root, "home")}
	w.codexHome = filepath.Join(w.home, ".codex")
	layer := filepath.Join(w.home, ".aiwg")
	files := map[string]string{
		filepath.Join(layer, "mcp-servers.json"): `{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {
  "docs": {"type": "stdio", "command": "docs-mcp", "envFrom": {"DOCS_TOKEN": "DOCS_TOKEN"}}}}`,
		filepath.Join(layer, "mcp-profiles.json"): `{"apiVersion": "aiwg.io/v1", "kind": "McpProfileRegistry", "profiles": {
  "dev": {"servers": ["docs"], "providerOverrides": {"*": {"toolDeny": ["docs__rm"]}}}}}`,
	}
	if global != "" {
		files[filepath.Join(w.codexHome, "config.toml")] = global
	}
	for p, c := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg, err := registry.Open(fsys.NewOS(), layers.Config{Dirs: []string{layer}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Resolve("dev")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := providers.Get("codex")
	env := map[string]string{"CODEX_HOME": w.codexHome}
	w.req = write.Request{
		Registry: reg, Provider: p, Project: root, Servers: res.Servers, Filters: res.Filters, Profile: "dev",
		Env:  providers.PathEnv{GOOS: runtime.GOOS, Home: w.home, Project: root, Getenv: func(k string) string { return env[k] }},
		Warn: func(string) {},
	}
	return w
}

// spec: X1 — a name that could leave roles-runtime, or is outside [a-z0-9-], is refused
// before any filesystem access; a valid name on the same spy does reach the filesystem
// (so the spy would have seen a missing check).
func TestRuntimeHomeUnsafeNameBeforeAnyFilesystemAccess(t *testing.T) {
	w := newCodexWorld(t, "model = \"o3\"\n")
	abs := filepath.Join(w.home, "abs")
	for _, name := range []string{"", ".", "..", "../x", "a/b", `a\b`, "/abs", abs, "x/../y", "Dev", "a b", "a_b", "dev\n", "é"} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			spy := &spyFS{t: t, inner: fsys.NewOS(), fail: true}
			res, err := write.RuntimeHome(spy, w.req, name)
			if err == nil || !strings.Contains(err.Error(), "invalid runtime home name") {
				t.Fatalf("RuntimeHome(%q) = %v, %v; want an invalid-name error", name, res, err)
			}
			if len(spy.calls) > 0 {
				t.Fatalf("filesystem calls before the refusal: %v", spy.calls)
			}
		})
	}
	if _, err := os.Lstat(filepath.Join(w.codexHome, write.RuntimeDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("roles-runtime exists after refusals: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(w.codexHome, "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a runtime home escaped roles-runtime: %v", err)
	}
	// the control: a valid name goes through the spy
	spy := &spyFS{t: t, inner: fsys.NewOS()}
	res, err := write.RuntimeHome(spy, w.req, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if len(spy.calls) == 0 {
		t.Fatal("the spy saw no call for a valid name")
	}
	if want := filepath.Join(w.codexHome, write.RuntimeDir, "dev"); res.Home != want {
		t.Fatalf("Home = %s, want %s", res.Home, want)
	}
	for _, n := range []string{"dev", "a-1", "0"} {
		if !write.ValidRuntimeName(n) {
			t.Errorf("ValidRuntimeName(%q) = false", n)
		}
	}
}

// spec: P6 X1 — a credential-policy refusal comes before any filesystem access, so no
// runtime home is created.
func TestRuntimeHomePolicyRefusalBeforeAnyFilesystemAccess(t *testing.T) {
	w := newCodexWorld(t, "model = \"o3\"\n")
	none := policy.None
	w.req.Policy = &none
	spy := &spyFS{t: t, inner: fsys.NewOS(), fail: true}
	_, err := write.RuntimeHome(spy, w.req, "dev")
	var pe *policy.Error
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a policy refusal", err)
	}
	if len(spy.calls) > 0 {
		t.Fatalf("filesystem calls before the refusal: %v", spy.calls)
	}
}

// spec: X1 W1 — a global config without a final newline, and CRLF endings, still give a
// well-formed runtime config: the servers start on their own line, the global's line
// endings are kept.
func TestRuntimeHomeGlobalWithoutFinalNewline(t *testing.T) {
	for _, tc := range []struct{ name, global, want string }{
		{"lf", "model = \"o3\"\n[mcp_servers.x]\ncommand = \"x\"\n[tui]\nnotifications = true",
			"model = \"o3\"\n[tui]\nnotifications = true\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = []\nenv_vars = [\"DOCS_TOKEN\"]\ndisabled_tools = [\"rm\"]\n"},
		{"crlf", "model = \"o3\"\r\nmcp_servers.x.command = \"x\"\r\n# last",
			"model = \"o3\"\r\n# last\r\n\r\n[mcp_servers.docs]\r\ncommand = \"docs-mcp\"\r\nargs = []\r\nenv_vars = [\"DOCS_TOKEN\"]\r\ndisabled_tools = [\"rm\"]\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newCodexWorld(t, tc.global)
			res, err := write.RuntimeHome(fsys.NewOS(), w.req, "dev")
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(res.Config)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("runtime config:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}
