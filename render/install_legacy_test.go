package render_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/fsys/fsystest"
	"github.com/mcpwire/mcpwire/internal/winetest"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// legacySettings is a project's .claude/settings.local.json as older AIWG left it: the
// built-in entry beside a custom server, permissions, preferences and a comment.
const legacySettings = `{
  // local settings
  "permissions": {"allow": ["Bash(npm test)"]},
  "preferences": {"theme": "dark"},
  "mcpServers": {
    "aiwg": {"command": "aiwg", "args": ["mcp", "serve"], "env": {"AIWG_ROOT": "/old/aiwg"}},
    "notes": {"command": "notes-mcp"}
  }
}
`

// builtinEntry is install's built-in server (I2), as cmd/mcpwire builds it.
func builtinEntry(env map[string]string) *registry.Server {
	return &registry.Server{Name: write.BuiltinName, Type: registry.Stdio, Command: "aiwg", Args: []string{"mcp", "serve"}, Env: env}
}

// installRequest is install's request for a Claude target: the built-in entry (P8
// exemption for AIWG_ROOT) with the project's legacy settings file as migration source.
func installRequest(w *world, provider string) write.Request {
	r := w.request(provider, "", "")
	r.Servers = []string{write.BuiltinName}
	r.Install.Extra = []*registry.Server{builtinEntry(nil)}
	r.Install.Exempt = map[string]map[string]bool{write.BuiltinName: {"AIWG_ROOT": true}}
	r.Install.Legacy = filepath.Join(w.project, ".claude", "settings.local.json")
	return r
}

// ownershipRecordOf computes the C6 record path of a destination independently of
// render: sha256 of the canonical path.
func ownershipRecordOf(t *testing.T, w *world, dest string) string {
	t.Helper()
	canon, err := fsys.Canonical(dest)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(canon))
	return filepath.Join(w.layer, render.OwnershipDir, hex.EncodeToString(sum[:])+".json")
}

// legacyScenario sets up a world for one install with migration and returns the
// request and the files it writes, in transaction order.
type legacyScenario struct {
	name  string
	setup func(t *testing.T, w *world) (write.Request, []string)
}

func legacyInstall(provider string, existing bool) func(t *testing.T, w *world) (write.Request, []string) {
	return func(t *testing.T, w *world) (write.Request, []string) {
		p := w.provider(provider)
		dest := w.dest(p, p.DefaultScope)
		legacy := filepath.Join(w.project, ".claude", "settings.local.json")
		w.place(legacy, []byte(legacySettings))
		chmod0(t, legacy, 0o640)
		if existing {
			w.place(dest, []byte(`{"preferences": {"sidebarMode": "chat"}, "mcpServers": {"other": {"command": "other-mcp", "args": []}}}`+"\n"))
			chmod0(t, dest, 0o604)
		}
		rec := ownershipRecordOf(t, w, dest)
		// the staged record goes first, and is removed after (docs/writes.md)
		return installRequest(w, provider), []string{rec + ".staged", dest, legacy, rec}
	}
}

func chmod0(t *testing.T, path string, mode fs.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

var legacyScenarios = []legacyScenario{
	{"claude-code, new .mcp.json", legacyInstall("claude-code", false)},
	{"claude-code, existing .mcp.json", legacyInstall("claude-code", true)},
	{"claude-desktop, new platform file", legacyInstall("claude-desktop", false)},
	{"claude-desktop, existing platform file", legacyInstall("claude-desktop", true)},
}

// TestInstallLegacyTransaction proves that the destination and the legacy settings
// file are one transaction (I4, W7): a run without faults writes the destination, then
// the legacy file (the built-in entry gone, the rest kept), then the ownership record;
// failing each of those writes in turn, once before any byte is written and once at
// the rename, fails the install with the injected fault and leaves the whole world as
// it was: both files' content and mode restored (or the new file gone; directories
// it created stay, empty: fsys.Apply), and no ownership record.
//
// spec: I4 W7 W3 W9 C6
func TestInstallLegacyTransaction(t *testing.T) {
	for _, sc := range legacyScenarios {
		t.Run(sc.name, func(t *testing.T) {
			w := newWorld(t)
			req, order := sc.setup(t, w)
			ok := &fsystest.Faulty{}
			if _, err := write.Inject(ok, req); err != nil {
				t.Fatalf("without faults: %v", err)
			}
			if got := writtenPaths(ok.Calls()); !slices.Equal(got, order) {
				t.Fatalf("writes without faults:\n%s\nwant, in this order:\n%s", strings.Join(got, "\n"), strings.Join(order, "\n"))
			}
			legacy := read(t, order[2])
			if strings.Contains(string(legacy), `"aiwg"`) || !strings.Contains(string(legacy), `"notes"`) ||
				!strings.Contains(string(legacy), "// local settings") || !strings.Contains(string(legacy), `"permissions"`) {
				t.Errorf("legacy file after the migration:\n%s", legacy)
			}
			if dest := read(t, order[1]); !strings.Contains(string(dest), `"aiwg"`) {
				t.Errorf("destination has no aiwg entry:\n%s", dest)
			}
			for n := 1; n <= len(order); n++ {
				for _, stage := range []string{fsystest.StageWrite, fsystest.StageRename} {
					t.Run(fmt.Sprintf("write %d (%s) %s", n, filepath.Base(order[n-1]), stage), func(t *testing.T) {
						w := newWorld(t)
						req, _ := sc.setup(t, w)
						root := filepath.Dir(w.home)
						before := treeState(t, root)
						f := &fsystest.Faulty{FailWrite: n, WriteStage: stage}
						_, err := write.Inject(f, req)
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

// TestInstallLegacyRefusedBeforeWriting: a malformed legacy file, a symlinked one, one
// whose mcpServers is not an object, and a symlinked .claude directory are refused
// before anything is written (no write, no mkdir, no lock), naming the file.
//
// spec: I4 W2 W5 W7
func TestInstallLegacyRefusedBeforeWriting(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, w *world, legacy string)
		want  string
	}{
		{"malformed", func(t *testing.T, w *world, legacy string) {
			w.place(legacy, []byte(`{"mcpServers": {"aiwg": {"command": "aiwg", "args": ["mcp", "serve"]}}`))
		}, "invalid JSON"},
		{"mcpServers not an object", func(t *testing.T, w *world, legacy string) {
			w.place(legacy, []byte(`{"mcpServers": ["aiwg"]}`))
		}, `"mcpServers" must be an object`},
		{"symlinked file", func(t *testing.T, w *world, legacy string) {
			real := filepath.Join(w.project, "real.json")
			w.place(real, []byte(`{"mcpServers": {"aiwg": {"command": "aiwg", "args": ["mcp", "serve"]}}}`))
			if err := os.MkdirAll(filepath.Dir(legacy), 0o755); err != nil {
				t.Fatal(err)
			}
			winetest.Skip(t, winetest.Symlinks)
			if err := os.Symlink(real, legacy); err != nil {
				t.Fatal(err)
			}
		}, "is a symlink"},
		{"symlinked .claude", func(t *testing.T, w *world, legacy string) {
			real := filepath.Join(w.project, "elsewhere")
			w.place(filepath.Join(real, "settings.local.json"), []byte(`{"mcpServers": {"aiwg": {"command": "aiwg", "args": ["mcp", "serve"]}}}`))
			winetest.Skip(t, winetest.Symlinks)
			if err := os.Symlink(real, filepath.Dir(legacy)); err != nil {
				t.Fatal(err)
			}
		}, "is a symlink"},
	}
	for _, provider := range []string{"claude-code", "claude-desktop"} {
		for _, c := range cases {
			t.Run(provider+" "+c.name, func(t *testing.T) {
				w := newWorld(t)
				req := installRequest(w, provider)
				c.setup(t, w, req.Install.Legacy)
				root := filepath.Dir(w.home)
				before := treeState(t, root)
				f := &fsystest.Faulty{}
				_, err := write.Inject(f, req)
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Join(w.project, ".claude")) {
					t.Fatalf("error %v, want a refusal naming the legacy file: %s", err, c.want)
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

// TestInstallBuiltinExemption: AIWG_ROOT on the built-in entry is a path, not a
// credential (P8). Through the Go API, under the strictest policy and at project scope
// (where P7 refuses literal env values in committed files), the built-in entry with
// env.AIWG_ROOT is written. The exemption is exactly that key on exactly that entry:
// another key on the built-in entry, AIWG_ROOT on another server, and the built-in
// entry without the exemption are refused, naming server and field, never the value.
//
// spec: P8 P7 P1 P6 P10
func TestInstallBuiltinExemption(t *testing.T) {
	none := policy.None
	exempt := map[string]map[string]bool{write.BuiltinName: {"AIWG_ROOT": true}}
	cases := []struct {
		name   string
		policy *policy.Level
		extra  []*registry.Server
		exempt map[string]map[string]bool
		want   string // "" = written
	}{
		{"P7 project scope", nil, []*registry.Server{builtinEntry(map[string]string{"AIWG_ROOT": "/opt/aiwg"})}, exempt, ""},
		{"policy none", &none, []*registry.Server{builtinEntry(map[string]string{"AIWG_ROOT": "/opt/aiwg"})}, exempt, ""},
		{"another key, P7", nil, []*registry.Server{builtinEntry(map[string]string{"AIWG_ROOT": "/opt/aiwg", "AIWG_TOKEN": "s3cret"})}, exempt,
			"project scope (a committed file) refuses aiwg (env.AIWG_TOKEN)"},
		{"another key, policy none", &none, []*registry.Server{builtinEntry(map[string]string{"AIWG_ROOT": "/opt/aiwg", "AIWG_TOKEN": "s3cret"})}, exempt,
			`credential policy "none" refuses aiwg (env.AIWG_TOKEN)`},
		{"another entry", nil, []*registry.Server{builtinEntry(nil), {Name: "other", Type: registry.Stdio, Command: "other-mcp", Env: map[string]string{"AIWG_ROOT": "/opt/aiwg"}}}, exempt,
			"refuses other (env.AIWG_ROOT)"},
		{"no exemption", &none, []*registry.Server{builtinEntry(map[string]string{"AIWG_ROOT": "/opt/aiwg"})}, nil,
			`credential policy "none" refuses aiwg (env.AIWG_ROOT)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			r := w.request("claude-code", providers.Project, "")
			r.Policy = c.policy
			r.Install.Extra = c.extra
			r.Install.Exempt = c.exempt
			for _, s := range c.extra {
				r.Servers = append(r.Servers, s.Name)
			}
			expectExemption(t, r, filepath.Dir(w.home), c.want)
		})
	}
}
