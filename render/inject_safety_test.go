package render_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
)

// layeredRegistry opens an organisation layer (with the given credentialPolicy, "" for
// none) under a write layer, both holding the given servers files.
func layeredRegistry(t *testing.T, root, orgPolicy, orgServers, meServers string) *registry.Registry {
	t.Helper()
	org, me := filepath.Join(root, "org"), filepath.Join(root, "me")
	pol := ""
	if orgPolicy != "" {
		pol = `"credentialPolicy": "` + orgPolicy + `", `
	}
	for dir, body := range map[string]string{org: "{" + pol + `"servers": ` + orgServers + "}", me: `{"servers": ` + meServers + "}"} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "mcp-servers.json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	reg, err := registry.Open(fsys.NewOS(), layers.Config{Dirs: []string{org, me}, Layered: true})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestInjectAPIEnforcesPolicy calls write.Inject directly, as a Go caller would, with
// no policy at all (nil Policy, no environment value): the organisation floor still
// applies, and so does the project-scope rule, and nothing is written.
//
// spec: P10 P1 P2 P6 P7
func TestInjectAPIEnforcesPolicy(t *testing.T) {
	const servers = `{
		"lit": {"command": "lit-mcp", "env": {"API_KEY": "sk-live-API"}},
		"refs": {"command": "refs-mcp", "envFrom": {"KEY": "KEY"}},
		"argy": {"command": "argy-mcp", "args": ["--token=sk-live-ARG"]}
	}`
	home := func(t *testing.T) (string, providers.PathEnv, string) {
		root := t.TempDir()
		project := filepath.Join(root, "repo")
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		env := providers.PathEnv{GOOS: runtime.GOOS, Home: filepath.Join(root, "home"), Project: project, Getenv: func(string) string { return "" }}
		return root, env, project
	}
	cases := []struct {
		name, orgPolicy, provider string
		scope                     providers.Scope
		servers                   []string
		want                      string // "" = allowed
	}{
		{"floor references, user scope", "references", "codex", providers.User, []string{"lit", "refs"},
			`credential policy "references" refuses lit (env.API_KEY)`},
		{"floor none refuses references", "none", "codex", providers.User, []string{"refs"},
			`credential policy "none" refuses refs (envFrom)`},
		{"no floor: literal in a user file", "", "codex", providers.User, []string{"lit", "argy"}, ""},
		{"no floor: project scope still refuses literals", "", "cursor", providers.Project, []string{"lit", "argy", "refs"},
			"project scope (a committed file) refuses lit (env.API_KEY), argy (args --token)"},
		{"no floor: references in a project file", "", "cursor", providers.Project, []string{"refs"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, env, project := home(t)
			reg := layeredRegistry(t, root, c.orgPolicy, servers, `{}`)
			p, _ := providers.Get(c.provider)
			before := treeState(t, root)
			res, err := write.Inject(fsys.NewOS(), write.Request{
				Registry: reg, Provider: p, Scope: c.scope, Project: project, Servers: c.servers, Env: env,
			})
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if len(res.Changed) == 0 {
					t.Fatalf("nothing written")
				}
				return
			}
			if err == nil {
				t.Fatalf("written to %s; want a refusal", res.Destination)
			}
			var pe *policy.Error
			if !errors.As(err, &pe) {
				t.Errorf("error %T, want *policy.Error", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "sk-live-") {
				t.Errorf("the error shows a value: %v", err)
			}
			if after := treeState(t, root); !maps.Equal(before, after) {
				t.Errorf("a refused injection wrote files: %v", keys(after))
			}
		})
	}
}

// TestProjectRefusalHint: the P7 refusal names the provider's private user-scope file
// when it has one, and otherwise points at --header-env/--env-from.
//
// spec: P7
func TestProjectRefusalHint(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "repo")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	env := providers.PathEnv{GOOS: runtime.GOOS, Home: filepath.Join(root, "home"), Project: project, Getenv: func(string) string { return "" }}
	reg := layeredRegistry(t, root, "", `{}`, `{"web": {"type": "http", "url": "https://w.example/mcp", "headers": {"X-Key": "sk-live-H"}}}`)
	cursor, _ := providers.Get("cursor")
	projectOnly := *cursor
	projectOnly.User = nil
	for _, c := range []struct {
		p    *providers.Provider
		want string
	}{
		{cursor, "write them to Cursor's private file instead: --scope user (" + filepath.Join(env.Home, ".cursor", "mcp.json") + ")"},
		{&projectOnly, "keep secrets out of committed files: reference variables with server update NAME --env-from K=VAR or --header-env H=VAR"},
	} {
		_, err := write.Inject(fsys.NewOS(), write.Request{Registry: reg, Provider: c.p, Project: project, Servers: []string{"web"}, Env: env})
		var h interface{ Hints() []string }
		if !errors.As(err, &h) {
			t.Fatalf("error %v has no hint", err)
		}
		if got := strings.Join(h.Hints(), "\n"); !strings.Contains(got, c.want) {
			t.Errorf("hint %q, want %q", got, c.want)
		}
		if !strings.Contains(err.Error(), "web (headers.X-Key)") {
			t.Errorf("error %q does not name server and field", err)
		}
	}
}

// TestSymlinkedDestinationRefused: for every provider and scope, a destination that is a
// symlink is refused and neither the link nor its target changes; in project scope a
// symlinked directory between the project root and the file is refused too, while a
// symlinked project root is allowed; in user scope symlinked parents are allowed.
//
// spec: W5 W2
func TestSymlinkedDestinationRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	for _, p := range providers.All() {
		for _, scope := range p.Scopes() {
			if only := p.Dest(scope).Only; only != "" && only != runtime.GOOS {
				continue // no such file on this OS (TestOnlyOnOneOS)
			}
			t.Run(p.Name+"/"+string(scope), func(t *testing.T) {
				w := newWorld(t)
				path := w.dest(p, scope)
				target := filepath.Join(filepath.Dir(w.home), "elsewhere")
				orig := []byte("{}\n")
				if p.Format == format.TOML {
					orig = []byte("# elsewhere\n")
				}
				w.place(target, orig)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
				before := treeState(t, filepath.Dir(w.home))
				_, err := write.Inject(fsys.NewOS(), w.request(p.Name, scope, "", "fetch"))
				if !errors.Is(err, fsys.ErrSymlink) {
					t.Fatalf("error %v, want a symlink refusal", err)
				}
				if !strings.Contains(err.Error(), path) {
					t.Errorf("error %q does not name %s", err, path)
				}
				if after := treeState(t, filepath.Dir(w.home)); !maps.Equal(before, after) {
					t.Errorf("files changed: %v", keys(after))
				}
				if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("the symlink is gone")
				}
			})
		}
	}
	// parents: project scope refuses a symlinked directory below the root, and allows a
	// symlinked root; user scope allows symlinked parents
	for _, p := range providers.All() {
		if p.Project != nil && len(p.Project.Dir) > 0 {
			t.Run(p.Name+"/project parent", func(t *testing.T) {
				w := newWorld(t)
				real := filepath.Join(filepath.Dir(w.home), "real-dir")
				if err := os.MkdirAll(real, 0o755); err != nil {
					t.Fatal(err)
				}
				link := filepath.Join(w.project, p.Project.Dir[0])
				if err := os.Symlink(real, link); err != nil {
					t.Fatal(err)
				}
				_, err := write.Inject(fsys.NewOS(), w.request(p.Name, providers.Project, "", "fetch"))
				if !errors.Is(err, fsys.ErrSymlink) || !strings.Contains(err.Error(), link) {
					t.Fatalf("error %v, want a symlink refusal naming %s", err, link)
				}
				if entries, _ := os.ReadDir(real); len(entries) > 0 {
					t.Errorf("written through the symlinked directory: %v", entries)
				}
			})
		}
		if p.Project != nil {
			t.Run(p.Name+"/project root", func(t *testing.T) {
				w := newWorld(t)
				link := filepath.Join(filepath.Dir(w.home), "linked-repo")
				if err := os.Symlink(w.project, link); err != nil {
					t.Fatal(err)
				}
				r := w.request(p.Name, providers.Project, "", "fetch")
				r.Project = link
				res, err := write.Inject(fsys.NewOS(), r)
				if err != nil {
					t.Fatalf("a symlinked project root was refused: %v", err)
				}
				if !strings.HasPrefix(res.Destination, link) {
					t.Errorf("destination %s not under %s", res.Destination, link)
				}
			})
		}
		if p.User != nil && len(p.User.Dir) > 0 && p.User.Base == providers.Home {
			t.Run(p.Name+"/user parent", func(t *testing.T) {
				w := newWorld(t)
				real := filepath.Join(filepath.Dir(w.home), "dotfiles")
				if err := os.MkdirAll(real, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(real, filepath.Join(w.home, p.User.Dir[0])); err != nil {
					t.Fatal(err)
				}
				res, err := write.Inject(fsys.NewOS(), w.request(p.Name, providers.User, "", "fetch"))
				if err != nil {
					t.Fatalf("a symlinked user-scope parent was refused: %v", err)
				}
				if len(res.Changed) == 0 {
					t.Errorf("nothing written")
				}
			})
		}
	}
}

// TestKeepFilters: an injection that carries no tool filters (inject --all, or --servers
// without a profile) refreshes the entries but keeps the filters already written: the
// same servers re-injected that way leave every file byte-identical, Claude's deny rules
// included; with filters explicitly cleared the filters go.
//
// spec: F3 W6 C4
func TestKeepFilters(t *testing.T) {
	for _, fx := range fixtures.All() {
		p, _ := providers.Get(fx.Provider)
		if fx.Role != fixtures.Servers || fx.Scope != string(p.DefaultScope) {
			continue
		}
		name, profile := fx.Provider, fx.Profile
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			first, err := write.Inject(fsys.NewOS(), w.request(name, "", profile))
			if err != nil {
				t.Fatal(err)
			}
			filtered := read(t, first.Destination)
			files := []string{first.Destination}
			if first.Settings != "" {
				files = append(files, first.Settings)
			}
			before := map[string][]byte{}
			for _, f := range files {
				before[f] = read(t, f)
			}
			r := w.request(name, "", "", first.Written...)
			r.Inject.KeepFilters = true
			res, err := write.Inject(fsys.NewOS(), r)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				if got := read(t, f); string(got) != string(before[f]) {
					t.Errorf("%s changed without filter information:\n%s", f, got)
				}
			}
			if len(res.Changed) > 0 {
				t.Errorf("changed %v", res.Changed)
			}
			if p.Name == "opencode" || p.Name == "kilo" || p.Owner == providers.OwnerKeepExisting {
				return // filters outside the entries, or entries kept as they are
			}
			// the same servers without filters, into a fresh file: when that differs, the
			// profile's filters are in the entries, and clearing them must change the file
			bare := newWorld(t)
			plain, err := write.Inject(fsys.NewOS(), bare.request(name, "", "", first.Written...))
			if err != nil {
				t.Fatal(err)
			}
			hasFilters := first.Settings != "" || string(bare.normalize(read(t, plain.Destination))) != string(w.normalize(filtered))
			// without KeepFilters (--clear-tool-filters): the filters are removed
			r.Inject.KeepFilters = false
			if _, err := write.Inject(fsys.NewOS(), r); err != nil {
				t.Fatal(err)
			}
			changed := false
			for _, f := range files {
				now, err := os.ReadFile(f) // a file mcpwire created may go with its filters (H7)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				changed = changed || string(now) != string(before[f])
			}
			if changed != hasFilters {
				t.Errorf("%s: clearing the filters changed the files: %v; the profile wrote filters: %v", name, changed, hasFilters)
			}
		})
	}
}
