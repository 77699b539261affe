package explain

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// world is a scratch home, project and bin directory (the PATH: srv is there).
type world struct {
	t               *testing.T
	home, proj, bin string
	vars            map[string]string
	goos            string
}

func newWorld(t *testing.T) *world {
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	w := &world{t: t, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"), bin: filepath.Join(root, "bin"),
		vars: map[string]string{}, goos: runtime.GOOS}
	for _, d := range []string{w.home, filepath.Join(w.proj, ".git"), w.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"srv", "srv.exe"} {
		if err := os.WriteFile(filepath.Join(w.bin, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.vars["PATH"] = w.bin
	return w
}

// write writes a file under the home (~/…) or the project (./…), v as JSON unless a
// string.
func (w *world) write(rel string, v any) string {
	path := filepath.Join(w.proj, filepath.FromSlash(strings.TrimPrefix(rel, "./")))
	if r, ok := strings.CutPrefix(rel, "~/"); ok {
		path = filepath.Join(w.home, filepath.FromSlash(r))
	}
	data, ok := v.(string)
	if !ok {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			w.t.Fatal(err)
		}
		data = string(b)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return path
}

func (w *world) request(names ...string) Request {
	var ps []*providers.Provider
	for _, n := range names {
		p, ok := providers.Get(n)
		if !ok {
			w.t.Fatal(n)
		}
		ps = append(ps, p)
	}
	getenv := func(k string) string { return w.vars[k] }
	return Request{Providers: ps, Dir: w.proj, Getenv: getenv,
		Env: providers.PathEnv{GOOS: w.goos, Home: w.home, Getenv: getenv}}
}

func (w *world) key() string { return render.ProjectKey(w.proj, w.goos) }

// srv is an entry starting srv with one argument.
func srv(arg string) map[string]any { return map[string]any{"command": "srv", "args": []string{arg}} }

// want is what one verdict must say.
type want struct {
	scope  providers.Scope
	live   bool
	reason string // a part of the reason
	file   string // where the rule is: ~/… or ./…, "" for none
	line   int
}

// spec: E1 — the verdicts of one server name in one client: precedence and
// shadowing, trust and approval, lists, switches, the command on the client's PATH,
// referenced variables; with the file and line of the deciding rule.
func TestServer(t *testing.T) {
	for _, c := range []struct {
		name   string
		client string
		setup  func(w *world)
		server string
		want   []want
	}{
		{"claude: local over project over user", "claude-code", func(w *world) {
			w.write("~/.claude.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")},
				"projects": map[string]any{w.key(): map[string]any{"hasTrustDialogAccepted": true, "mcpServers": map[string]any{"x": srv("local")}}}})
			w.write("./.mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("project")}})
			w.write("./.claude/settings.local.json", map[string]any{"enabledMcpjsonServers": []string{"x"}})
		}, "x", []want{
			{providers.Local, true, "starts the local-scope entry", "~/.claude.json", 14},
			{providers.Project, false, "uses the local-scope entry instead (managed over local over project over user)", "~/.claude.json", 14},
			{providers.User, false, "uses the local-scope entry instead", "~/.claude.json", 14},
		}},
		{"claude: a project server not approved gives way to the user's", "claude-code", func(w *world) {
			w.write("~/.claude.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")},
				"projects": map[string]any{w.key(): map[string]any{"hasTrustDialogAccepted": true}}})
			w.write("./.mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("project")}})
		}, "x", []want{
			{providers.Project, false, "not approved in Claude Code yet", "./.mcp.json", 3},
			{providers.User, true, "starts the user-scope entry", "~/.claude.json", 3},
		}},
		{"claude: an untrusted project", "claude-code", func(w *world) {
			w.write("~/.claude.json", map[string]any{"projects": map[string]any{}})
			w.write("./.mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("project")}})
			w.write("./.claude/settings.local.json", map[string]any{"enabledMcpjsonServers": []string{"x"}})
		}, "x", []want{{providers.Project, false, "does not trust", "~/.claude.json", 2}}},
		{"claude: .mcp.json of a parent directory, the nearest wins", "claude-code", func(w *world) {
			w.write("~/.claude.json", map[string]any{"projects": map[string]any{w.key(): map[string]any{"hasTrustDialogAccepted": true}}})
			w.write("./.mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "missing"}}})
			w.write("./.claude/settings.json", map[string]any{"enableAllProjectMcpServers": true})
			w.write("./sub/.mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("sub")}})
			w.proj = filepath.Join(w.proj, "sub")
		}, "x", []want{
			{providers.Project, true, "starts the project-scope entry", "./sub/.mcp.json", 3},
			{providers.Project, false, "uses the project-scope entry instead", "./sub/.mcp.json", 3},
		}},
		{"claude: switched off for the project", "claude-code", func(w *world) {
			w.write("~/.claude.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")},
				"projects": map[string]any{w.key(): map[string]any{"disabledMcpServers": []string{"y", "x"}}}})
		}, "x", []want{{providers.User, false, "\"].disabledMcpServers of", "~/.claude.json", 14}}},
		{"gemini: an untrusted folder starts nothing", "gemini-cli", func(w *world) {
			w.write("~/.gemini/settings.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")}})
		}, "x", []want{{providers.User, false, "starts no MCP server, the user's included", "~/.gemini/trustedFolders.json", 0}}},
		{"gemini: trusted, excluded", "gemini-cli", func(w *world) {
			w.write("~/.gemini/trustedFolders.json", map[string]any{w.proj: "TRUST_FOLDER"})
			w.write("~/.gemini/settings.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")}, "mcp": map[string]any{"excluded": []string{"X"}}})
		}, "x", []want{{providers.User, false, "named in mcp.excluded", "~/.gemini/settings.json", 4}}},
		{"gemini: the workspace's entry over the user's", "gemini-cli", func(w *world) {
			w.write("~/.gemini/trustedFolders.json", map[string]any{w.proj: "TRUST_FOLDER"})
			w.write("~/.gemini/settings.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")}})
			w.write("./.gemini/settings.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "missing"}}})
		}, "x", []want{
			{providers.Project, false, `command missing is not found on the PATH of the shell it starts from`, "./.gemini/settings.json", 3},
			{providers.User, false, "uses the project-scope entry instead", "./.gemini/settings.json", 3},
		}},
		{"codex: a trusted project's table merged over the user's", "codex", func(w *world) {
			w.write("~/.codex/config.toml", "[mcp_servers.x]\ncommand = \"srv\"\n\n[projects."+quoteTOML(w.proj)+"]\ntrust_level = \"trusted\"\n")
			w.write("./.codex/config.toml", "[mcp_servers.x]\nenabled = false\n")
		}, "x", []want{
			{providers.Project, false, `switched off ("enabled": false)`, "./.codex/config.toml", 1},
			{providers.User, false, "merges it into the project-scope entry", "./.codex/config.toml", 1},
		}},
		{"codex: an untrusted project's file is not read", "codex", func(w *world) {
			w.write("~/.codex/config.toml", "[mcp_servers.x]\ncommand = \"srv\"\n")
			w.write("./.codex/config.toml", "[mcp_servers.x]\nenabled = false\n")
		}, "x", []want{
			{providers.Project, false, "does not trust", "~/.codex/config.toml", 0},
			{providers.User, true, "starts the user-scope entry", "~/.codex/config.toml", 1},
		}},
		{"copilot: disabledMcpServers", "copilot-cli", func(w *world) {
			w.write("~/.copilot/mcp-config.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")}})
			w.write("~/.copilot/settings.json", map[string]any{"disabledMcpServers": []string{"x"}})
		}, "x", []want{{providers.User, false, "named in disabledMcpServers", "~/.copilot/settings.json", 3}}},
		{"qwen: a pending project server keeps its name", "qwen-code", func(w *world) {
			w.write("~/.qwen/settings.json", map[string]any{"mcpServers": map[string]any{"x": srv("user")}})
			w.write("./.mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("project")}})
		}, "x", []want{
			{providers.Project, false, "qwen mcp approve x", "./.mcp.json", 3},
			{providers.User, false, "gives the name to the .mcp.json entry, which is off", "./.mcp.json", 3},
		}},
		{"omp: the same command under two names is one server", "omp", func(w *world) {
			w.write("~/.omp/agent/mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("same"), "y": srv("same")}})
		}, "y", []want{{providers.User, false, `the same server as x,`, "~/.omp/agent/mcp.json", 3}}},
		{"a command that is not on the PATH", "factory", func(w *world) {
			w.write("~/.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "nowhere"}}})
		}, "x", []want{{providers.User, false, `command nowhere is not found on the PATH of the shell`, "~/.factory/mcp.json", 3}}},
		{"a command path that does not exist", "factory", func(w *world) {
			w.write("~/.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "./bin/srv"}}})
		}, "x", []want{{providers.User, false, "does not exist", "~/.factory/mcp.json", 3}}},
		{"a variable not set: started without it", "kiro", func(w *world) {
			w.write("~/.kiro/settings/mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "srv", "env": map[string]string{"K": "${EXPLAIN_UNSET_TOKEN}"}}}})
		}, "x", []want{{providers.User, true, "variable EXPLAIN_UNSET_TOKEN is not set: the server starts without it", "~/.kiro/settings/mcp.json", 3}}},
		{"an entry switched off by its own member", "factory", func(w *world) {
			w.write("~/.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "srv", "disabled": true}}})
		}, "x", []want{{providers.User, false, `switched off ("disabled": true)`, "~/.factory/mcp.json", 3}}},
		{"no entry of the name", "factory", func(w *world) {}, "x", []want{{"", false, "no entry of that name in any file Factory Droid reads here", "", 0}}},
		{"a file the client cannot read may hold it", "factory", func(w *world) {
			w.write("~/.factory/mcp.json", `{"mcpServers": {`)
		}, "x", []want{{providers.User, false, "Factory Droid cannot read the file", "~/.factory/mcp.json", 0}}},
		{"an entry with neither command nor URL: that entry is skipped", "claude-code", func(w *world) {
			w.write("~/.claude.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"args": []string{"a"}}}})
		}, "x", []want{{providers.User, false, "cannot start it: the entry has neither a command nor a URL", "~/.claude.json", 3}}},
		{"an entry a client cannot use: the whole file is skipped", "factory", func(w *world) {
			w.write("~/.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"x": srv("x"), "y": map[string]any{"args": []string{"a"}}}})
		}, "x", []want{{providers.User, false, "skips the whole file", "~/.factory/mcp.json", 0}}},
		{"merged layers: the whole configuration fails over one merged entry", "opencode", func(w *world) {
			w.write("~/.config/opencode/opencode.json", map[string]any{"mcp": map[string]any{"x": map[string]any{"type": "local", "command": []string{"srv"}},
				"y": map[string]any{"type": "local"}}})
		}, "x", []want{{providers.User, false, "skips its whole configuration: entry y has neither a command nor a URL", "~/.config/opencode/opencode.json", 0}}},
		{"a client's own switch in a file it shares with others", "qoder", func(w *world) {
			w.write("./.mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "srv", "disabled": true}}})
		}, "x", []want{{providers.Project, false, `switched off ("disabled": true)`, "./.mcp.json", 3}}},
		{"a project file found in a parent, outside a git work tree, up to the root", "opencode", func(w *world) {
			if err := os.RemoveAll(filepath.Join(w.proj, ".git")); err != nil {
				t.Fatal(err)
			}
			w.write("./opencode.json", map[string]any{"mcp": map[string]any{"x": map[string]any{"type": "local", "command": []string{"srv"}}}})
			w.proj = filepath.Join(w.proj, "a", "b")
			if err := os.MkdirAll(w.proj, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "x", []want{{providers.Project, true, "starts the project-scope entry", "./opencode.json", 3}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			root := w.proj
			c.setup(w)
			got := Server(fsys.NewOS(), w.request(c.client), c.server, true)
			if len(got) != len(c.want) {
				t.Fatalf("%d verdicts, want %d: %+v", len(got), len(c.want), got)
			}
			for i, v := range got {
				wv := c.want[i]
				file := wv.file
				if r, ok := strings.CutPrefix(file, "~/"); ok {
					file = filepath.Join(w.home, filepath.FromSlash(r))
				} else if r, ok := strings.CutPrefix(file, "./"); ok {
					file = filepath.Join(root, filepath.FromSlash(r))
				}
				if v.Scope != wv.scope || v.Live != wv.live || !strings.Contains(v.Reason, wv.reason) || v.File != file || v.Line != wv.line {
					t.Errorf("verdict %d: %s %v %q at %s:%d\nwant       %s %v …%q… at %s:%d", i, v.Scope, v.Live, v.Reason, v.File, v.Line,
						wv.scope, wv.live, wv.reason, file, wv.line)
				}
			}
		})
	}
}

// quoteTOML is a TOML basic string.
func quoteTOML(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// spec: E1 — the PATH a desktop app gets: on macOS launchd's, not the shell's; the
// variable that says otherwise; a client that leaves out a server whose variable is
// not set.
func TestLaunchEnvironment(t *testing.T) {
	w := newWorld(t)
	w.goos = "darwin"
	w.write("~/Library/Application Support/Claude/claude_desktop_config.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "srv"}}})
	vs := Server(fsys.NewOS(), w.request("claude-desktop"), "x", true)
	if len(vs) != 1 || vs[0].Live || !strings.Contains(vs[0].Reason, "launchd's PATH") {
		t.Errorf("Claude Desktop on macOS: %+v, want off: not on launchd's PATH", vs)
	}
	w.vars[DesktopPathVar] = w.bin
	if vs := Server(fsys.NewOS(), w.request("claude-desktop"), "x", true); len(vs) != 1 || !vs[0].Live {
		t.Errorf("with %s: %+v, want live", DesktopPathVar, vs)
	}

	w = newWorld(t)
	w.write("~/.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"x": map[string]any{"command": "srv", "env": map[string]string{"K": "${EXPLAIN_UNSET_TOKEN}"}}}})
	if vs := Server(fsys.NewOS(), w.request("factory"), "x", true); len(vs) != 1 || vs[0].Live || !strings.Contains(vs[0].Reason, "leaves out a server") {
		t.Errorf("a client that skips a server with an unset variable: %+v", vs)
	}
}

// spec: E2 — every server a client loads where it starts, with its source file, and
// the entries it reads and does not start.
func TestClient(t *testing.T) {
	w := newWorld(t)
	w.write("~/.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"a": srv("a"), "b": map[string]any{"command": "srv", "disabled": true}}})
	w.write("./.factory/mcp.json", map[string]any{"mcpServers": map[string]any{"a": srv("p"), "c": srv("c")}})
	p, _ := providers.Get("factory")
	vs := Client(fsys.NewOS(), w.request(), p)
	var got []string
	for _, v := range vs {
		got = append(got, v.Server+" "+string(v.Scope)+" "+map[bool]string{true: "live", false: "not"}[v.Live]+" "+filepath.Base(filepath.Dir(v.Source)))
	}
	want := []string{"a project live .factory", "a user not .factory", "c project live .factory", "b user not .factory"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Client:\n got %s\nwant %s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
}

// spec: E1 — explain's exit status: 0 when the server is live in every client asked
// about, 1 otherwise.
func TestLive(t *testing.T) {
	for _, c := range []struct {
		vs   []Verdict
		want bool
	}{
		{nil, false},
		{[]Verdict{{Provider: "a", Live: true}, {Provider: "a"}}, true},
		{[]Verdict{{Provider: "a", Live: true}, {Provider: "b"}}, false},
	} {
		if got := Live(c.vs); got != c.want {
			t.Errorf("Live(%+v) = %v, want %v", c.vs, got, c.want)
		}
	}
}
