package providers

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// fakeFiles is Files over a map of file → its content as JSON.
type fakeFiles struct {
	files  map[string]string
	in     PathEnv
	client string
}

func (f fakeFiles) Resolve(at At, dirs ...string) []string {
	if len(dirs) == 0 {
		dirs = []string{f.in.Project}
	}
	var paths []string
	if at.System != nil {
		paths = []string{at.System.Path(f.in)}
	} else {
		d := at.Dest
		if d == nil {
			p, _ := lookup(f.client)
			if at.Of != "" {
				p, _ = lookup(at.Of)
			}
			d = p.Dest(at.Scope)
		}
		for _, dir := range dirs {
			in := f.in
			in.Project = dir
			c, _ := d.Candidates(in)
			paths = append(paths, c...)
		}
	}
	var out []string
	for _, p := range paths {
		// the cases model Linux; on Windows the host's Join gives back slashes
		p = filepath.ToSlash(p)
		if _, ok := f.files[p]; ok && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func (f fakeFiles) Member(file string, path ...string) (json.RawMessage, bool) {
	text, ok := f.files[filepath.ToSlash(file)]
	if !ok {
		return nil, false
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil, false
	}
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	b, _ := json.Marshal(v)
	return b, true
}

// clientOf is the client a rule is of.
func clientOf(rule any) string {
	for _, p := range All() {
		if l := p.Liveness(); l.Trust == rule || l.Approval == rule {
			return p.Name
		}
	}
	return ""
}

// where is a start in project /p (its own root), home /h, on Linux.
func where(vars map[string]string) (Where, PathEnv) {
	in := PathEnv{GOOS: "linux", Home: "/h", Project: "/p", Getenv: func(k string) string { return vars[k] }}
	return Where{Start: "/p", Root: "/p", Key: "/p", Env: in}, in
}

// spec: E1 — trust, per client, where each records it.
func TestTrusted(t *testing.T) {
	moved := "/c" // absolute on the system the test runs on
	if runtime.GOOS == "windows" {
		moved = "C:/c"
	}
	for _, c := range []struct {
		name  string
		rule  Truster
		files map[string]string
		vars  map[string]string
		want  bool
		file  string
	}{
		{"claude trusted", claudeTrust{}, map[string]string{"/h/.claude.json": `{"projects": {"/p": {"hasTrustDialogAccepted": true}}}`}, nil, true, "/h/.claude.json"},
		{"claude parent only", claudeTrust{}, map[string]string{"/h/.claude.json": `{"projects": {"/": {"hasTrustDialogAccepted": true}}}`}, nil, false, "/h/.claude.json"},
		{"claude no state", claudeTrust{}, nil, nil, false, ""},
		{"claude moved", claudeTrust{}, map[string]string{moved + "/.claude.json": `{"projects": {"/p": {"hasTrustDialogAccepted": true}}}`},
			map[string]string{"CLAUDE_CONFIG_DIR": moved}, true, moved + "/.claude.json"},
		{"gemini folder", geminiTrust{}, map[string]string{"/h/.gemini/trustedFolders.json": `{"/p": "TRUST_FOLDER"}`}, nil, true, "/h/.gemini/trustedFolders.json"},
		{"gemini parent rule", geminiTrust{}, map[string]string{"/h/.gemini/trustedFolders.json": `{"/p/x": "TRUST_PARENT"}`}, nil, true, "/h/.gemini/trustedFolders.json"},
		{"gemini longest wins", geminiTrust{}, map[string]string{"/h/.gemini/trustedFolders.json": `{"/": "TRUST_FOLDER", "/p": "DO_NOT_TRUST"}`}, nil, false, "/h/.gemini/trustedFolders.json"},
		{"gemini none", geminiTrust{}, nil, nil, false, "/h/.gemini/trustedFolders.json"},
		{"gemini trust off", geminiTrust{}, map[string]string{"/h/.gemini/settings.json": `{"security": {"folderTrust": {"enabled": false}}}`}, nil, true, "/h/.gemini/settings.json"},
		{"gemini variable", geminiTrust{}, nil, map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"}, true, ""},
		{"gemini restricted", geminiTrust{}, map[string]string{"/h/.gemini/trustedFolders.json": `{"/p": "TRUST_FOLDER"}`},
			map[string]string{"GEMINI_RESTRICTED_MODE": "true"}, false, ""},
		{"copilot parent", copilotTrust{}, map[string]string{"/h/.copilot/config.json": `{"trustedFolders": ["/"]}`}, nil, true, "/h/.copilot/config.json"},
		{"copilot other", copilotTrust{}, map[string]string{"/h/.copilot/config.json": `{"trusted_folders": ["/q"]}`}, nil, false, "/h/.copilot/config.json"},
		{"codex trusted", codexTrust{}, map[string]string{"/h/.codex/config.toml": `{"projects": {"/p": {"trust_level": "trusted"}}}`}, nil, true, "/h/.codex/config.toml"},
		{"codex untrusted", codexTrust{}, map[string]string{"/h/.codex/config.toml": `{"projects": {"/p": {"trust_level": "untrusted"}}}`}, nil, false, "/h/.codex/config.toml"},
		{"grok trusted", grokTrust{}, map[string]string{"/h/.grok/trusted_folders.toml": `{"folders": {"/p": {"trusted": true}}}`}, nil, true, "/h/.grok/trusted_folders.toml"},
		{"grok refused", grokTrust{}, map[string]string{"/h/.grok/trusted_folders.toml": `{"folders": {"/p": {"trusted": false}}}`}, nil, false, "/h/.grok/trusted_folders.toml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, in := where(c.vars)
			w.Env, in.Home = in, "/h"
			ok, r := c.rule.Trusted(fakeFiles{c.files, in, clientOf(c.rule)}, w)
			if ok != c.want || filepath.ToSlash(r.File) != c.file || r.Text == "" {
				t.Errorf("Trusted = %v, %+v; want %v in %q", ok, r, c.want, c.file)
			}
		})
	}
}

// spec: E1 — approval of project servers: Claude Code's lists, Qwen Code's hash-bound
// record, Amp's trusted servers.
func TestApproved(t *testing.T) {
	entry := json.RawMessage(`{"command": "srv", "args": ["a"], "description": "not hashed"}`)
	hash := qwenHash(json.RawMessage(`{"args": ["a"], "command": "srv"}`))
	for _, c := range []struct {
		name  string
		rule  Approver
		files map[string]string
		srv   string
		want  bool
		elem  string
	}{
		{"claude enabled", claudeApproval{}, map[string]string{"/p/.claude/settings.local.json": `{"enabledMcpjsonServers": ["a"]}`}, "a", true, "a"},
		{"claude enable all", claudeApproval{}, map[string]string{"/h/.claude/settings.json": `{"enableAllProjectMcpServers": true}`}, "a", true, ""},
		{"claude disabled wins", claudeApproval{}, map[string]string{"/h/.claude/settings.json": `{"enableAllProjectMcpServers": true}`,
			"/p/.claude/settings.json": `{"disabledMcpjsonServers": ["a"]}`}, "a", false, "a"},
		{"claude in the project state", claudeApproval{}, map[string]string{"/h/.claude.json": `{"projects": {"/p": {"enabledMcpjsonServers": ["a"]}}}`}, "a", true, "a"},
		{"claude not yet", claudeApproval{}, map[string]string{"/p/.claude/settings.local.json": `{"enabledMcpjsonServers": ["b"]}`}, "a", false, ""},
		{"qwen approved", qwenApproval{}, map[string]string{"/h/.qwen/mcpApprovals.json": `{"/p": {"a": {"hash": "` + hash + `", "status": "approved"}}}`}, "a", true, ""},
		{"qwen changed since", qwenApproval{}, map[string]string{"/h/.qwen/mcpApprovals.json": `{"/p": {"a": {"hash": "0000", "status": "approved"}}}`}, "a", false, ""},
		{"qwen rejected", qwenApproval{}, map[string]string{"/h/.qwen/mcpApprovals.json": `{"/p": {"a": {"hash": "` + hash + `", "status": "rejected"}}}`}, "a", false, ""},
		{"qwen none", qwenApproval{}, nil, "a", false, ""},
		{"amp approved", ampApproval{}, map[string]string{"/h/.config/amp/settings.json": `{"amp.mcpTrustedServers": [{"serverName": "a", "specHash": "x", "allow": true}]}`}, "a", true, ""},
		{"amp refused", ampApproval{}, map[string]string{"/h/.config/amp/settings.json": `{"amp.mcpTrustedServers": [{"serverName": "a", "specHash": "x", "allow": false}]}`}, "a", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, in := where(nil)
			ok, r := c.rule.Approved(fakeFiles{c.files, in, clientOf(c.rule)}, w, Source{}, c.srv, entry)
			if ok != c.want || r.Elem != c.elem || r.Text == "" {
				t.Errorf("Approved = %v, %+v; want %v (element %q)", ok, r, c.want, c.elem)
			}
		})
	}
}

// spec: E1 — Claude Code's allowedMcpServers and deniedMcpServers, managed or not.
func TestClaudePolicy(t *testing.T) {
	managed := "/etc/claude-code/managed-settings.json"
	stdio := PolicyServer{Name: "a", Command: []string{"npx", "-y", "pkg"}}
	remote := PolicyServer{Name: "r", URL: "https://Mcp.Example.com/api"}
	for _, c := range []struct {
		name    string
		files   map[string]string
		s       PolicyServer
		off     bool
		inFile  string
		expands map[string]string
	}{
		{"nothing set", nil, stdio, false, "", nil},
		{"denied by name", map[string]string{managed: `{"deniedMcpServers": [{"serverName": "a"}]}`}, stdio, true, managed, nil},
		{"denied by command", map[string]string{"/h/.claude/settings.json": `{"deniedMcpServers": [{"serverCommand": ["npx", "-y", "pkg"]}]}`}, stdio, true, "/h/.claude/settings.json", nil},
		{"another command", map[string]string{managed: `{"deniedMcpServers": [{"serverCommand": ["npx", "pkg"]}]}`}, stdio, false, "", nil},
		{"denied by url pattern", map[string]string{managed: `{"deniedMcpServers": [{"serverUrl": "https://mcp.example.com/*"}]}`}, remote, true, managed, nil},
		{"allow list by name", map[string]string{managed: `{"allowedMcpServers": [{"serverName": "a"}]}`}, stdio, false, "", nil},
		{"allow list without it", map[string]string{managed: `{"allowedMcpServers": [{"serverName": "b"}]}`}, stdio, true, managed, nil},
		{"allow list empty", map[string]string{managed: `{"allowedMcpServers": []}`}, stdio, true, managed, nil},
		{"commands listed: the name does not count", map[string]string{managed: `{"allowedMcpServers": [{"serverName": "a"}, {"serverCommand": ["other"]}]}`}, stdio, true, managed, nil},
		{"a user allow list broadens", map[string]string{managed: `{"allowedMcpServers": [{"serverName": "b"}]}`,
			"/h/.claude/settings.json": `{"allowedMcpServers": [{"serverName": "a"}]}`}, stdio, false, "", nil},
		{"managed only", map[string]string{managed: `{"allowedMcpServers": [{"serverName": "b"}], "allowManagedMcpServersOnly": true}`,
			"/h/.claude/settings.json": `{"allowedMcpServers": [{"serverName": "a"}]}`}, stdio, true, managed, nil},
		{"references expanded", map[string]string{managed: `{"deniedMcpServers": [{"serverCommand": ["${TOOLS}/srv"]}]}`},
			PolicyServer{Name: "a", Command: []string{"/opt/tools/srv"}}, true, managed, map[string]string{"TOOLS": "/opt/tools"}},
		{"managed servers skip the allow list", map[string]string{managed: `{"allowedMcpServers": [{"serverName": "b"}]}`},
			PolicyServer{Name: "a", Command: []string{"x"}, Managed: true}, false, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, in := where(c.expands)
			off, r := claudePolicy{}.Judge(fakeFiles{c.files, in, "claude-code"}, w, c.s)
			if off != c.off || filepath.ToSlash(r.File) != c.inFile {
				t.Errorf("Judge = %v, %+v; want %v in %q", off, r, c.off, c.inFile)
			}
		})
	}
}

// spec: E1 — a list of names: an array, or a map by name of {"enabled": false};
// names compared as they are, lower-cased, or with wildcards.
func TestNameListHolds(t *testing.T) {
	for _, c := range []struct {
		name string
		l    NameList
		raw  string
		srv  string
		want bool
	}{
		{"exact", NameList{}, `["a", "b"]`, "b", true},
		{"exact case", NameList{}, `["A"]`, "a", false},
		{"folded", NameList{Fold: true}, `[" A "]`, "a", true},
		{"glob", NameList{Glob: true}, `["git*"]`, "github", true},
		{"glob miss", NameList{Glob: true}, `["git?"]`, "github", false},
		{"map off", NameList{Map: true, Fold: true}, `{"a": {"enabled": false}, "b": {"enabled": true}}`, "A", true},
		{"map on", NameList{Map: true}, `{"b": {"enabled": true}}`, "b", false},
		{"not a list", NameList{}, `"a"`, "a", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, _ := c.l.Holds(json.RawMessage(c.raw), c.srv); got != c.want {
				t.Errorf("Holds(%s, %q) = %v, want %v", c.raw, c.srv, got, c.want)
			}
		})
	}
}

// spec: E1 — an administrator's file on each system, and the variable that moves it.
func TestSystemFilePath(t *testing.T) {
	for _, c := range []struct {
		f    *SystemFile
		goos string
		vars map[string]string
		want string
	}{
		{claudeManagedSettings, "linux", nil, "/etc/claude-code/managed-settings.json"},
		{claudeManagedSettings, "darwin", nil, "/Library/Application Support/ClaudeCode/managed-settings.json"},
		{claudeManagedSettings, "windows", nil, `C:\Program Files\ClaudeCode\managed-settings.json`},
		{claudeManagedSettings, "windows", map[string]string{"ProgramFiles": `D:\Apps`}, `D:\Apps\ClaudeCode\managed-settings.json`},
		{geminiSystem, "linux", map[string]string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/x/s.json"}, "/x/s.json"},
		{geminiSystem, "windows", nil, `C:\ProgramData\gemini-cli\settings.json`},
	} {
		in := PathEnv{GOOS: c.goos, Getenv: func(k string) string { return c.vars[k] }}
		if got := c.f.Path(in); got != c.want {
			t.Errorf("%s: Path = %q, want %q", c.goos, got, c.want)
		}
	}
}

// spec: E1 — every client has liveness rules: its own, or the sources mcpwire assumes
// (its files in scope order); those that name sources name files that exist in the
// table.
func TestLiveness(t *testing.T) {
	for _, p := range All() {
		if p.Manual() {
			continue
		}
		l := p.Liveness()
		if len(l.Sources) == 0 {
			t.Errorf("%s: no source", p.Name)
		}
		for _, s := range l.Sources {
			q := p
			if s.At.Of != "" {
				var ok bool
				if q, ok = Get(s.At.Of); !ok {
					t.Errorf("%s: a source of the unknown client %q", p.Name, s.At.Of)
					continue
				}
			}
			if s.At.Dest == nil && s.At.System == nil && q.Dest(s.At.Scope) == nil {
				t.Errorf("%s: a source of %s's %s scope, which it does not have", p.Name, q.Name, s.At.Scope)
			}
		}
	}
	// Claude Code's: local over project over user, as Precedence says (H11)
	var order []Scope
	for _, s := range claudeLive().Sources {
		if s.At.System == nil {
			order = append(order, s.At.Scope)
		}
	}
	if p, _ := Get("claude-code"); !slices.Equal(order, p.Precedence) {
		t.Errorf("Claude Code's sources %v, its Precedence %v", order, p.Precedence)
	}
	if got := filepath.Base(geminiEnablement.Files[0]); got != "mcp-server-enablement.json" {
		t.Error(got)
	}
}
