//go:build conformance && unix

package conformance

// Drivers of the clients of spec Q5 (Copilot CLI, Qwen Code, auggie, Amp, Kilo, Qoder):
// each is a function that, given a scenario and the servers it must show, returns the
// client's own commands (steps) and the checks of their output, recording a verdict
// per server. A clientCase ties a driver to the client's scopes and files and to what
// writes them (writeConfig): by hand in the shapes the real client was seen to read,
// until mcpwire writes that client; then `injected(profile)`, a one-line change.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// ref is a credential reference: the value is prefix followed by the value of the
// environment variable.
type ref struct{ prefix, variable string }

// dollar is the reference spelled ${VAR}; brace is Kilo's {env:VAR}.
func (r ref) dollar() string { return r.prefix + "${" + r.variable + "}" }
func (r ref) brace() string  { return r.prefix + "{env:" + r.variable + "}" }

// value is what the reference resolves to in the clients' environment.
func (r ref) value() string { return r.prefix + sentinels[r.variable] }

// wantServer is one server as a client must show it.
type wantServer struct {
	name      string
	transport string // "stdio", "http" (streamable HTTP) or "sse"
	command   string // stdio
	args      []string
	cwd       string
	url       string // http, sse
	env       map[string]ref
	headers   map[string]ref
	disabled  bool
	allow     []string // tool allowlist, bare tool names; nil: not in allowlist mode
	deny      []string
}

// commandLine is how the clients print a stdio server: command and args joined by spaces.
func (w wantServer) commandLine() string {
	return strings.Join(append([]string{w.command}, w.args...), " ")
}

// target is the command line of a stdio server, else its URL.
func (w wantServer) target() string {
	if w.transport == "stdio" {
		return w.commandLine()
	}
	return w.url
}

// confServers are the servers of profile conf-sse of define(), with the profile's
// filters (spec: F1): what mcpwire would write for a client that has every feature.
func (s *scenario) confServers() []wantServer {
	s.serverDir()
	return []wantServer{
		{name: "everything", transport: "stdio", command: "node", args: []string{s.everythingScript(), "stdio"},
			env:   map[string]ref{"CONF_STDIO_TOKEN": {"", "CONF_STDIO_TOKEN"}},
			allow: []string{"get-sum", "get-env"}, deny: []string{"echo"}},
		{name: "tickets", transport: "http", url: s.url("tickets"),
			headers: map[string]ref{"Authorization": {"", "CONF_TICKETS_TOKEN"}}, deny: []string{"delete_ticket"}},
		{name: "notes", transport: "http", url: s.url("notes"),
			headers: map[string]ref{"Authorization": {"Bearer ", "CONF_NOTES_TOKEN"}}, allow: []string{"search"}},
		{name: "wd", transport: "stdio", command: "node", args: []string{"everything.js", "stdio"}, cwd: s.srv},
		{name: "legacy", transport: "sse", url: s.sseURL()},
	}
}

// without drops the named servers.
func without(ws []wantServer, names ...string) []wantServer {
	return slices.DeleteFunc(slices.Clone(ws), func(w wantServer) bool { return slices.Contains(names, w.name) })
}

// withoutHeaders drops every header reference (for a client that cannot resolve one).
func withoutHeaders(ws []wantServer) []wantServer {
	out := slices.Clone(ws)
	for i := range out {
		out[i].headers = nil
	}
	return out
}

// withoutRefs drops every credential reference (for a file where the client refuses them).
func withoutRefs(ws []wantServer) []wantServer {
	out := withoutHeaders(ws)
	for i := range out {
		out[i].env = nil
	}
	return out
}

// disable marks the named servers disabled.
func disable(ws []wantServer, names ...string) []wantServer {
	out := slices.Clone(ws)
	for i := range out {
		if slices.Contains(names, out[i].name) {
			out[i].disabled = true
		}
	}
	return out
}

// authorization is, per server with an Authorization header reference, the value the
// client must send.
func authorization(ws []wantServer) map[string]string {
	out := map[string]string{}
	for _, w := range ws {
		if h, ok := w.headers["Authorization"]; ok {
			out[w.name] = h.value()
		}
	}
	return out
}

// step is one client command and the checks of its output.
type step func(c *checker) result

// writeConfig writes the servers into the scenario's files (s.files) the way the client
// reads them.
type writeConfig func(s *scenario, want []wantServer)

// injected is the writeConfig of a client mcpwire writes: the registry of define(), then
// `mcpwire inject --provider <the case's provider> --profile profile`, which must write
// s.files[0] (the servers' file; the others, such as trust files, are shown on failure).
func injected(profile string) writeConfig {
	return func(s *scenario, _ []wantServer) {
		files := s.files
		s.define()
		s.inject(profile, files[0])
		s.files = files
	}
}

// injectedAfter is injected, with mcpwire commands run after define() that change the
// registry into what the client can take (servers without header references for
// auggie, no server wd for a client without a working directory).
func injectedAfter(profile string, setup ...[]string) writeConfig {
	return func(s *scenario, _ []wantServer) {
		files := s.files
		s.define()
		for _, args := range setup {
			s.mcpwire(args...)
		}
		s.inject(profile, files[0])
		s.files = files
	}
}

// The registry changes of injectedAfter.
var (
	dropWd       = []string{"profile", "edit", "conf", "--remove-server", "wd"}
	dropTickets  = []string{"server", "update", "tickets", "--unset-header", "Authorization"}
	dropNotes    = []string{"server", "update", "notes", "--unset-header", "Authorization"}
	dropStdioRef = []string{"server", "update", "everything", "--unset-env", "CONF_STDIO_TOKEN"}
)

// withoutFilters drops every tool filter (for a client mcpwire writes none for).
func withoutFilters(ws []wantServer) []wantServer {
	out := slices.Clone(ws)
	for i := range out {
		out[i].allow, out[i].deny = nil, nil
	}
	return out
}

// clientCase is one client of Q5: its scopes and files, what writes them, and its driver.
type clientCase struct {
	provider, client string
	scopes           []string                       // "user", "project", "local"
	servers          func(s *scenario) []wantServer // what the client must show
	files            func(s *scenario) []string     // the files written, in s.scope; seeds trust
	write            writeConfig                    // what writes the files: mcpwire (injected)
	byHand           writeConfig                    // the shapes the real client was seen to read
	driver           func(s *scenario, want []wantServer) []step
	connects         bool   // the driver connects: the HTTP servers must have received the references' values
	traced           bool   // the servers report who reached them (s.traced, trace_test.go)
	hide, off        string // negative check: a server left out, one disabled ("": the client cannot show it)
}

// run checks every scope, then the negative check: the driver, given servers of which
// one is missing from the file and one disabled in it, must fail exactly those two.
func (cc clientCase) run(t *testing.T) {
	for _, scope := range cc.scopes {
		t.Run(scope, func(t *testing.T) {
			s := newScenario(t, cc.provider, cc.client, scope)
			s.traced = cc.traced
			want := cc.servers(s)
			s.files = cc.files(s)
			cc.write(s, want)
			for _, st := range cc.driver(s, want) {
				s.check(st)
			}
			if cc.connects {
				var c checker
				s.sentAuthorization(&c, authorization(want))
				s.report(result{label: "what " + cc.client + " sent to the HTTP servers"}, &c)
			}
		})
	}
	t.Run("negative", func(t *testing.T) {
		s := newScenario(t, cc.provider, cc.client, "negative")
		s.scope, s.traced = cc.scopes[0], cc.traced
		want := cc.servers(s)
		s.files = cc.files(s)
		written := without(want, cc.hide)
		flagged := []string{cc.hide}
		if cc.off != "" {
			written = disable(written, cc.off)
			flagged = append(flagged, cc.off)
		}
		cc.byHand(s, written)
		s.mustFlag(cc.driver(s, want), flagged...)
	})
}

// mustFlag runs a driver's steps and fails unless the servers with problems are exactly
// flagged (so that a driver cannot pass vacuously, nor fail everything). A connect
// timeout on a loaded machine can flag another server: the steps run up to attempts
// times.
func (s *scenario) mustFlag(steps []step, flagged ...string) {
	s.t.Helper()
	slices.Sort(flagged)
	var last []string
	for attempt := 1; attempt <= attempts; attempt++ {
		got := map[string][]string{}
		var general []string
		var runs []result
		for _, st := range steps {
			var c checker
			runs = append(runs, st(&c))
			for n, p := range c.servers {
				got[n] = append(got[n], p...)
			}
			general = append(general, c.general...)
		}
		names := slices.Sorted(maps.Keys(got))
		if slices.Equal(names, flagged) {
			return
		}
		last = []string{fmt.Sprintf("the driver flagged %v, want exactly %v", names, flagged)}
		for _, n := range names {
			last = append(last, n+": "+strings.Join(got[n], "; "))
		}
		last = append(last, general...)
		for _, r := range runs {
			last = append(last, fmt.Sprintf("`%s` (%s)\n=== stdout\n%s=== stderr\n%s", shortCmd(r.cmd), r.status(), redact(r.stdout), redact(r.stderr)))
		}
		s.t.Logf("%s: attempt %d of %d: %s", s.name, attempt, attempts, last[0])
	}
	s.t.Errorf("%s: the driver does not notice a missing or disabled server:\n%s\n%s", s.name, strings.Join(last, "\n"), redact(s.filesDump()))
}

// writeJSON writes v as indented JSON (strict: no comments, no trailing commas).
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b)+"\n")
}

// markLine is one server of the listings of Qwen Code and Qoder:
// "MARK NAME: COMMAND LINE OR URL (TRANSPORT) - STATUS" (two spaces before the
// transport of a command without args).
var markLine = regexp.MustCompile(`^(\S+) (\S+): (.*?) +\((stdio|http|sse|streamable-http|ws)\) - (.+)$`)

// checkMarkList checks such a listing: every server listed with its transport and
// command line or URL, its mark and status as status gives, and no other server.
func checkMarkList(c *checker, out string, want []wantServer, status func(wantServer) string) {
	got := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if m := markLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			got[m[2]] = m
		}
	}
	for _, w := range want {
		m, ok := got[w.name]
		if !ok {
			c.serverf(w.name, "not listed")
			continue
		}
		c.serverEqual(w.name, "transport", m[4], w.transport)
		c.serverEqual(w.name, "command/URL", m[3], w.target())
		c.serverEqual(w.name, "status", m[1]+" "+m[5], status(w))
	}
	unexpected(c, got, want)
}

// unexpected flags every listed server that was not written.
func unexpected[V any](c *checker, listed map[string]V, want []wantServer) {
	for _, n := range slices.Sorted(maps.Keys(listed)) {
		if !slices.ContainsFunc(want, func(w wantServer) bool { return w.name == n }) {
			c.serverf(n, "listed, but not written")
		}
	}
}

// spelled is a reference map in one client's spelling.
func spelled(refs map[string]ref, spell func(ref) string) map[string]string {
	if len(refs) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, r := range refs {
		out[k] = spell(r)
	}
	return out
}

// resolved is a reference map resolved to the sentinel values.
func resolved(refs map[string]ref) map[string]string { return spelled(refs, ref.value) }

// stdioEntry is the common {command, args, env, cwd} shape with ${VAR} references.
func stdioEntry(w wantServer) map[string]any {
	e := map[string]any{"command": w.command, "args": w.args}
	if len(w.env) > 0 {
		e["env"] = spelled(w.env, ref.dollar)
	}
	if w.cwd != "" {
		e["cwd"] = w.cwd
	}
	return e
}

// projectOrUser is the file for s.scope.
func projectOrUser(s *scenario, project, user string) string {
	return scopeFile(s, project, "", user)
}

// scopeFile is the file for s.scope: project and local files under the project, the
// user file under the home directory.
func scopeFile(s *scenario, project, local, user string) string {
	switch s.scope {
	case "project":
		return filepath.Join(s.proj, project)
	case "local":
		return filepath.Join(s.proj, local)
	}
	return filepath.Join(s.home, user)
}

// absent reports whether a machine-wide file the client merges into every listing is
// absent; when it exists, that is a problem: the suite cannot move it aside.
func absent(c *checker, path, client string) bool {
	if _, err := os.Stat(path); err == nil {
		c.errorf("%s exists: %s merges it into every listing, so the suite cannot tell what it read from the files under test; move it away (or run the suite on another machine)", path, client)
		return false
	}
	return true
}
