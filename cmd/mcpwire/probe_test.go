package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/registry"
)

// probeRun runs `mcpwire probe` in process against a registry directory holding
// servers and profiles (JSON objects), with the given environment.
func probeRun(t testing.TB, servers, profiles string, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var errb bytes.Buffer
	code, stdout = probeRunTo(t, &errb, servers, profiles, vars, args...)
	return code, stdout, errb.String()
}

// probeRunTo is probeRun with stderr going to the given writer.
func probeRunTo(t testing.TB, stderr io.Writer, servers, profiles string, vars map[string]string, args ...string) (code int, stdout string) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, kind, key, body string) {
		doc := `{"apiVersion":"aiwg.io/v1","kind":"` + kind + `","` + key + `":` + body + `}`
		if err := os.WriteFile(filepath.Join(cfg, name), []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("mcp-servers.json", "McpServerRegistry", "servers", servers)
	if profiles != "" {
		write("mcp-profiles.json", "McpProfileRegistry", "profiles", profiles)
	}
	var out bytes.Buffer
	env := &Env{
		Getenv: func(k string) string { return vars[k] },
		Stdin:  strings.NewReader(""), Stdout: &out, Stderr: stderr,
		FS: fsys.NewOS(), Home: dir, Cwd: dir,
	}
	code = Main(append([]string{"--config-dir", cfg, "probe"}, args...), env)
	return code, out.String()
}

func noSecret(t testing.TB, secrets []string, outputs ...string) {
	t.Helper()
	for _, o := range outputs {
		for _, s := range secrets {
			if strings.Contains(o, s) {
				t.Errorf("output shows secret %q:\n%s", s, o)
			}
		}
	}
}

// A stdio server is started with its command, args, cwd (${project}) and env
// (literal and envFrom), and every tools/list page is read.
//
// spec: R10
func TestProbeStdio(t *testing.T) {
	project := t.TempDir()
	if err := os.Mkdir(filepath.Join(project, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	servers := `{
		"local": {"name":"local","type":"stdio","command":"mcptest",
			"args":["-tools","a,b,c,d,e","-page-size","2","-cwd-tool","-require-env","MODE=${project}/fast","-same-env","SERVER_TOKEN=CLIENT_TOKEN"],
			"env":{"MODE":"${project}/fast"},"envFrom":{"SERVER_TOKEN":"CLIENT_TOKEN"},"cwd":"${project}/work"}
	}`
	vars := map[string]string{"CLIENT_TOKEN": "stdio-secret-value"}
	t.Setenv("CLIENT_TOKEN", "stdio-secret-value") // the child inherits mcpwire's real environment
	code, out, errOut := probeRun(t, servers, "", vars, "--servers", "local", "--project", project)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if want := "local: a, b, c, cwd_work, d, e\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	noSecret(t, []string{"stdio-secret-value"}, out, errOut)
}

// envFrom is resolved from mcpwire's environment: a different value there makes the
// server refuse to start, and its stderr (redacted) is in the error.
func TestProbeStdioEnvFromMismatch(t *testing.T) {
	servers := `{"local": {"name":"local","type":"stdio","command":"mcptest",
		"args":["-same-env","SERVER_TOKEN=CLIENT_TOKEN"],"envFrom":{"SERVER_TOKEN":"OTHER_TOKEN"}}}`
	t.Setenv("CLIENT_TOKEN", "expected-value")
	code, out, errOut := probeRun(t, servers, "", map[string]string{"OTHER_TOKEN": "other-secret-value"}, "--servers", "local")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if !strings.HasPrefix(out, "local: error: ") || !strings.Contains(out, "environment variable SERVER_TOKEN is not the value of CLIENT_TOKEN") {
		t.Errorf("stdout = %q", out)
	}
	noSecret(t, []string{"other-secret-value", "expected-value"}, out, errOut)
}

// http and sse servers get literal headers, headerEnv and bearerEnv resolved from
// the environment; no value appears in any output.
func TestProbeRemoteHeaders(t *testing.T) {
	srv := httptest.NewServer(testMCPHandler(newTestMCPServer([]string{"r1", "r2", "r3"}, 2), map[string]string{
		"X-Api-Key":     "header-secret-1",
		"Authorization": "Bearer bearer-secret-2",
		"X-Team":        "literal-team",
	}))
	defer srv.Close()
	servers := `{
		"remote": {"name":"remote","type":"http","url":"` + srv.URL + `/mcp",
			"headers":{"X-Team":"literal-team"},"headerEnv":{"X-Api-Key":"PROBE_KEY"},"bearerEnv":"PROBE_TOKEN"},
		"events": {"name":"events","type":"sse","url":"` + srv.URL + `/sse",
			"headers":{"X-Team":"literal-team"},"headerEnv":{"X-Api-Key":"PROBE_KEY"},"bearerEnv":"PROBE_TOKEN"}
	}`
	secrets := []string{"header-secret-1", "bearer-secret-2", "literal-team"}
	vars := map[string]string{"PROBE_KEY": "header-secret-1", "PROBE_TOKEN": "bearer-secret-2"}
	code, out, errOut := probeRun(t, servers, "", vars, "--servers", "remote,events")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if want := "remote: r1, r2, r3\nevents: r1, r2, r3\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	noSecret(t, secrets, out, errOut)

	// a wrong value is refused by the server: an error without the value
	vars["PROBE_TOKEN"] = "wrong-secret-3"
	code, out, errOut = probeRun(t, servers, "", vars, "--servers", "remote", "--timeout", "5s")
	if code != 1 || !strings.HasPrefix(out, "remote: error: ") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	noSecret(t, append(secrets, "wrong-secret-3"), out, errOut)
}

// A referenced variable that is not set fails that server, naming the variable and
// the field, never a value; the other servers are still probed.
func TestProbeMissingVariable(t *testing.T) {
	servers := `{
		"remote": {"name":"remote","type":"http","url":"https://user:url-secret@example.invalid/mcp",
			"headerEnv":{"X-Api-Key":"PROBE_KEY"},"bearerEnv":"PROBE_TOKEN"},
		"local": {"name":"local","type":"stdio","command":"mcptest","args":["-tools","x"],"envFrom":{"A":"UNSET_VAR"}},
		"ok": {"name":"ok","type":"stdio","command":"mcptest","args":["-tools","y"]}
	}`
	code, out, errOut := probeRun(t, servers, "", map[string]string{"PROBE_TOKEN": "tok-secret"}, "--servers", "remote,local,ok")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	want := "remote: error: environment variable PROBE_KEY (headerEnv X-Api-Key) is not set\n" +
		"local: error: environment variable UNSET_VAR (envFrom A) is not set\n" +
		"ok: y\n"
	if out != want {
		t.Errorf("stdout =\n%s\nwant\n%s", out, want)
	}
	if !strings.Contains(errOut, "mcpwire: error: probe failed for 2 of 3 servers: remote, local") {
		t.Errorf("stderr = %q", errOut)
	}
	noSecret(t, []string{"tok-secret", "url-secret"}, out, errOut)
}

// A server that never answers is killed at the timeout and reported; the others are
// still listed.
func TestProbeTimeoutKills(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	servers := `{
		"slow": {"name":"slow","type":"stdio","command":"mcptest","args":["-hang","-pid-file",` + strconv.Quote(pidFile) + `]},
		"fast": {"name":"fast","type":"stdio","command":"mcptest","args":["-tools","f1,f2"]}
	}`
	code, out, errOut := probeRun(t, servers, "", nil, "--servers", "slow,fast", "--timeout", "1500ms")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	if want := "slow: error: no answer within 1.5s (server stopped)\nfast: f1, f2\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	// the process was killed and reaped: signal 0 finds nothing
	deadline := time.Now().Add(2 * time.Second)
	for {
		alive, err := processAlive(pid)
		if !alive {
			break
		}
		if time.Now().After(deadline) {
			killProcess(pid)
			t.Fatalf("server process %d still exists after the probe (%v)", pid, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Error texts never show env or header values, URL userinfo or credential query
// parameters, not even when a server prints them on stderr.
//
// spec: R8
func TestProbeRedactsErrors(t *testing.T) {
	servers := `{
		"down": {"name":"down","type":"http","url":"http://user:url-pw-1234@127.0.0.1:1/mcp?api_key=query-secret-5678&region=eu"},
		"leaky": {"name":"leaky","type":"stdio","command":"mcptest","args":["-leak-env","TOKEN"],"envFrom":{"TOKEN":"CLIENT_TOKEN"}},
		"leaky2": {"name":"leaky2","type":"stdio","command":"mcptest","args":["-leak-env","LIT"],"env":{"LIT":"literal-secret-9012"}}
	}`
	code, out, errOut := probeRun(t, servers, "", map[string]string{"CLIENT_TOKEN": "env-secret-3456"}, "--servers", "down,leaky,leaky2")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"down: error: ", "region=eu", "leaky: error: ", "(stderr: mcptest: starting with TOKEN=REDACTED)", "LIT=REDACTED"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	noSecret(t, []string{"url-pw-1234", "query-secret-5678", "env-secret-3456", "literal-secret-9012"}, out, errOut)
}

// A command that cannot be started is an error for that server.
func TestProbeCommandNotFound(t *testing.T) {
	servers := `{"gone": {"name":"gone","type":"stdio","command":"mcpwire-no-such-command"}}`
	code, out, _ := probeRun(t, servers, "", nil, "--servers", "gone")
	if code != 1 || !strings.HasPrefix(out, "gone: error: ") || !strings.Contains(out, "mcpwire-no-such-command") {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}

// Filter patterns that match no tool of a server that answered are warned about,
// once each; matched patterns, patterns for servers outside the selection and for
// servers that failed are not. --provider adds that key's patterns (F2).
//
// spec: F1 F2
func TestProbeFilterWarnings(t *testing.T) {
	servers := `{
		"docs": {"name":"docs","type":"stdio","command":"mcptest","args":["-tools","search,read_page,delete_page"]},
		"docs__v2": {"name":"docs__v2","type":"stdio","command":"mcptest","args":["-tools","fetch"]},
		"broken": {"name":"broken","type":"stdio","command":"mcpwire-no-such-command"},
		"other": {"name":"other","type":"stdio","command":"mcptest"}
	}`
	profiles := `{
		"p": {"name":"p","servers":["docs","docs__v2","broken"],"providerOverrides":{
			"*": {"toolDeny":["docs__delete_*","docs__write_*","docs__v2__fetch","docs__v2__nope","broken__x","other__x","nounderscore","*__read"],
			      "toolAllow":["docs__read_*","docs__search","docs__delete_*"]},
			"codex": {"toolDeny":["docs__codex_only"]}
		}}
	}`
	code, out, errOut := probeRun(t, servers, profiles, nil, "--profile", "p")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (broken fails)\n%s%s", code, out, errOut)
	}
	warnings := func(s string) []string {
		var w []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "WARNING ") {
				w = append(w, l)
			}
		}
		return w
	}
	want := []string{
		`WARNING probe: pattern "docs__write_*" matches no tool of docs`,
		`WARNING probe: pattern "docs__v2__nope" matches no tool of docs__v2`,
		`WARNING probe: tool pattern "nounderscore" is not SERVER__TOOL; ignored`,
		`WARNING probe: tool pattern "*__read" has a glob in the server part; ignored`,
	}
	if got := warnings(errOut); !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, _, errOut = probeRun(t, servers, profiles, nil, "--profile", "p", "--provider", "openai")
	if got := warnings(errOut); !slices.Contains(got, `WARNING probe: pattern "docs__codex_only" matches no tool of docs`) || len(got) != len(want)+1 {
		t.Errorf("with --provider openai (codex): %s", strings.Join(got, "\n"))
	}
}

// --json prints one document: every server in order with its tools, and an error
// for a failure.
func TestProbeJSON(t *testing.T) {
	servers := `{
		"b": {"name":"b","type":"stdio","command":"mcptest","args":["-tools","t1,t2,t3"]},
		"a": {"name":"a","type":"stdio","command":"mcptest","args":["-tools",""]},
		"c": {"name":"c","type":"http","url":"https://example.invalid/mcp","bearerEnv":"NOPE"}
	}`
	code, out, errOut := probeRun(t, servers, "", nil, "--servers", "b,a,c", "--json")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	want := `[{"server":"b","tools":["t1","t2","t3"]},{"server":"a","tools":[]},` +
		`{"error":"environment variable NOPE (bearerEnv) is not set","server":"c","tools":[]}]`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Errorf("json = %s\nwant   %s", b, want)
	}
}

// Unknown server names are refused before anything is started.
func TestProbeUnknownServer(t *testing.T) {
	code, out, errOut := probeRun(t, `{}`, `{"p":{"name":"p","servers":["ghost"]}}`, nil, "--profile", "p")
	if code != 1 || out != "" || !strings.Contains(errOut, `profile "p" names servers not defined in any configuration layer: ghost`) {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
	code, _, errOut = probeRun(t, `{}`, "", nil, "--servers", "a", "--timeout", "0s")
	if code != 2 || !strings.Contains(errOut, "--timeout must be positive") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestFilterWarningsUnit(t *testing.T) {
	filters := map[string]*registry.Filters{
		"*":           {ToolDeny: []string{"s__a*", "s__*", "s__{x,y}", "s__[", "s__zz"}},
		"claude-code": {ToolAllow: []string{"s__zz", "s__b?"}},
	}
	results := []probeResult{{Server: "s", Tools: []string{"abc", "bc", "y"}}}
	got := warningsOf(filterWarnings(filters, []string{"*", "claude-code"}, []string{"s"}, results))
	want := []string{
		`probe: tool pattern "s__[" is not a valid glob; ignored`,
		`probe: pattern "s__zz" matches no tool of s`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// a server with no tools: even SERVER__* matches nothing
	got = warningsOf(filterWarnings(filters, []string{"*"}, []string{"s"}, []probeResult{{Server: "s", Tools: []string{}}}))
	if len(got) != 5 {
		t.Errorf("got %q", got)
	}
}

func warningsOf(issues []filterIssue) []string {
	out := make([]string, len(issues))
	for i, is := range issues {
		out[i] = is.warning
	}
	return out
}

// spec: R8 — a stderr line is redacted whole before it is shortened, and a line
// whose start fell out of the buffer is not shown.
func TestProbeStderrRedactedBeforeCut(t *testing.T) {
	sp := &probeSpec{}
	line := strings.Repeat("a", 185) + " postgres://user:CUTSECRET" + strings.Repeat("x", 40) + "@h/db"
	b := &tailBuffer{}
	b.Write([]byte(line + "\n"))
	got := shorten(sp.redact(b.lastLine()), stderrMax)
	if strings.Contains(got, "CUTSEC") || strings.Contains(got, "xxxx") {
		t.Errorf("shown: %q", got)
	}
	b = &tailBuffer{}
	b.Write([]byte(strings.Repeat("s", tailMax+10)))
	if got := b.lastLine(); got != "" {
		t.Errorf("a cut line is shown: %d bytes", len(got))
	}
}
