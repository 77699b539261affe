//go:build conformance && unix

package conformance

// Checking a client's output: the checker that collects problems (per server too), the
// retries, the failure report with the client's output and the files written, and the
// redaction of the sentinels' values.

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// checker collects the problems found in one client's output: every problem, and those
// of one server also by server (the driver's per-server verdict).
type checker struct {
	problems []string
	general  []string            // the problems of no one server
	servers  map[string][]string // the problems of each server
}

// errorf records a problem; the value of a sentinel variable in it is redacted.
func (c *checker) errorf(format string, args ...any) {
	msg := redact(fmt.Sprintf(format, args...))
	c.problems = append(c.problems, msg)
	c.general = append(c.general, msg)
}

// serverf records a problem of one server, prefixed with its name.
func (c *checker) serverf(server, format string, args ...any) {
	msg := redact(fmt.Sprintf(format, args...))
	c.problems = append(c.problems, server+": "+msg)
	if c.servers == nil {
		c.servers = map[string][]string{}
	}
	c.servers[server] = append(c.servers[server], msg)
}

// serverEqual is equal for one server.
func (c *checker) serverEqual(server, what string, got, want any) {
	if g, w := show(got), show(want); g != w {
		c.serverf(server, "%s: %s, want %s", what, g, w)
	}
}

// equal compares as JSON (so null and [] differ, as they do in the clients' output).
func (c *checker) equal(what string, got, want any) {
	g, w := show(got), show(want)
	if g != w {
		c.errorf("%s: %s, want %s", what, g, w)
	}
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// attempts is how often one client command and its checks run before a disagreement
// fails the test: on a loaded machine a server can miss a client's connect timeout
// (seen here: Claude's 30 s, with a load average of 15 on two cores). What a client
// loaded from a file does not change between attempts, so a real disagreement fails
// every attempt; the last one is reported.
const attempts = 3

// check runs one client command and the checks of its output.
func (s *scenario) check(run func(c *checker) result) {
	s.t.Helper()
	for attempt := 1; ; attempt++ {
		var c checker
		r := run(&c)
		if r.err != nil || len(c.problems) == 0 || attempt == attempts { // a timeout is not retried
			s.report(r, &c)
			return
		}
		s.t.Logf("%s: `%s` (%s), attempt %d of %d, retrying after:\n  - %s", // problems are redacted
			s.name, shortCmd(r.cmd), r.status(), attempt, attempts, strings.Join(c.problems, "\n  - "))
	}
}

// report fails the test when the checker found problems, printing the client's own
// output next to the files mcpwire wrote.
func (s *scenario) report(r result, c *checker) {
	s.t.Helper()
	if r.err != nil && r.label == "" {
		c.errorf("client command failed: %s", r.status())
	}
	if len(c.problems) == 0 {
		return
	}
	if r.label != "" {
		s.t.Errorf("%s: %s:\n  - %s\n%s", s.name, r.label, strings.Join(c.problems, "\n  - "), redact(s.filesDump()))
		return
	}
	s.t.Errorf("%s: `%s` disagrees with what mcpwire wrote:\n  - %s\n=== client command (cwd %s): %s\n=== client stdout\n%s=== client stderr\n%s%s",
		s.name, shortCmd(r.cmd), strings.Join(c.problems, "\n  - "), r.dir, r.status(), redact(r.stdout), redact(r.stderr), redact(s.filesDump()))
}

// redact replaces the value of every sentinel variable in text with "<$NAME>", and
// every value of the suite's password store with "<store secret NAME>": some
// clients print the values they resolved (qodercli mcp get, kilo debug config), and a
// failure report never shows a credential's value (in the spirit of R8).
func redact(text string) string {
	for k, v := range sentinels {
		text = strings.ReplaceAll(text, v, "<$"+k+">")
	}
	return redactSecrets(text) // the password store's values (secrets_test.go)
}

func shortCmd(cmd string) string {
	modules := filepath.Join(cl.dir, "node_modules") + string(filepath.Separator)
	cmd = strings.TrimPrefix(cmd, modules+".bin"+string(filepath.Separator))
	return strings.ReplaceAll(cmd, modules, "")
}

// sentHeaders checks that the client resolved the header references of tickets and
// notes when it connected to the HTTP servers (spec: V4).
func (s *scenario) sentHeaders(c *checker) {
	s.sentAuthorization(c, map[string]string{
		"tickets": sentinels["CONF_TICKETS_TOKEN"],
		"notes":   "Bearer " + sentinels["CONF_NOTES_TOKEN"],
	})
}

// sentAuthorization checks that the client sent each server the Authorization value
// given (a resolved reference), recording a problem per server; values are redacted.
func (s *scenario) sentAuthorization(c *checker, want map[string]string) {
	for _, server := range slices.Sorted(maps.Keys(want)) {
		value := want[server]
		hs := relay.headers(s.name, server)
		if len(hs) == 0 {
			c.serverf(server, "the client sent no request to %s", s.url(server))
			continue
		}
		var got []string
		ok := false
		for _, h := range hs {
			v := h.Get("Authorization")
			got = append(got, fmt.Sprintf("%q", v))
			ok = ok || v == value
		}
		if !ok {
			c.serverf(server, "the client sent Authorization %s, want %q (the reference did not resolve)", strings.Join(uniq(got), ", "), value)
		}
	}
}

func uniq(in []string) []string {
	slices.Sort(in)
	return slices.Compact(in)
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }
