package registry

import (
	"encoding/json"
	"github.com/mcpwire/mcpwire/fixtures"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
)

// fixture is a set of layer directories under a temporary root.
type fixture struct {
	t    *testing.T
	root string
	dirs []string
}

// newFixture writes files ("org/mcp-servers.json" → content) and names the layers,
// lowest first.
func newFixture(t *testing.T, layerNames []string, files map[string]string) *fixture {
	t.Helper()
	root := t.TempDir()
	fixtures.WriteFiles(t, root, files)
	f := &fixture{t: t, root: root}
	for i, n := range layerNames {
		f.dirs = append(f.dirs, filepath.Join(root, n))
		if i < len(layerNames)-1 {
			// a lower layer must exist (L13); the write layer may be missing
			if err := os.MkdirAll(f.dirs[i], 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

func (f *fixture) path(p string) string { return filepath.Join(f.root, p) }

func (f *fixture) open() (*Registry, []string, error) {
	var warnings []string
	r, err := Open(fsys.NewOS(), layers.Config{Dirs: f.dirs, Layered: len(f.dirs) > 1})
	if r != nil {
		r.Warn = func(s string) { warnings = append(warnings, s) }
		r.Now = func() string { return "2026-01-02T03:04:05Z" }
	}
	return r, warnings, err
}

// load opens the registry and fails the test on error. The returned pointer sees
// the warnings of later calls.
func (f *fixture) load() (*Registry, *[]string) {
	f.t.Helper()
	r, err := Open(fsys.NewOS(), layers.Config{Dirs: f.dirs, Layered: len(f.dirs) > 1})
	if err != nil {
		f.t.Fatal(err)
	}
	warnings := &[]string{}
	r.Warn = func(s string) { *warnings = append(*warnings, s) }
	r.Now = func() string { return "2026-01-02T03:04:05Z" }
	return r, warnings
}

func (f *fixture) read(p string) string {
	f.t.Helper()
	b, err := os.ReadFile(f.path(p))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

// tree is the state of every file and directory under the root (fixtures.TreeState).
func (f *fixture) tree() map[string]string { return fixtures.Tree(f.t, f.root) }

// sameTree fails the test for every change since before.
func (f *fixture) sameTree(before map[string]string) {
	f.t.Helper()
	fixtures.SameTree(f.t, before, f.tree())
}

// view is the whole merged view of a registry as JSON: every effective server and
// profile with its origin, the floor and the personal policy.
func view(t *testing.T, r *Registry) string {
	t.Helper()
	type entry struct {
		Value  any
		Origin string
	}
	v := map[string]any{}
	for _, n := range r.ServerNames() {
		s, _ := r.Server(n)
		v["server "+n] = entry{s, r.ServerOrigin(n)}
	}
	for _, n := range r.ProfileNames() {
		p, _ := r.Profile(n)
		v["profile "+n] = entry{p, r.ProfileOrigin(n)}
	}
	v["floor"] = r.Floor()
	v["personal"] = r.PersonalPolicy()
	v["layers"] = r.Layers()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// object decodes a JSON object for comparisons.
func object(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("%v in %s", err, s)
	}
	return m
}

// fileEntry returns one entry of a layer file, decoded.
func (f *fixture) fileEntry(p, coll, name string) map[string]any {
	f.t.Helper()
	std := stdJSON(f.t, f.read(p))
	m := object(f.t, std)
	c, _ := m[coll].(map[string]any)
	e, _ := c[name].(map[string]any)
	return e
}

// stdJSON strips // line comments (test files only use those).
func stdJSON(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "//"); i >= 0 && !strings.Contains(line[:i], `"`) {
			line = line[:i]
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

func contains(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q lacks %q", err.Error(), p)
		}
	}
}

// testClients stands for the client list, which the registry does not import: a few
// names and one alias, as providerOverrides keys of these tests name them.
var testClients = map[string]string{"claude-code": "claude-code", "claude": "claude-code", "codex": "codex", "cursor": "cursor", "opencode": "opencode", "copilot-cli": "copilot-cli", "copilot": "copilot-cli", "openai": "codex"}

func init() {
	UseClients(func(key string) (string, bool) {
		if key == AllProviders {
			return key, true
		}
		n, ok := testClients[key]
		if !ok {
			return key, false
		}
		return n, true
	})
}
