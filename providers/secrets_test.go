package providers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/registry"
)

// entryOf spells and writes s for the provider named at scope, mcpwire at exec.
func entryOf(t *testing.T, name string, scope Scope, exec, goos string, s *registry.Server) (string, Values, []Problem) {
	t.Helper()
	p, ok := Get(name)
	if !ok {
		t.Fatalf("no provider %s", name)
	}
	tg := Target{P: p, Scope: scope, Project: "/work/repo", Home: "/home/u", Exec: exec, GOOS: goos}
	d := p.Dialect()
	v, probs := Spell(tg, d, s)
	if len(probs) > 0 {
		return "", v, probs
	}
	raw, err := format.Marshal(d.Entry(s, &v, nil))
	if err != nil {
		t.Fatal(err)
	}
	return string(format.Canonical(raw)), v, nil
}

// spec: S2 — a stdio server's secrets start it through mcpwire exec: by name in a
// committed project file (and inject is told), by absolute path in a private one; the
// entry holds references, never values, and the client's own env the rest.
func TestSpellExec(t *testing.T) {
	s := &registry.Server{Name: "gh", Type: registry.Stdio, Command: "npx", Args: []string{"-y", "gh-mcp"},
		Env: map[string]string{"LOG": "debug"}, PlainEnv: []string{"LOG"}, EnvSecret: map[string]string{"GITHUB_TOKEN": "pass:mcpwire/gh/GITHUB_TOKEN"}}
	got, v, probs := entryOf(t, "claude-code", Project, "/opt/mcpwire/bin/mcpwire", "linux", s)
	if want := `{"args":["exec","--env-secret","GITHUB_TOKEN=pass:mcpwire/gh/GITHUB_TOKEN","--","npx","-y","gh-mcp"],"command":"mcpwire","env":{"LOG":"debug"}}`; got != want || !v.ExecByName || len(probs) > 0 {
		t.Errorf("project:\n got %s (byName %v, %v)\nwant %s", got, v.ExecByName, probs, want)
	}
	got, v, _ = entryOf(t, "claude-code", User, "/opt/mcpwire/bin/mcpwire", "linux", s)
	if !strings.Contains(got, `"command":"/opt/mcpwire/bin/mcpwire"`) || v.ExecByName {
		t.Errorf("user: %s", got)
	}
	got, _, _ = entryOf(t, "opencode", User, "/opt/mcpwire/bin/mcpwire", "linux", s)
	if !strings.Contains(got, `"command":["/opt/mcpwire/bin/mcpwire","exec","--env-secret","GITHUB_TOKEN=pass:mcpwire/gh/GITHUB_TOKEN","--","npx","-y","gh-mcp"]`) {
		t.Errorf("opencode: %s", got)
	}
	got, _, _ = entryOf(t, "codex", User, "", "linux", s)
	if !strings.Contains(got, `"command":"mcpwire"`) {
		t.Errorf("codex without a known binary: %s", got)
	}
	// an env value that is a 1Password reference is delivered as one (T2)
	op := &registry.Server{Name: "gh", Type: registry.Stdio, Command: "gh-mcp", Env: map[string]string{"GITHUB_TOKEN": "op://Private/GitHub/token"}}
	got, _, _ = entryOf(t, "cursor", User, "/usr/bin/mcpwire", "linux", op)
	if want := `{"args":["exec","--env-secret","GITHUB_TOKEN=op://Private/GitHub/token","--","gh-mcp"],"command":"/usr/bin/mcpwire"}`; got != want {
		t.Errorf("op:// in env:\n got %s\nwant %s", got, want)
	}
}

// spec: S2 — a remote server's secrets: Claude Code's headersHelper runs mcpwire
// headers (quoted for the shell of the system); a client without one reads a variable
// standing for each secret, which it must be started with; a client that expands no
// variable in headers is refused, naming it, the server and the field.
func TestSpellRemoteSecrets(t *testing.T) {
	s := &registry.Server{Name: "notes", Type: registry.HTTP, URL: "https://h.example/mcp",
		HeaderSecret: map[string]string{"X-Api-Key": "op://Private/notes api/credential"}, BearerSecret: "pass:mcpwire/notes/token",
		Headers: map[string]string{"X-Team": "core"}}
	got, v, _ := entryOf(t, "claude-code", User, "/opt/my tools/mcpwire", "linux", s)
	want := `{"headers":{"X-Team":"core"},"headersHelper":"'/opt/my tools/mcpwire' headers --header-secret 'X-Api-Key=op://Private/notes api/credential' --bearer-secret pass:mcpwire/notes/token","type":"http","url":"https://h.example/mcp"}`
	if got != want || len(v.SecretVars) != 0 {
		t.Errorf("claude:\n got %s\nwant %s", got, want)
	}
	got, _, _ = entryOf(t, "claude-code", User, `C:\Program Files\mcpwire\mcpwire.exe`, "windows", s)
	if !strings.Contains(got, `"headersHelper":"\"C:\\Program Files\\mcpwire\\mcpwire.exe\" headers --header-secret \"X-Api-Key=op://Private/notes api/credential\"`) {
		t.Errorf("claude on windows: %s", got)
	}
	got, v, _ = entryOf(t, "codex", User, "/usr/bin/mcpwire", "linux", s)
	if !strings.Contains(got, `"bearer_token_env_var":"MCPWIRE_SECRET_NOTES_BEARER"`) || !strings.Contains(got, `"env_http_headers":{"X-Api-Key":"MCPWIRE_SECRET_NOTES_X_API_KEY"}`) ||
		strings.Join(v.SecretVars, " ") != "MCPWIRE_SECRET_NOTES_X_API_KEY=op://Private/notes api/credential MCPWIRE_SECRET_NOTES_BEARER=pass:mcpwire/notes/token" {
		t.Errorf("codex: %s %q", got, v.SecretVars)
	}
	got, _, _ = entryOf(t, "gemini-cli", User, "/usr/bin/mcpwire", "linux", s)
	if !strings.Contains(got, `"Authorization":"Bearer ${MCPWIRE_SECRET_NOTES_BEARER}"`) {
		t.Errorf("gemini: %s", got)
	}
	for _, c := range []struct {
		name  string
		scope Scope
		hint  string
	}{{"antigravity", Project, ""}, {"auggie", User, ""}, {"kilo", Project, "add --scope user"}} {
		_, _, probs := entryOf(t, c.name, c.scope, "/usr/bin/mcpwire", "linux", s)
		p, _ := Get(c.name)
		if len(probs) != 2 || probs[0].Field != "headerSecret.X-Api-Key" || probs[1].Field != "bearerSecret" ||
			!strings.Contains(probs[0].Reason, p.Display+" runs no headers helper") || !strings.HasPrefix(probs[0].Hint, c.hint) {
			t.Errorf("%s: %+v", c.name, probs)
		}
	}
}

// spec: S2 T6 — what mcpwire writes reads back as the server it was written from:
// an exec entry as the server it starts with its envSecret, Claude Code's headersHelper
// as headerSecret and bearerSecret; a helper of the person's own stays theirs.
func TestReadBackSecrets(t *testing.T) {
	claude, _ := Get("claude-code")
	tg := Target{P: claude, Scope: User}
	for _, tc := range []struct{ entry, want string }{
		{`{"command":"/usr/bin/mcpwire","args":["exec","--env-secret","K=pass:x","--","srv","a"]}`,
			`{"name":"","type":"stdio","command":"srv","args":["a"],"envSecret":{"K":"pass:x"}}`},
		{`{"command":"C:\\mcpwire\\MCPWIRE.EXE","args":["exec","--env-secret","K=pass:x","--","srv"]}`,
			`{"name":"","type":"stdio","command":"srv","envSecret":{"K":"pass:x"}}`},
		{`{"command":"mcpwire","args":["exec","--env-secret","K=pass:x","--","srv"],"env":{"K":"v"}}`,
			`{"name":"","type":"stdio","command":"mcpwire","args":["exec","--env-secret","K=pass:x","--","srv"],"env":{"K":"v"}}`},
		{`{"command":"mcpwire","args":["exec","--","srv"]}`,
			`{"name":"","type":"stdio","command":"srv"}`},
		{`{"command":"other","args":["exec","--env-secret","K=pass:x","--","srv"]}`,
			`{"name":"","type":"stdio","command":"other","args":["exec","--env-secret","K=pass:x","--","srv"]}`},
		{`{"type":"http","url":"https://h/mcp","headersHelper":"mcpwire headers --bearer-secret 'pass:a b'"}`,
			`{"name":"","type":"http","url":"https://h/mcp","bearerSecret":"pass:a b"}`},
	} {
		im, err := ReadBack(tg, claude.Dialect(), json.RawMessage(tc.entry))
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(im.Server); string(b) != tc.want || len(im.Dropped) != 0 {
			t.Errorf("%s:\n got %s %v\nwant %s", tc.entry, b, im.Dropped, tc.want)
		}
	}
	im, _ := ReadBack(tg, claude.Dialect(), json.RawMessage(`{"type":"http","url":"https://h/mcp","headersHelper":"./get-token.sh"}`))
	if im.Server.BearerSecret != "" || len(im.Dropped) != 1 || im.Dropped[0] != "headersHelper" {
		t.Errorf("a helper of the person's: %+v %v", im.Server, im.Dropped)
	}
	// S4: a 1Password reference left in env or a header is one the client does not resolve
	im, _ = ReadBack(tg, claude.Dialect(), json.RawMessage(`{"command":"srv","env":{"T":"op://v/i/f","U":"pass:x"}}`))
	if len(im.Unresolved) != 1 || im.Unresolved[0] != (Unresolved{"env.T", StyleStoreRef}) {
		t.Errorf("unresolved: %+v", im.Unresolved)
	}
	im, _ = ReadBack(tg, claude.Dialect(), json.RawMessage(`{"type":"http","url":"https://h/mcp","headers":{"Authorization":"Bearer op://v/i/f"}}`))
	if len(im.Unresolved) != 1 || im.Unresolved[0].Field != "headers.Authorization" {
		t.Errorf("unresolved header: %+v", im.Unresolved)
	}
}

func TestSecretVariable(t *testing.T) {
	if v := SecretVariable("my-notes.v2", "X-Api-Key"); v != "MCPWIRE_SECRET_MY_NOTES_V2_X_API_KEY" {
		t.Error(v)
	}
}
