package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/policy/redact"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// probeProtocol is the protocol version probe offers. It is the newest version
// negotiated with the `initialize` handshake: newer SDK versions first try the
// stateless server/discover call, which servers written before it may leave
// unanswered. Clients in the field still start with `initialize`, so probe does too.
const probeProtocol = "2025-11-25"

// probeTerminate is how long a stdio server may take to exit after its stdin is
// closed before it is signalled (then killed).
const probeTerminate = time.Second

// probeResult is one server's answer, as printed by `probe --json`.
type probeResult struct {
	Server string   `json:"server"`
	Tools  []string `json:"tools"`
	Error  string   `json:"error,omitempty"`
}

// probeSpec is how to reach one server, with ${project} replaced and every
// reference resolved from mcpwire's environment.
type probeSpec struct {
	name   string
	remote bool
	sse    bool
	// stdio
	command string
	args    []string
	dir     string
	env     []string // KEY=VALUE on top of the inherited environment
	// http and sse
	url     string
	headers http.Header
	// secrets are values that are never printed: env and header values, URL
	// userinfo, credential-bearing arguments
	secrets redact.Values
}

// resolveProbe builds the spec of s. A referenced variable that is not set is an
// error naming the variable and the field that references it, never a value; a
// reference to a secret store is resolved (resolve) as mcpwire exec and headers do,
// and one that does not resolve is an error naming the field, the reference and the
// store's error (S3).
func resolveProbe(s *registry.Server, getenv func(string) string, project string, resolve func(ref string) (string, error)) (*probeSpec, error) {
	sp := &probeSpec{name: s.Name, remote: s.Remote(), sse: s.Type == registry.SSE}
	var missing []string
	lookup := func(vr, field string) (string, bool) {
		v := getenv(vr)
		if v == "" {
			missing = append(missing, fmt.Sprintf("%s (%s)", policy.ShowName(vr), field)) // a token-shaped name is not shown (T4)
			return "", false
		}
		return v, true
	}
	var unresolved []string
	secret := func(ref, field string) (string, bool) {
		v, err := resolve(ref)
		if err != nil {
			unresolved = append(unresolved, field+" from "+err.Error())
			return "", false
		}
		return v, true
	}
	subst := func(v string) string { return strings.ReplaceAll(v, "${project}", project) }
	if sp.remote {
		sp.url = s.URL
		sp.headers = http.Header{}
		for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
			sp.headers.Set(k, s.Headers[k])
			sp.secrets.Add(s.Headers[k])
		}
		for _, h := range slices.Sorted(maps.Keys(s.HeaderEnv)) {
			if v, ok := lookup(s.HeaderEnv[h], "headerEnv "+h); ok {
				sp.headers.Set(h, v)
				sp.secrets.Add(v)
			}
		}
		if s.BearerEnv != "" {
			if v, ok := lookup(s.BearerEnv, "bearerEnv"); ok {
				sp.headers.Set("Authorization", "Bearer "+v)
				sp.secrets.Add(v)
			}
		}
		// inputs: mcpwire asks for none, it reads the variables standing for them (T3)
		for _, h := range slices.Sorted(maps.Keys(s.HeaderInput)) {
			if v, ok := lookup(registry.InputVariable(s.HeaderInput[h]), "headerInput "+h); ok {
				sp.headers.Set(h, v)
				sp.secrets.Add(v)
			}
		}
		if s.BearerInput != "" {
			if v, ok := lookup(registry.InputVariable(s.BearerInput), "bearerInput"); ok {
				sp.headers.Set("Authorization", "Bearer "+v)
				sp.secrets.Add(v)
			}
		}
		for _, h := range slices.Sorted(maps.Keys(s.HeaderSecret)) {
			if v, ok := secret(s.HeaderSecret[h], "headerSecret "+h); ok {
				sp.headers.Set(h, v)
				sp.secrets.Add(v)
			}
		}
		if s.BearerSecret != "" {
			if v, ok := secret(s.BearerSecret, "bearerSecret"); ok {
				sp.headers.Set("Authorization", "Bearer "+v)
				sp.secrets.Add(v)
			}
		}
		sp.secrets.AddURL(s.URL)
	} else {
		sp.command = subst(s.Command)
		for _, a := range s.Args {
			sp.args = append(sp.args, subst(a))
		}
		sp.secrets.AddArgs(sp.args)
		sp.dir = project
		if cwd := subst(s.Cwd); cwd != "" {
			sp.dir = cwd
			if !filepath.IsAbs(cwd) {
				sp.dir = filepath.Join(project, cwd)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Env)) {
			v := subst(s.Env[k])
			sp.env = append(sp.env, k+"="+v)
			sp.secrets.Add(v)
		}
		for _, k := range slices.Sorted(maps.Keys(s.EnvFrom)) {
			if v, ok := lookup(s.EnvFrom[k], "envFrom "+k); ok {
				sp.env = append(sp.env, k+"="+v)
				sp.secrets.Add(v)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.EnvInput)) {
			if v, ok := lookup(k, "envInput "+k); ok { // the variable named as the key (T3)
				sp.env = append(sp.env, k+"="+v)
				sp.secrets.Add(v)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.EnvSecret)) {
			if v, ok := secret(s.EnvSecret[k], "envSecret "+k); ok {
				sp.env = append(sp.env, k+"="+v)
				sp.secrets.Add(v)
			}
		}
	}
	if len(unresolved) > 0 {
		return nil, fmt.Errorf("a secret does not resolve: %s", strings.Join(unresolved, "; "))
	}
	if len(missing) == 1 {
		return nil, fmt.Errorf("environment variable %s is not set", missing[0])
	}
	if len(missing) > 1 {
		return nil, fmt.Errorf("environment variables not set: %s", strings.Join(missing, ", "))
	}
	return sp, nil
}

// redact makes a message printable: one line, no secret value, and every
// credential-shaped value hidden (URL userinfo, credential query parameters, Bearer
// tokens, password=…).
func (sp *probeSpec) redact(msg string) string {
	return strings.Join(strings.Fields(sp.secrets.Text(msg)), " ")
}

// probe connects to the server, runs initialize and tools/list (every page), and
// closes the session, within timeout. A stdio server is stopped in every case: its
// stdin is closed, and on timeout or at the end its process group is killed.
func (sp *probeSpec) probe(ctx context.Context, timeout time.Duration) probeResult {
	res := probeResult{Server: sp.name, Tools: []string{}}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var (
		transport mcp.Transport
		stderr    *tailBuffer
		cmd       *exec.Cmd
	)
	if sp.remote {
		hc := &http.Client{Transport: &headerTransport{base: http.DefaultTransport.(*http.Transport).Clone(), target: sp.url, headers: sp.headers}}
		defer hc.CloseIdleConnections()
		if sp.sse {
			transport = &mcp.SSEClientTransport{Endpoint: sp.url, HTTPClient: hc}
		} else {
			transport = &mcp.StreamableClientTransport{Endpoint: sp.url, HTTPClient: hc, DisableStandaloneSSE: true, MaxRetries: -1}
		}
	} else {
		if err := checkDir(sp.dir); err != nil {
			res.Error = sp.redact(err.Error())
			return res
		}
		cmd = exec.CommandContext(ctx, sp.command, sp.args...)
		cmd.Dir = sp.dir
		// the child inherits mcpwire's process environment (Env.Getenv only resolves
		// the references above; it cannot list variables)
		cmd.Env = append(os.Environ(), sp.env...)
		stderr = &tailBuffer{}
		cmd.Stderr = stderr
		cmd.WaitDelay = time.Second
		setProcessGroup(cmd)
		defer killProcessGroup(cmd)
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: probeTerminate}
	}
	fail := func(err error) probeResult {
		msg := err.Error()
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			msg = fmt.Sprintf("no answer within %s", timeout)
			if cmd != nil {
				msg += " (server stopped)"
			}
		case ctx.Err() != nil:
			msg = "interrupted"
		}
		if stderr != nil {
			// redacted whole, then shortened: a cut first could leave a secret's
			// prefix that no pattern recognises
			if last := shorten(sp.redact(stderr.lastLine()), stderrMax); last != "" {
				msg += " (stderr: " + last + ")"
			}
		}
		res.Error = sp.redact(msg)
		return res
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpwire", Version: version()}, nil)
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: probeProtocol})
	if err != nil {
		return fail(err)
	}
	tools, err := listTools(ctx, cs)
	cs.Close()
	if err != nil {
		return fail(err)
	}
	res.Tools = tools
	return res
}

// checkDir gives a clear error for a working directory that cannot be used (exec
// reports it as the command failing to start).
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("working directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("working directory: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("working directory %s is not a directory", dir)
	}
	return nil
}

// listTools runs tools/list and follows the pagination cursor.
func listTools(ctx context.Context, cs *mcp.ClientSession) ([]string, error) {
	tools := []string{}
	seen := map[string]bool{}
	params := &mcp.ListToolsParams{}
	for {
		r, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		for _, t := range r.Tools {
			tools = append(tools, t.Name)
		}
		if r.NextCursor == "" {
			return tools, nil
		}
		if seen[r.NextCursor] {
			return nil, errors.New("tools/list repeated a pagination cursor")
		}
		seen[r.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: r.NextCursor}
	}
}

// headerTransport adds the server's headers to requests for the server's own origin
// only, so a redirect elsewhere never carries them.
type headerTransport struct {
	base    *http.Transport
	target  string
	headers http.Header
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 && sameOrigin(r.URL, t.target) {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header[k] = v
		}
	}
	return t.base.RoundTrip(r)
}

func (t *headerTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

func sameOrigin(u *url.URL, target string) bool {
	tu, err := url.Parse(target)
	return err == nil && strings.EqualFold(u.Scheme, tu.Scheme) && strings.EqualFold(u.Host, tu.Host)
}

// tailBuffer keeps the end of a server's stderr, for the error message.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
	cut bool // the start of buf is the middle of a line
}

const tailMax = 4096

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailMax {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-tailMax:]...)
		b.cut = true
	}
	return len(p), nil
}

// stderrMax is the most runes of a stderr line an error shows.
const stderrMax = 200

// lastLine returns the last non-blank line, whole (the caller redacts, then
// shortens it). A line whose start was dropped from the buffer is not returned: its
// first characters could be the end of a secret.
func (b *tailBuffer) lastLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	lines := strings.Split(string(b.buf), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if i == 0 && b.cut {
			return ""
		}
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// shorten cuts s to at most n runes, marking the cut with "…".
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
