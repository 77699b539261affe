package render_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
	"github.com/rogpeppe/go-internal/txtar"
)

// go test ./render -run Golden -update (or MCPWIRE_UPDATE=1) rewrites the goldens.
var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func updating() bool { return *update || os.Getenv("MCPWIRE_UPDATE") == "1" }

// projectMark stands for the temporary project directory in goldens.
const projectMark = "@PROJECT@"

// world is a scratch home, project and registry layer.
type world struct {
	t       testing.TB
	home    string
	project string
	layer   string
	env     providers.PathEnv
	warns   []string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	return newWorldIn(t, t.TempDir())
}

// newWorldIn is newWorld under root, emptied first (a world at the same paths again).
func newWorldIn(t testing.TB, root string) *world {
	t.Helper()
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "repo")}
	w.layer = filepath.Join(w.home, ".aiwg")
	for _, d := range []string{w.home, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := fixtures.WriteLayer(w.layer); err != nil {
		t.Fatal(err)
	}
	// no variable of the machine running the test leaks in
	w.env = providers.PathEnv{GOOS: runtime.GOOS, Home: w.home, Project: w.project, Getenv: func(string) string { return "" }}
	return w
}

// registry opens the layer afresh, as a new mcpwire process would.
func (w *world) registry() *registry.Registry {
	w.t.Helper()
	reg, err := registry.Open(fsys.NewOS(), layers.Config{Dirs: []string{w.layer}})
	if err != nil {
		w.t.Fatal(err)
	}
	reg.Warn = func(s string) { w.warns = append(w.warns, s) }
	return reg
}

func (w *world) provider(name string) *providers.Provider {
	w.t.Helper()
	p, ok := providers.Get(name)
	if !ok {
		w.t.Fatalf("no provider %q", name)
	}
	return p
}

// dest returns the servers file of a provider for a scope.
func (w *world) dest(p *providers.Provider, scope providers.Scope) string {
	w.t.Helper()
	path, _, err := render.Destination(fsys.NewOS(), p, scope, w.env)
	if err != nil {
		w.t.Fatal(err)
	}
	return path
}

// settingsDest returns Claude Code's settings file for a scope.
func (w *world) settingsDest(p *providers.Provider, scope providers.Scope) string {
	w.t.Helper()
	c, err := p.Settings[scope].Candidates(w.env)
	if err != nil {
		w.t.Fatal(err)
	}
	return c[0]
}

// padPlaced, when set, makes place give every JSON object it writes a first member
// holding padLen bytes, which an edit leaves untouched: a file edited in pieces
// (write.SetSpliceMin) then has a piece of its own to write, never joined (pieces
// under 4 KiB are copied together into one, jsonc.Doc.Pieces).
var padPlaced bool

const padLen = 8 << 10

// place writes content to path, creating its directories.
func (w *world) place(path string, content []byte) {
	w.t.Helper()
	if padPlaced && strings.HasSuffix(path, ".json") {
		content = padded(content)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// request builds the injection of a profile, as inject --profile does (a sync, B7), or
// of servers when profile is "".
func (w *world) request(provider string, scope providers.Scope, profile string, servers ...string) write.Request {
	w.t.Helper()
	reg := w.registry()
	r := write.Request{
		Registry: reg, Provider: w.provider(provider), Scope: scope, Project: w.project,
		Servers: servers, Env: w.env, Warn: func(s string) { w.warns = append(w.warns, s) },
	}
	if profile != "" {
		res, err := reg.Resolve(profile)
		if err != nil {
			w.t.Fatal(err)
		}
		// as inject --profile: a sync of what mcpwire owns there (B7)
		r.Servers, r.Filters, r.Profile, r.Inject.Sync = res.Servers, res.Filters, profile, true
	}
	return r
}

// projectKey is the project's key in a file shared by every project (Claude Code's
// projects map): its real path, with forward slashes on Windows.
func (w *world) projectKey() string {
	key, err := filepath.EvalSymlinks(w.project)
	if err != nil {
		w.t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		key = filepath.ToSlash(key)
	}
	return key
}

// fixture returns a fixture's content with projectMark replaced by the project's key.
func (w *world) fixture(name string) []byte {
	key, _ := json.Marshal(w.projectKey())
	return bytes.ReplaceAll(fixtures.File(name), []byte(`"`+projectMark+`"`), key)
}

// normalize replaces the temporary project directory with projectMark.
func (w *world) normalize(b []byte) []byte {
	if key := w.projectKey(); key != w.project {
		b = bytes.ReplaceAll(b, []byte(key), []byte(projectMark))
	}
	b = bytes.ReplaceAll(b, []byte(w.project), []byte(projectMark))
	if esc := strings.ReplaceAll(w.project, `\`, `\\`); esc != w.project {
		b = bytes.ReplaceAll(b, []byte(esc), []byte(projectMark))
	}
	return b
}

// slashAfterMark spells the paths under projectMark of a warning with forward
// slashes, as the golden files hold them: "@PROJECT@\.kiro\settings\mcp.json" on
// Windows is "@PROJECT@/.kiro/settings/mcp.json" there.
func slashAfterMark(b []byte) []byte {
	if filepath.Separator == '/' {
		return b
	}
	parts := bytes.Split(b, []byte(projectMark))
	for i := 1; i < len(parts); i++ {
		end := bytes.IndexAny(parts[i], " \t\n,;:()\"'")
		if end < 0 {
			end = len(parts[i])
		}
		copy(parts[i][:end], bytes.ReplaceAll(parts[i][:end], []byte{filepath.Separator}, []byte{'/'}))
	}
	return bytes.Join(parts, []byte(projectMark))
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// section is one part of a golden file: a file's content, or the warnings.
type section struct {
	name string
	data []byte
}

// noFinalNewline marks a section whose data does not end with a newline, which a
// txtar archive adds.
const noFinalNewline = " (no final newline)"

// golden compares the sections with testdata/golden/name.txtar, or rewrites it when
// updating: one file per fixture, whatever the injection wrote.
func golden(t *testing.T, name string, sections ...section) {
	t.Helper()
	var ar txtar.Archive
	for _, s := range sections {
		f := txtar.File{Name: s.name, Data: s.data}
		if len(s.data) > 0 && s.data[len(s.data)-1] != '\n' {
			f.Name += noFinalNewline
		}
		ar.Files = append(ar.Files, f)
	}
	got := txtar.Format(&ar)
	path := filepath.Join("testdata", "golden", filepath.FromSlash(name)+".txtar")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (MCPWIRE_UPDATE=1 go test ./render -run Golden writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (MCPWIRE_UPDATE=1 go test ./render -run Golden rewrites it after review)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

// goldenCase is one provider's injection into its fixture.
type goldenCase struct {
	// fixture is the servers file (fixtures.File name); its golden has the same name.
	fixture string
	// settings is the client's settings fixture of the same scope, placed before the
	// injection ("" when the file does not exist yet); withSettings: the client keeps
	// deny rules in a settings file, whose result is pinned too.
	settings     string
	withSettings bool
}

// TestGoldenInject injects each fixture's profile into every provider of the table that
// has a file, each at the scope its fixture stands for, and pins the result (the
// client file, the warnings, the settings file where deny rules go), the client's
// files on every system (its destinations: every scope's candidates, preferred first,
// on Linux, macOS and Windows; providers/dest_test.go resolves them with the
// variables that move them), and that nothing
// outside mcpwire's entries (and the members it records beside them, opencode's tools
// keys) changed. A second injection writes nothing. A provider without a fixture
// fails: every client with a file has a golden. Fixtures and goldens are found by
// their place (fixtures/files/<client>/…, testdata/golden/<client>/…).
//
// spec: V1 V3 V4 V6 R10 F1 F2 F3 F4 W1 W6 C1 C2 C6
func TestGoldenInject(t *testing.T) {
	for _, p := range providers.All() {
		var cases []goldenCase
		for _, fx := range fixtures.All() {
			if fx.Provider == p.Name && fx.Role == fixtures.Servers {
				gc := goldenCase{fixture: fx.Name, withSettings: p.Dialect().DenyRules() != nil && p.Settings[providers.Scope(fx.Scope)] != nil}
				for _, s := range fixtures.All() {
					if s.Provider == p.Name && s.Role == fixtures.Settings && s.Scope == fx.Scope {
						gc.settings = s.Name
					}
				}
				cases = append(cases, gc)
			}
		}
		if len(cases) == 0 && len(p.Scopes()) > 0 {
			t.Errorf("no golden fixture for %s", p.Name)
		}
		for _, gc := range cases {
			fx, _ := fixtures.Lookup(gc.fixture)
			t.Run(gc.fixture, func(t *testing.T) { runGolden(t, gc, fx) })
		}
	}
}

// destinations are the client's files on every system, each scope's candidates (and
// its settings file's) separated by " | ", with nothing set but the home directory: ~
// is the home directory, P the project, every path with "/".
func (w *world) destinations(p *providers.Provider) []byte {
	var b strings.Builder
	for _, goos := range []string{"linux", "darwin", "windows"} {
		env := providers.PathEnv{GOOS: goos, Home: w.home, Project: w.project, Getenv: func(string) string { return "" }}
		for _, s := range p.Scopes() {
			for _, d := range []struct {
				what string
				dest *providers.Dest
			}{{string(s), p.Dest(s)}, {string(s) + " settings", p.Settings[s]}} {
				if d.dest == nil {
					continue
				}
				c, err := d.dest.Candidates(env)
				if err != nil {
					c = []string{"(" + err.Error() + ")"}
				}
				for i, path := range c {
					path = strings.Replace(path, w.project, "P", 1)
					c[i] = filepath.ToSlash(strings.Replace(path, w.home, "~", 1))
				}
				fmt.Fprintf(&b, "%s %s: %s\n", goos, d.what, strings.Join(c, " | "))
			}
		}
	}
	return []byte(b.String())
}

// recordedMembers are the members beside the servers mcpwire wrote into a file and
// records there (opencode's tools keys: "tools:KEY"), as paths.
func (w *world) recordedMembers(p *providers.Provider, path string) [][]string {
	w.t.Helper()
	if p.Dialect().RecordMember() == "" {
		return nil
	}
	rec, _ := recordPathOf(w.t, w, render.OwnershipDir, path)
	data, err := os.ReadFile(rec)
	if err != nil {
		w.t.Fatal(err)
	}
	var r struct {
		Entries map[string]string `json:"entries"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		w.t.Fatal(err)
	}
	var out [][]string
	for k := range r.Entries {
		if member, key, ok := providers.RecordedMember(p.Dialect(), k); ok {
			out = append(out, []string{member, key})
		}
	}
	return out
}

func runGolden(t *testing.T, gc goldenCase, fx fixtures.Fixture) {
	w := newWorld(t)
	p := w.provider(fx.Provider)
	scope := providers.Scope(fx.Scope)
	if fx.Scope == string(p.DefaultScope) {
		scope = "" // the provider's default scope (V6) is the fixture's scope
	}
	path := w.dest(p, providers.Scope(fx.Scope))
	orig := w.fixture(gc.fixture)
	w.place(path, orig)
	var settingsPath string
	var settingsOrig []byte
	if gc.withSettings {
		settingsPath = w.settingsDest(p, providers.Scope(fx.Scope))
		if gc.settings != "" {
			settingsOrig = fixtures.File(gc.settings)
			w.place(settingsPath, settingsOrig)
		}
	}

	res, err := write.Inject(fsys.NewOS(), w.request(fx.Provider, scope, fx.Profile))
	if err != nil {
		t.Fatalf("inject: %v", err)
	}
	if res.Destination != path {
		t.Fatalf("destination %s, want %s", res.Destination, path)
	}
	if res.Scope != providers.Scope(fx.Scope) {
		t.Errorf("scope %s, want %s", res.Scope, fx.Scope)
	}
	got := read(t, path)
	sections := []section{{"file", w.normalize(got)}, {"warnings", slashAfterMark(w.normalize([]byte(strings.Join(w.warns, "\n") + "\n")))}}

	// W1: nothing outside mcpwire's entries changed
	switch {
	case p.Format == format.YAML || p.EntryName != "":
		checkEntriesPreserved(t, gc.fixture, p, orig, got, res.Written)
	case p.Format == format.TOML:
		checkTOMLPreserved(t, gc.fixture, orig, got, p.ServersKey, res.Written)
	default:
		var affected [][]string
		servers := p.Dest(providers.Scope(fx.Scope)).ServersPath(p.ServersKey, w.projectKey())
		for _, n := range res.Written {
			affected = append(affected, append(slices.Clone(servers), n))
		}
		affected = append(affected, w.recordedMembers(p, path)...)
		checkJSONPreserved(t, gc.fixture, orig, got, affected)
		if p.Format == format.JSON && !json.Valid(got) {
			t.Errorf("%s: %s takes strict JSON, and the result is not", gc.fixture, p.Display)
		}
	}
	var settingsGot []byte
	if settingsPath != "" {
		settingsGot = read(t, settingsPath)
		sections = append(sections, section{"settings", w.normalize(settingsGot)})
		if settingsOrig != nil {
			checkJSONPreserved(t, gc.settings, settingsOrig, settingsGot, [][]string{{"permissions", "deny"}})
		}
		if !json.Valid(settingsGot) {
			t.Errorf("%s is not strict JSON", settingsPath)
		}
	}
	sections = append(sections, section{"destinations", w.destinations(p)})
	golden(t, gc.fixture, sections...)

	// W6: the same injection again writes nothing (same inode, same mtime)
	files := []string{path}
	if settingsPath != "" {
		files = append(files, settingsPath)
	}
	before := map[string]os.FileInfo{}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		before[f] = fi
	}
	w.warns = nil
	res2, err := write.Inject(fsys.NewOS(), w.request(fx.Provider, scope, fx.Profile))
	if err != nil {
		t.Fatalf("second inject: %v", err)
	}
	if len(res2.Changed) > 0 {
		t.Errorf("second inject changed %v", res2.Changed)
	}
	if !slices.Equal(res2.Written, res.Written) {
		t.Errorf("second inject wrote %v, first %v", res2.Written, res.Written)
	}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if !os.SameFile(fi, before[f]) || !fi.ModTime().Equal(before[f].ModTime()) {
			t.Errorf("second inject rewrote %s (W6)", f)
		}
	}
	if b := read(t, path); !bytes.Equal(b, got) {
		t.Errorf("second inject changed %s", path)
	}
	if settingsPath != "" {
		if b := read(t, settingsPath); !bytes.Equal(b, settingsGot) {
			t.Errorf("second inject changed %s", settingsPath)
		}
	}
}

// permissionsDir is the write layer's directory of the records of Claude Code's deny
// rules (C3).
const permissionsDir = "claude-tool-permissions"

// padded is a JSON object with a first member of padLen bytes (see padPlaced); other
// content as it is.
func padded(content []byte) []byte {
	i := bytes.IndexByte(content, '{')
	if i < 0 || len(bytes.TrimSpace(content[:i])) > 0 {
		return content
	}
	member := `"zzPad": "` + strings.Repeat("x", padLen) + `"`
	if rest := bytes.TrimSpace(content[i+1:]); !bytes.HasPrefix(rest, []byte("}")) {
		member += ","
	}
	return slices.Concat(content[:i+1], []byte(member), content[i+1:])
}
