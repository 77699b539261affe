//go:build conformance && unix

package conformance

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// clientTimeout bounds one client command. They take one to five seconds on an idle
// machine; Gemini CLI took half a minute on a loaded one (load average 15, two cores).
const clientTimeout = 4 * time.Minute

// Sentinel values of the variables the profile references. mcpwire runs with them set
// too: they must never reach a file it writes (the reference stays a reference), and
// the clients must send them to the HTTP server (the reference resolves).
var sentinels = map[string]string{
	"CONF_STDIO_TOKEN":   "sentinel-stdio-7f3a",
	"CONF_TICKETS_TOKEN": "sentinel-tickets-91c2",
	"CONF_NOTES_TOKEN":   "sentinel-notes-5be8",
	// the forms of other clients, translated (meaning_test.go, T7)
	"MCP_INPUT_CONF_KEY": "sentinel-input-c0e1",
	"CONF_ENV_TOKEN":     "sentinel-env-2d4f",
	"CONF_BARE_TOKEN":    "sentinel-bare-6a90",
	"CONF_IN_KEY":        "sentinel-in-3b71",
	"CONF_BARE_SRC":      "sentinel-baresrc-8e22",
	"CONF_EMB_SRC":       "sentinel-emb-4c15",
}

var (
	cl      *clients
	mcpwire string
	relay   *headerProxy
	sseURL  string // server-everything's SSE transport
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	fail := func(err error) int {
		fmt.Fprintf(os.Stderr, "conformance: FAIL: %v\n", err)
		return 1
	}
	start := time.Now()
	var err error
	if cl, err = installClients(); err != nil {
		return fail(err)
	}
	state := "installed"
	if cl.cached {
		state = "cached"
	}
	fmt.Fprintf(os.Stderr, "conformance: clients %s in %s (%s)\n", state, cl.dir, time.Since(start).Round(time.Millisecond))

	work, err := os.MkdirTemp("", "mcpwire-conformance-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(work)
	if mcpwire, err = buildMcpwire(work); err != nil {
		return fail(err)
	}
	stop, err := startHTTPServer(work)
	if err != nil {
		return fail(err)
	}
	defer stop()
	stopModel, err := startModelServer()
	if err != nil {
		return fail(err)
	}
	defer stopModel()
	code := m.Run()
	if err := writeSummary(cl); err != nil {
		return fail(err)
	}
	return code
}

// ---- processes ----

type result struct {
	label  string // what was checked, when it was not a command
	cmd    string
	dir    string
	stdout string
	stderr string
	exit   int
	err    error // start failure or timeout
	took   time.Duration
}

func (r result) status() string {
	switch {
	case r.err != nil:
		return r.err.Error()
	default:
		return fmt.Sprintf("exit %d after %s", r.exit, r.took.Round(time.Millisecond))
	}
}

// output is stdout and stderr together: several clients print their listing on stderr.
func (r result) output() string { return r.stdout + r.stderr }

// runProcess runs a command in its own process group with stdin from /dev/null and
// stdout/stderr in files (so that a server a client leaves behind cannot hold a pipe
// open). On timeout, and after every run, the whole group is killed.
func runProcess(dir string, env []string, timeout time.Duration, name string, args ...string) result {
	r := result{cmd: strings.Join(append([]string{name}, args...), " "), dir: dir}
	outF, err := os.CreateTemp("", "conformance-stdout-")
	if err != nil {
		r.err = err
		return r
	}
	defer os.Remove(outF.Name())
	defer outF.Close()
	errF, err := os.CreateTemp("", "conformance-stderr-")
	if err != nil {
		r.err = err
		return r
	}
	defer os.Remove(errF.Name())
	defer errF.Close()

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = outF, errF
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err = cmd.Start()
	if err == nil {
		err = cmd.Wait()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stragglers (servers the client started)
	}
	r.took = time.Since(start)
	if b, e := os.ReadFile(outF.Name()); e == nil {
		r.stdout = string(b)
	}
	if b, e := os.ReadFile(errF.Name()); e == nil {
		r.stderr = string(b)
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.err = fmt.Errorf("timed out after %s (process group killed)", timeout)
		r.exit = -1
	case errors.As(err, &exit):
		r.exit = exit.ExitCode()
	case err != nil:
		r.err = err
		r.exit = -1
	}
	return r
}

// ---- the HTTP MCP server behind a header-recording proxy ----

// headerProxy forwards /<scenario>/<server>/mcp to server-everything's /mcp (and
// /<scenario>/<server>/sse to its SSE transport) and keeps the headers of every request,
// so a test can see what each client really sent.
type headerProxy struct {
	base string // http://127.0.0.1:PORT
	mu   sync.Mutex
	seen map[string][]http.Header // "<scenario>/<server>" → request headers
}

func (p *headerProxy) headers(scenario, server string) []http.Header {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.seen[scenario+"/"+server])
}

// at is the headers of every request to url, an address behind the proxy
// (/<scenario>/<server>/mcp or …/sse); nil for any other.
func (p *headerProxy) at(url string) []http.Header {
	path, ok := strings.CutPrefix(url, p.base+"/")
	if !ok {
		return nil
	}
	parts := strings.Split(path, "/")
	if len(parts) != 3 {
		return nil
	}
	return p.headers(parts[0], parts[1])
}

// forget drops what the servers of one scenario received.
func (p *headerProxy) forget(scenario string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for k := range p.seen {
		if strings.HasPrefix(k, scenario+"/") {
			delete(p.seen, k)
		}
	}
}

// startHTTPServer starts server-everything twice, with its streamable HTTP transport
// (behind the header-recording proxy) and with its SSE transport (reached directly, or
// in a traced scenario through the proxy, which also forwards the /message path its
// endpoint event names).
func startHTTPServer(work string) (stop func(), err error) {
	upstream, stopHTTP, err := startEverything(work, "streamableHttp")
	if err != nil {
		return nil, err
	}
	sse, stopSSE, err := startEverything(work, "sse")
	if err != nil {
		stopHTTP()
		return nil, err
	}
	sseURL = "http://" + sse + "/sse"

	relay = &headerProxy{seen: map[string][]http.Header{}}
	// to forwards to one of the two servers, at path (the request's own when "")
	to := func(host, path string) *httputil.ReverseProxy {
		return &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) {
				pr.SetURL(&url.URL{Scheme: "http", Host: host})
				if path != "" {
					pr.Out.URL.Path, pr.Out.URL.RawPath = path, ""
				}
				pr.Out.Host = host
			},
			FlushInterval: -1,
		}
	}
	toHTTP, toSSE, toMessages := to(upstream, "/mcp"), to(sse, "/sse"), to(sse, "")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// the SSE server's endpoint event names /message?sessionId=…, an absolute path:
		// a client reached through /<scenario>/<server>/sse posts there (trace_test.go)
		if r.URL.Path == "/message" {
			toMessages.ServeHTTP(w, r)
			return
		}
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if len(parts) != 3 || (parts[2] != "mcp" && parts[2] != "sse") {
			http.NotFound(w, r)
			return
		}
		relay.mu.Lock()
		relay.seen[parts[0]+"/"+parts[1]] = append(relay.seen[parts[0]+"/"+parts[1]], r.Header.Clone())
		relay.mu.Unlock()
		if parts[2] == "sse" {
			toSSE.ServeHTTP(w, r)
			return
		}
		toHTTP.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		stopSSE()
		stopHTTP()
		return nil, err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(ln)
	relay.base = "http://" + ln.Addr().String()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		srv.Close()
		stopSSE()
		stopHTTP()
	}, nil
}

// startEverything runs `node server-everything TRANSPORT` on a free port of 127.0.0.1
// and waits until it listens.
func startEverything(work, transport string) (addr string, stop func(), err error) {
	port, err := freePort()
	if err != nil {
		return "", nil, err
	}
	logPath := filepath.Join(work, "server-everything-"+transport+".log")
	logF, err := os.Create(logPath)
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(cl.node, cl.everything, transport)
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	cmd.Stdout, cmd.Stderr = logF, logF
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logF.Close()
		return "", nil, fmt.Errorf("start server-everything %s: %w", transport, err)
	}
	stop = func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		logF.Close()
	}
	addr = fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(90 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			b, _ := os.ReadFile(logPath)
			return "", nil, fmt.Errorf("server-everything %s did not listen on %s:\n%s", transport, addr, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// ---- scenarios ----

// scenario is one client and scope in its own scratch HOME and project.
type scenario struct {
	t        *testing.T
	name     string // "claude-project", used in URLs and messages
	provider string // mcpwire provider name
	scope    string
	root     string
	home     string
	proj     string
	srv      string   // the working directory of server wd
	env      []string // extra variables for mcpwire and the client (relocations)
	files    []string // the files mcpwire writes, shown on failure
	// traced: the servers report who reached them (trace_test.go): the stdio servers
	// record their start, and the SSE server is reached through the proxy
	traced bool
}

// newScenario makes a scratch HOME and project. variant is "project", "user", or
// "relocated": user scope with the client's folder moved by its environment variable
// (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, XDG_CONFIG_HOME), set for mcpwire and
// the client alike (spec: V1).
func newScenario(t *testing.T, provider, client, variant string) *scenario {
	t.Helper()
	if provider != "" {
		cl.need(t, provider)
		// registered before TempDir's: cleanups run last first, and this one must see
		// the verdict of every other
		t.Cleanup(func() { results.record(provider, scenarioLabel(provider, client, variant), t.Failed()) })
	}
	root, err := filepath.EvalSymlinks(t.TempDir()) // clients key projects by real path
	if err != nil {
		t.Fatal(err)
	}
	scope := variant
	if variant == "relocated" {
		scope = "user"
	}
	s := &scenario{t: t, name: client + "-" + variant, provider: provider, scope: scope, root: root,
		home: filepath.Join(root, "home"), proj: filepath.Join(root, "project")}
	for _, d := range []string{s.home, s.proj, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// baseEnv is the environment of mcpwire and the clients: nothing of the caller's but
// PATH, and a scratch HOME with every XDG folder inside it.
func (s *scenario) baseEnv() []string {
	path := filepath.Dir(cl.node) + string(os.PathListSeparator) + filepath.Join(cl.dir, "node_modules", ".bin") +
		string(os.PathListSeparator) + os.Getenv("PATH")
	env := []string{
		"PATH=" + path,
		"HOME=" + s.home,
		"USER=conformance",
		"LOGNAME=conformance",
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=" + filepath.Join(filepath.Dir(s.home), "tmp"),
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(s.home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(s.home, ".cache"),
	}
	for k, v := range sentinels {
		env = append(env, k+"="+v)
	}
	return append(env, s.env...) // later entries win
}

// relocate sets variable k to a folder outside HOME and returns it.
func (s *scenario) relocate(k string) string {
	dir := filepath.Join(s.root, "relocated-"+strings.ToLower(k))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	s.env = append(s.env, k+"="+dir)
	return dir
}

// clientEnv adds what keeps the clients quiet, offline and non-interactive, and keeps
// Qwen Code's machine-wide settings files out of the way.
func (s *scenario) clientEnv() []string {
	etc := filepath.Join(s.root, "etc", "qwen-code")
	return append(append(s.baseEnv(), cl.quietEnv()...),
		"QWEN_CODE_SYSTEM_SETTINGS_PATH="+filepath.Join(etc, "settings.json"),
		"QWEN_CODE_SYSTEM_DEFAULTS_PATH="+filepath.Join(etc, "system-defaults.json"))
}

// quietEnv is what every client run gets (the scenarios and the version check).
func (c *clients) quietEnv() []string {
	return []string{
		"CI=1",
		"NO_COLOR=1",
		"FORCE_COLOR=0",
		// Claude Code
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"MCP_TIMEOUT=90000", // server start-up timeout in ms (default 30 s)
		// Gemini CLI: do not re-exec itself with a bigger heap (halves its start-up time)
		"GEMINI_CLI_NO_RELAUNCH=true",
		// opencode
		"OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		// Copilot CLI: its package is unpacked once, into the cache (235 MB per HOME
		// otherwise, and 5 s)
		"COPILOT_PKG_CACHE_HOME=" + c.copilotPkg,
		"COPILOT_AUTO_UPDATE=false",
		// auggie
		"AUGMENT_DISABLE_AUTO_UPDATE=1",
		// Kilo; KILO_TELEMETRY_LEVEL other than "all" turns PostHog off, whose flush at
		// exit waits up to 16 s for the closed network
		"KILO_DISABLE_AUTOUPDATE=1",
		"KILO_DISABLE_MODELS_FETCH=1",
		"KILO_DISABLE_LSP_DOWNLOAD=1",
		"KILO_DISABLE_SESSION_INGEST=1",
		"KILO_DISABLE_SHARE=1",
		"KILO_TELEMETRY_LEVEL=off",
		// Factory droid: no self-update, no keyring
		"FACTORY_DROID_AUTO_UPDATE_ENABLED=false",
		"FACTORY_DISABLE_KEYRING=1",
		// Grok Build, run as its npm launcher runs it
		"GROK_MANAGED_BY_NPM=1",
		"GROK_DISABLE_AUTOUPDATER=1",
		"GROK_TELEMETRY_ENABLED=false",
		// Continue CLI: no telemetry; and never `npm i -g` itself (headless cn does not
		// check, this makes sure)
		"CONTINUE_CLI_ENABLE_TELEMETRY=0",
		"CONTINUE_CLI_AUTO_UPDATED=true",
		// Cline
		"CLINE_NO_AUTO_UPDATE=1",
	}
}

// mcpwire runs mcpwire in the scenario's HOME; a failure ends the test.
func (s *scenario) mcpwire(args ...string) result {
	s.t.Helper()
	env := append(s.baseEnv(), "AIWG_CONFIG="+filepath.Join(s.home, ".aiwg"))
	r := runProcess(s.proj, env, clientTimeout, mcpwire, args...)
	if r.err != nil || r.exit != 0 {
		s.t.Fatalf("mcpwire %s: %s\n--- stdout ---\n%s--- stderr ---\n%s", strings.Join(args, " "), r.status(), r.stdout, r.stderr)
	}
	return r
}

// client runs a client command in the project folder.
func (s *scenario) client(bin string, args ...string) result {
	return runProcess(s.proj, s.clientEnv(), clientTimeout, bin, args...)
}

// url is the address of one HTTP server of this scenario, behind the proxy.
func (s *scenario) url(server string) string {
	return relay.base + "/" + s.name + "/" + server + "/mcp"
}

// serverDir makes s.srv, the working directory of server wd: a folder holding
// everything.js, a symlink to server-everything (traced: a script that records the
// start, then runs it), so that `node everything.js stdio` starts only where the client
// honours cwd.
func (s *scenario) serverDir() {
	if s.srv != "" {
		return
	}
	s.srv = filepath.Join(s.root, "srv")
	if err := os.MkdirAll(s.srv, 0o755); err != nil {
		s.t.Fatal(err)
	}
	if s.traced {
		s.recorder("wd", filepath.Join(s.srv, "everything.js"))
		return
	}
	if err := os.Symlink(cl.everything, filepath.Join(s.srv, "everything.js")); err != nil {
		s.t.Fatal(err)
	}
}

// define creates the registry every scenario uses (spec: R1 R3 R4 F1 F2):
//
//	everything  stdio: node <server-everything> stdio, env CONF_STDIO_TOKEN from the client's CONF_STDIO_TOKEN
//	tickets     http, header Authorization from CONF_TICKETS_TOKEN
//	notes       http, Authorization: Bearer from CONF_NOTES_TOKEN
//	legacy      sse (Codex takes no SSE)
//	wd          stdio: node everything.js stdio, cwd <scratch>/srv, where everything.js is a
//	            symlink to server-everything: it starts only where cwd is honoured
//	profile conf        everything, tickets, notes, wd; deny everything__echo, tickets__delete_ticket;
//	                    allow everything__get-sum, everything__get-env, notes__search;
//	                    for codex only also deny tickets__*
//	profile conf-sse    extends conf, adds legacy
//	profile conf-claude everything, tickets, notes, legacy; deny everything__echo,
//	                    everything__toggle-*, tickets__delete_ticket, notes__* (Claude refuses
//	                    allow; no wd: Claude Code 2.1.328 starts every stdio server in its own
//	                    working directory and ignores "cwd")
func (s *scenario) define() {
	s.serverDir()
	s.mcpwire("server", "add", "everything", "--command", "node", "--arg", s.everythingScript(), "--arg", "stdio",
		"--env-from", "CONF_STDIO_TOKEN=CONF_STDIO_TOKEN")
	s.mcpwire("server", "add", "tickets", "--type", "http", "--url", s.url("tickets"),
		"--header-env", "Authorization=CONF_TICKETS_TOKEN")
	s.mcpwire("server", "add", "notes", "--type", "http", "--url", s.url("notes"), "--bearer-env", "CONF_NOTES_TOKEN")
	s.mcpwire("server", "add", "wd", "--command", "node", "--arg", "everything.js", "--arg", "stdio", "--cwd", s.srv)
	s.mcpwire("profile", "add", "conf", "--servers", "everything,tickets,notes,wd",
		"--tool-deny", "everything__echo,tickets__delete_ticket",
		"--tool-allow", "everything__get-sum,everything__get-env,notes__search")
	s.mcpwire("profile", "edit", "conf", "--provider", "codex", "--tool-deny", "tickets__*")
	s.mcpwire("server", "add", "legacy", "--type", "sse", "--url", s.sseURL())
	s.mcpwire("profile", "add", "conf-sse", "--extends", "conf", "--servers", "legacy")
	s.mcpwire("profile", "add", "conf-claude", "--servers", "everything,tickets,notes,legacy",
		"--tool-deny", "everything__echo,everything__toggle-*,tickets__delete_ticket,notes__*")
}

// inject runs mcpwire inject and records the files it is expected to write.
func (s *scenario) inject(profile string, files ...string) result {
	s.t.Helper()
	s.files = files
	args := []string{"inject", "--provider", s.provider, "--profile", profile, "--project", s.proj}
	if s.scope != "" {
		args = append(args, "--scope", s.scope)
	}
	r := s.mcpwire(args...)
	var problems []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			problems = append(problems, fmt.Sprintf("mcpwire did not write %s: %v", f, err))
			continue
		}
		for k, v := range sentinels {
			if strings.Contains(string(b), v) {
				problems = append(problems, fmt.Sprintf("%s holds the value of %s: a reference was resolved at write time", f, k))
			}
		}
	}
	if len(problems) > 0 {
		s.t.Fatalf("%s\n%s", strings.Join(problems, "\n"), s.filesDump())
	}
	return r
}

func (s *scenario) filesDump() string {
	var b strings.Builder
	for _, f := range s.files {
		content, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(&b, "=== written by mcpwire: %s (unreadable: %v)\n", f, err)
			continue
		}
		fmt.Fprintf(&b, "=== written by mcpwire: %s\n%s", f, content)
		if len(content) > 0 && content[len(content)-1] != '\n' {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// writeFile seeds a file before mcpwire runs (state the client needs, or that mcpwire
// must keep).
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
