package redact

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/policy"
)

// diffLines feeds the lines of a file through the redactor, as the dry run's diff does.
func diffLines(r *Redactor, data string) string {
	var out []string
	for _, l := range strings.Split(data, "\n") {
		out = append(out, r.Line(" " + l)[1:]) // a context line
	}
	return strings.Join(out, "\n")
}

// spec: R8 — every credential of a client file is hidden in its diff lines, whatever
// its escapes, by the file's structure: env/headers/auth/oauth values at any depth,
// credential arguments, URL userinfo and query tokens, secret-named keys.
func TestRedactorJSON(t *testing.T) {
	file := `{
  // JSONC comment
  "mcpServers": {
    "a": {"command": "x", "env": {"T": "SPELLED\u0053ECRET1", "Q": "quo\"te\\SECRET2", "MODE": "true", "NAME": "command"}},
    "b": {"args": ["--api-key", "ARGSECRET3", "-e", "GITHUB_TOKEN=ENVARGSECRET4"], "disabled": true},
    "c": {"url": "https://u:URLSECRET5@h/mcp?access_token=QUERYSECRET6"},
    "d": {"httpUrl": "https://h/mcp", "headers": {"X-Key": "HDRSECRET7"}, "oauth": {"nested": {"client_secret": "NESTSECRET8"}}},
  },
  "primaryApiKey": "sk-ant-TOPSECRET9",
  "projects": {"/p": {"mcpServers": {"e": {"command": "npx mcp-remote https://u:CMDSECRET10@h/sse"}}}}
}`
	r := New()
	r.File("/h/.claude.json", []byte(file))
	got := diffLines(r, file)
	for _, s := range []string{"SECRET", "u0053ECRET"} {
		if strings.Contains(got, s) {
			t.Errorf("diff shows %s:\n%s", s, got)
		}
	}
	for _, want := range []string{`"disabled": true`, `"command": "x"`, `"MODE": "REDACTED"`, `"NAME": "REDACTED"`,
		`["--api-key", "REDACTED", "-e", "GITHUB_TOKEN=REDACTED"]`, `"https://REDACTED@h/mcp?access_token=REDACTED"`,
		`"httpUrl": "https://h/mcp"`, `// JSONC comment`} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %s:\n%s", want, got)
		}
	}
}

// spec: R8
func TestRedactorTOML(t *testing.T) {
	file := `[mcp_servers.a]
command = "x"
args = ["--token", 'TOMLARGSECRET1']
env = { T = "esc\"aped\\SECRET2", U = "\U00000053ECRET3" }
http_headers = { Authorization = 'Bearer LITERALSECRET4' }
bearer_token_env_var = "GITHUB_TOKEN"
url = "https://h/mcp?api_key=QUERYSECRET5"
`
	r := New()
	r.File("/h/.codex/config.toml", []byte(file))
	got := diffLines(r, file)
	if strings.Contains(got, "SECRET") {
		t.Errorf("diff shows a secret:\n%s", got)
	}
	for _, want := range []string{`args = ["--token", 'REDACTED']`, `bearer_token_env_var = "GITHUB_TOKEN"`, `Authorization = 'REDACTED'`} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %s:\n%s", want, got)
		}
	}
}

// spec: R8 — a file that parses as neither JSON nor TOML is read line by line.
func TestRedactorMalformed(t *testing.T) {
	file := `{"mcpServers": {"a": {"env": {"API_TOKEN": "BROKENSECRET1"}, "url": "https://u:BROKENSECRET2@h"}` // unterminated
	r := New()
	r.File("/h/mcp.json", []byte(file))
	if got := diffLines(r, file); strings.Contains(got, "SECRET") {
		t.Errorf("diff shows a secret: %s", got)
	}
}

// A cut or malformed document is refused (json reports false) and the file is
// read line by line instead.
func TestRedactorTruncatedJSON(t *testing.T) {
	doc := `{"a": {"env": {"K": "v\"1"}, "args": ["--token", "x", 1, {"b": [true, null]}], "n": -1.5e3}, "c": []}`
	for i := 0; i < len(doc); i++ {
		r := New()
		if r.json([]byte(doc[:i])) && i != len(doc) {
			t.Errorf("prefix %q parsed", doc[:i])
		}
		r.File("/x.json", []byte(doc[:i]))
	}
	r := New()
	if !r.json([]byte(" \n" + doc + "\n")) {
		t.Fatal("whole document refused")
	}
	if r.exact[`v"1`] != "REDACTED" || r.exact["x"] != "REDACTED" {
		t.Errorf("exact = %q", r.exact)
	}
}

// The diff's own lines (file and hunk headers, mkdir, would also write) are printed
// as they are, even when a hidden value is part of a path; file lines are redacted.
func TestRedactorKeepsDiffHeaders(t *testing.T) {
	r := New()
	r.DiffPath("/home/me/repo/.mcp.json")
	r.addCredential("/home/me/repo")
	for _, l := range []string{"--- a/home/me/repo/.mcp.json", "+++ b/home/me/repo/.mcp.json", "--- /dev/null",
		"@@ -1,2 +1,3 @@", "mkdir /home/me/repo/.cursor (0700)", "would also write /home/me/repo/.aiwg/x.json", "new file mode 0600"} {
		if got := r.Line(l); got != l {
			t.Errorf("line(%q) = %q", l, got)
		}
	}
	if got := r.Line(`+    "ROOT": "/home/me/repo"`); got != `+    "ROOT": "REDACTED"` {
		t.Errorf("file line: %q", got)
	}
	if got := r.Line("--- a/home/other/.mcp.json"); got != "--- a/home/other/.mcp.json" {
		t.Errorf("%q", got)
	}
}

// spec: R8 — a server's name is never changed in a diff line, and never taken for a
// credential's key: servers called pw, token, auth or pass keep their names and their
// commands, and the credentials under them are still hidden. A key is kept even when
// it equals a value hidden anywhere.
func TestRedactorKeepsNames(t *testing.T) {
	file := `{
  "mcpServers": {
    "pw": {"command": "run", "env": {"DB": "NAMESECRET1"}},
    "token": {
      "command": "run",
      "args": ["--token", "NAMESECRET2"]
    },
    "auth": {"command": "run", "oauth": {"client_id": "NAMESECRET3"}}
  },
  "projects": {"/p": {"mcp_servers": {"pass": {"command": "run"}}}}
}`
	r := New("mcpServers", "mcp_servers")
	r.File("/h/.claude.json", []byte(file))
	r.addAnywhere("shared-name-1")
	got := diffLines(r, file)
	if strings.Contains(got, "SECRET") {
		t.Errorf("diff shows a secret:\n%s", got)
	}
	for _, want := range []string{`"pw": {"command": "run", "env": {"DB": "REDACTED"}},`, `"token": {`, `"command": "run",`,
		`"args": ["--token", "REDACTED"]`, `"auth": {"command": "run", "oauth": {"client_id": "REDACTED"}}`,
		`"pass": {"command": "run"}`} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %s:\n%s", want, got)
		}
	}
	for line, want := range map[string]string{
		`+    "pw": {`:                     `+    "pw": {`,
		`-pw = { command = "x" }`:          `-pw = { command = "x" }`,
		`+[mcp_servers.token]`:             `+[mcp_servers.token]`,
		`+  "shared-name-1": {`:            `+  "shared-name-1": {`,
		`+  "x": "shared-name-1",`:         `+  "x": "REDACTED",`,
		`+  "note": "shared-name-1 here",`: `+  "note": "REDACTED here",`,
	} {
		if got := r.Line(line); got != want {
			t.Errorf("Line(%q) = %q, want %q", line, got, want)
		}
	}
}

// spec: R8 — a JSON file with a byte order mark is read by its structure, like any
// other: a value under env is hidden whole, whatever its key.
func TestRedactorBOM(t *testing.T) {
	file := "\xef\xbb\xbf" + `{"mcpServers": {"a": {"env": {"MODE": "BOMSECRET1"}}}}`
	r := New("mcpServers")
	r.File("/h/mcp.json", []byte(file))
	if got := r.Line("+" + file); strings.Contains(got, "SECRET") {
		t.Errorf("shown: %s", got)
	}
	r = New("mcpServers")
	r.Change("/h/mcp.json", []byte("\xef\xbb\xbf{}"), []byte(file))
	if got := r.Line("+" + file); strings.Contains(got, "SECRET") {
		t.Errorf("shown after a change: %s", got)
	}
}

// spec: R8 — a YAML file (Goose, Continue): credentials written plain (unquoted) are
// hidden too, and references, names and other values are kept.
func TestRedactorYAML(t *testing.T) {
	file := `extensions:
  a:
    cmd: x
    args: ["--token", "YAMLARGSECRET1"]
    envs:
      T: hunter2
      U: "quoted\u0053ECRET2"
    headers:
      Authorization: Bearer PLAINSECRET3   # c
      X-Team: ${TEAM}
    uri: https://h/mcp?api_key=QUERYSECRET4
mcpServers:
  - name: b
    env:
      K: ${{ secrets.K }}
      L: ahunter2b
    requestOptions:
      headers:
        Authorization: "Bearer ${{ secrets.TK }}"
`
	r := New("extensions", "mcpServers")
	r.File("/h/.config/goose/config.yaml", []byte(file))
	got := diffLines(r, file)
	for _, s := range []string{"SECRET", "hunter2\n", "u0053"} {
		if strings.Contains(got, s) {
			t.Errorf("diff shows %q:\n%s", s, got)
		}
	}
	for _, want := range []string{"T: REDACTED", "Authorization: REDACTED   # c", "X-Team: ${TEAM}", "K: ${{ secrets.K }}", "cmd: x", "  - name: b",
		`Authorization: "Bearer ${{ secrets.TK }}"`} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %s:\n%s", want, got)
		}
	}
}

// spec: H10 R8 — values the registry declares plain are shown in a diff, wherever they
// stand under env or headers, in JSON and TOML; a server's own plain keys are not
// learnt as credentials; every other value stays hidden.
func TestRedactorPlain(t *testing.T) {
	files := map[string]string{
		"/p/.mcp.json":          `{"mcpServers": {"a": {"env": {"LOG": "debug", "T": "TOPSECRET1"}, "headers": {"X-Team": "platform"}}}}`,
		"/h/.codex/config.toml": "[mcp_servers.a.env]\nLOG = \"debug\"\nT = \"TOPSECRET1\"\n",
	}
	for path, file := range files {
		r := New("mcpServers", "mcp_servers")
		r.Plain("debug", "platform")
		r.Server(policy.Fields{Server: "a", Env: map[string]string{"LOG": "debug", "T": "TOPSECRET1"},
			Headers: map[string]string{"X-Team": "platform"}, PlainEnv: map[string]bool{"LOG": true}, PlainHeaders: map[string]bool{"X-Team": true}})
		r.File(path, []byte(file))
		got := diffLines(r, file)
		if strings.Contains(got, "TOPSECRET1") || !strings.Contains(got, "debug") {
			t.Errorf("%s: %s", path, got)
		}
		if strings.HasSuffix(path, ".json") && !strings.Contains(got, `"X-Team": "platform"`) {
			t.Errorf("%s: %s", path, got)
		}
	}
}
