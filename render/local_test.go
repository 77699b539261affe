package render_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render"
	"github.com/mcpwire/mcpwire/render/write"
)

// literal is a server with a literal credential in its environment.
var literal = &registry.Server{Name: "lit", Type: registry.Stdio, Command: "lit-mcp", Env: map[string]string{"API_KEY": "sk-live-0123456789abcdef"}}

// withLiteral is a request for the literal server only.
func (w *world) withLiteral(provider string, scope providers.Scope) write.Request {
	r := w.request(provider, scope, "", literal.Name)
	r.Install.Extra = []*registry.Server{literal}
	return r
}

// claudeJSON decodes ~/.claude.json.
func claudeJSON(t *testing.T, path string) (top map[string]any, projects map[string]map[string]any) {
	t.Helper()
	var doc struct {
		MCPServers map[string]any            `json:"mcpServers"`
		Projects   map[string]map[string]any `json:"projects"`
	}
	if err := json.Unmarshal(read(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.MCPServers, doc.Projects
}

// TestClaudeLocalScope: Claude Code's local scope is the project's own servers in
// ~/.claude.json, under projects["<real project path>"].mcpServers, private to the
// person: P7 does not apply there, and a P7 refusal of the project file names it. The
// same name at user and local scope are two entries with two ownership records;
// uninject at local scope removes only the local one.
//
// spec: V11 P7 C6 C1
func TestClaudeLocalScope(t *testing.T) {
	w := newWorld(t)
	_, err := write.Inject(fsys.NewOS(), w.withLiteral("claude-code", providers.Project))
	var pe *policy.Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Hint, "--scope local ("+filepath.Join(w.home, ".claude.json")+")") {
		t.Fatalf("project scope with a literal credential: %v (hint %q)", err, pe)
	}
	res, err := write.Inject(fsys.NewOS(), w.withLiteral("claude-code", providers.Local))
	if err != nil {
		t.Fatalf("local scope takes a literal credential: %v", err)
	}
	path := filepath.Join(w.home, ".claude.json")
	if res.Destination != path || res.Scope != providers.Local {
		t.Errorf("destination %s %s", res.Destination, res.Scope)
	}
	if _, err := w.inject("claude-code", providers.Local, "fetch"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.inject("claude-code", providers.User, "fetch", "docs"); err != nil {
		t.Fatal(err)
	}
	top, projects := claudeJSON(t, path)
	local, _ := projects[w.projectKey()]["mcpServers"].(map[string]any)
	if len(projects) != 1 || len(local) != 2 || local["lit"] == nil || local["fetch"] == nil || len(top) != 2 {
		t.Fatalf("user servers %v, projects %v", top, projects)
	}
	recs := ownRecords(t, w)
	if len(recs) != 2 {
		t.Fatalf("records %+v, want one per servers path", recs)
	}
	for _, r := range recs {
		if r.Scope == "local" && (r.Project != w.project || len(r.Entries) != 2) || r.Scope == "" && len(r.Entries) != 2 {
			t.Errorf("record %+v", r)
		}
	}
	ures, err := write.Uninject(fsys.NewOS(), w.request("claude-code", providers.Local, "", "fetch", "lit"))
	if err != nil || len(ures.Removed) != 2 {
		t.Fatalf("uninject: %+v, %v", ures, err)
	}
	top, projects = claudeJSON(t, path)
	if local, _ := projects[w.projectKey()]["mcpServers"].(map[string]any); len(local) != 0 || len(top) != 2 {
		t.Errorf("after uninject: user %v, local %v", top, local)
	}
}

// TestClaudeLocalRelocated: CLAUDE_CONFIG_DIR moves ~/.claude.json, local scope too.
//
// spec: V11 V1
func TestClaudeLocalRelocated(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(t.TempDir(), "claude")
	w.env.Getenv = func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return dir
		}
		return ""
	}
	res, err := w.inject("claude-code", providers.Local, "fetch")
	if err != nil {
		t.Fatal(err)
	}
	if res.Destination != filepath.Join(dir, ".claude.json") {
		t.Errorf("destination %s", res.Destination)
	}
}

// TestClaudeLocalWindowsKey: on Windows Claude Code keys its projects with forward
// slashes and keeps the drive letter's case of the directory it was started in: a key
// that differs from the project's only in case is the project's, not a new one.
//
// spec: V11
func TestClaudeLocalWindowsKey(t *testing.T) {
	w := newWorld(t)
	key := strings.ToUpper(w.projectKey())
	if key == w.projectKey() {
		t.Skip("the project path has no letters to change the case of")
	}
	content, _ := json.Marshal(map[string]any{"projects": map[string]any{key: map[string]any{"mcpServers": map[string]any{}, "lastCost": 1}}})
	path := filepath.Join(w.home, ".claude.json")
	w.place(path, content)
	w.env.GOOS = "windows"
	if _, err := w.inject("claude-code", providers.Local, "fetch"); err != nil {
		t.Fatal(err)
	}
	_, projects := claudeJSON(t, path)
	if len(projects) != 1 || projects[key]["mcpServers"].(map[string]any)["fetch"] == nil {
		t.Errorf("projects %v, want fetch under the existing key %s", projects, key)
	}
}

// TestLocalFileInProject: a local file inside the project (auggie's and Qoder's
// settings.local.json, Visual Studio's per-user .vs/mcp.json) is private only when git
// ignores it: P7 applies until then, and the refusal says so, naming the line to add
// to .gitignore; once ignored, a literal credential may go there (0600).
//
// spec: P7 V11 W4
func TestLocalFileInProject(t *testing.T) {
	for _, name := range []string{"auggie", "qoder", "visual-studio"} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			r := w.withLiteral(name, providers.Local)
			r.Inject.Ignored = func(string) (render.IgnoreState, error) { return render.GitWouldCommit, nil }
			_, err := write.Inject(fsys.NewOS(), r)
			var pe *policy.Error
			if !errors.As(err, &pe) || !strings.Contains(pe.Hint, ".gitignore") || !strings.Contains(pe.Rule, "git does not ignore") {
				t.Fatalf("not ignored: %v", err)
			}
			if strings.Contains(pe.Hint, "no private file") || strings.Contains(pe.Rule, "committed file") {
				t.Errorf("a private file called committed: %s; %s", pe.Rule, pe.Hint)
			}
			r.Inject.Ignored = func(string) (render.IgnoreState, error) { return render.GitIgnores, nil }
			res, err := write.Inject(fsys.NewOS(), r)
			if err != nil {
				t.Fatalf("ignored: %v", err)
			}
			if !strings.HasPrefix(res.Destination, w.project) {
				t.Errorf("destination %s", res.Destination)
			}
			if fi, err := os.Stat(res.Destination); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %v, mode %v; want 0600", res.Destination, err, fi.Mode().Perm())
			}
		})
	}
}

// TestVisualStudioLocal: Visual Studio's <solution>/.vs/mcp.json is per user (its
// documents; .vs/ is in its own .gitignore), so it is the local scope, the default;
// Visual Studio has no project scope in mcpwire (the committed .mcp.json is Claude
// Code's), and --scope project is refused naming the scopes it has (V6).
//
// spec: V6 V11 P7
func TestVisualStudioLocal(t *testing.T) {
	w := newWorld(t)
	p := w.provider("visual-studio")
	if p.DefaultScope != providers.Local || p.Project != nil || p.Local == nil {
		t.Fatalf("visual-studio: default %s, project %v, local %v", p.DefaultScope, p.Project, p.Local)
	}
	_, err := w.inject("visual-studio", providers.Project, "fetch")
	var se *render.ScopeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "no project-scope config file") {
		t.Fatalf("%v", err)
	}
	// the refusal's advice is what Visual Studio has: no references; its user file on
	// Windows only
	for goos, user := range map[string]bool{"linux": false, "windows": true} {
		w.env.GOOS = goos
		r := w.withLiteral("visual-studio", providers.Local)
		r.Inject.Ignored = func(string) (render.IgnoreState, error) { return render.GitWouldCommit, nil }
		_, err := write.Inject(fsys.NewOS(), r)
		var pe *policy.Error
		if !errors.As(err, &pe) {
			t.Fatalf("%s: %v", goos, err)
		}
		if strings.Contains(pe.Hint, "reference variables") || strings.Contains(pe.Hint, "--scope user") != user {
			t.Errorf("%s: hint %q", goos, pe.Hint)
		}
	}
}

// TestLocalScopeRefusedWithoutOne: a client without a local file refuses --scope
// local, naming the scopes it has (V6).
//
// spec: V6
func TestLocalScopeRefusedWithoutOne(t *testing.T) {
	w := newWorld(t)
	_, err := w.inject("cursor", providers.Local, "fetch")
	var se *render.ScopeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "no local-scope config file (it has: project, user)") {
		t.Fatalf("%v", err)
	}
	if slices.Contains(w.provider("cursor").Scopes(), providers.Local) {
		t.Error("cursor has a local scope")
	}
}

// TestClaudeLocalSync: a --profile inject at local scope is a sync of what mcpwire owns
// there (B7): the servers the smaller profile drops leave the project's servers, and
// the user-scope entry of the same name stays.
//
// spec: B7 V11 C6
func TestClaudeLocalSync(t *testing.T) {
	w := newWorld(t)
	if _, err := w.inject("claude-code", providers.User, "notes"); err != nil {
		t.Fatal(err)
	}
	full := w.request("claude-code", providers.Local, "dev")
	full.Inject.Sync = true
	if _, err := write.Inject(fsys.NewOS(), full); err != nil {
		t.Fatal(err)
	}
	smaller := w.request("claude-code", providers.Local, "dev")
	smaller.Servers, smaller.Inject.Sync = []string{"github"}, true
	res, err := write.Inject(fsys.NewOS(), smaller)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Removed, []string{"notes", "tickets"}) {
		t.Errorf("removed %v", res.Removed)
	}
	top, projects := claudeJSON(t, filepath.Join(w.home, ".claude.json"))
	local, _ := projects[w.projectKey()]["mcpServers"].(map[string]any)
	if len(local) != 1 || local["github"] == nil || top["notes"] == nil {
		t.Errorf("user %v, local %v", top, local)
	}
}
