//go:build conformance && unix

package conformance

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Continue CLI (cn) 1.5.47, mcpwire's continue-cli (alias cn), user scope (~/.continue/config.yaml, the only file cn reads
// servers from besides --config FILE and hub slugs; it does not read the IDE extension's
// project blocks, <project>/.continue/mcpServers/*.yaml: seen, and its bundle has no
// loader for them, issue 27). Entry shape: a list under mcpServers of {name, type:
// stdio, command, args, env, cwd} | {name, type: streamable-http|sse, url,
// requestOptions.headers}; references ${{ secrets.VAR }} (the environment first); no
// per-server switch and no tool filter.
//
// cn has no command that lists servers. `cn -p PROMPT` with a model in config.yaml (the
// loopback model) starts every server and offers the model their tools, unprefixed
// (server-everything's thirteen, once per server). What cn started is therefore told by
// the servers (a traced scenario): each stdio server's start, with its working directory
// and the reference's value in its environment (cn passes its whole environment to
// stdio servers), and the requests the HTTP and SSE servers received.
//
// spec: Q5 V3 V4
func TestContinueCLI(t *testing.T) {
	t.Parallel()
	continueCase.run(t)
}

var continueCase = clientCase{
	provider: "continue-cli", client: "cn",
	scopes:   []string{"user"},
	servers:  func(s *scenario) []wantServer { return withoutFilters(s.confServers()) },
	files:    continueFiles,
	write:    injected("conf-sse"),
	byHand:   continueByHand,
	driver:   continueDriver,
	connects: true,
	traced:   true,
	hide:     "tickets", // cn has no per-server switch
}

// continueModel is config.yaml's model section: the loopback model, which cn needs to
// run a prompt; mcpwire keeps it when it adds its servers.
func continueModel(s *scenario) string {
	return fmt.Sprintf(`name: conformance
version: 1.0.0
schema: v1
models:
  - name: conformance
    provider: openai
    model: %s
    apiBase: %s
    apiKey: conformance
    roles: [chat]
`, modelName, s.modelURL())
}

func continueFiles(s *scenario) []string {
	file := filepath.Join(s.home, ".continue", "config.yaml")
	writeFile(s.t, file, continueModel(s))
	return []string{file}
}

// continueByHand writes the shapes cn 1.5.47 was seen to read (provider-audit-turn3.md,
// Part 2).
func continueByHand(s *scenario, want []wantServer) {
	var b strings.Builder
	b.WriteString(continueModel(s) + "mcpServers:\n")
	for _, w := range want {
		fmt.Fprintf(&b, "  - name: %s\n", w.name)
		switch w.transport {
		case "stdio":
			fmt.Fprintf(&b, "    type: stdio\n    command: %s\n    args:\n", w.command)
			for _, a := range w.args {
				fmt.Fprintf(&b, "      - %q\n", a)
			}
			if w.cwd != "" {
				fmt.Fprintf(&b, "    cwd: %s\n", w.cwd)
			}
			if len(w.env) > 0 {
				b.WriteString("    env:\n")
				for k, r := range w.env {
					fmt.Fprintf(&b, "      %s: %q\n", k, r.prefix+"${{ secrets."+r.variable+" }}")
				}
			}
		default:
			typ := map[string]string{"http": "streamable-http", "sse": "sse"}[w.transport]
			fmt.Fprintf(&b, "    type: %s\n    url: %s\n", typ, w.url)
			if len(w.headers) > 0 {
				b.WriteString("    requestOptions:\n      headers:\n")
				for k, r := range w.headers {
					fmt.Fprintf(&b, "        %s: %q\n", k, r.prefix+"${{ secrets."+r.variable+" }}")
				}
			}
		}
	}
	writeFile(s.t, s.files[0], b.String())
}

// continueDriver: `cn -p "say hello please"`: it answers the model's "hello", offers the
// model server-everything's tools once per server written, and every server was reached
// as written (trace_test.go).
func continueDriver(s *scenario, want []wantServer) []step {
	return []step{func(c *checker) result {
		s.forget()
		r := s.client(cl.cn, "-p", "say hello please")
		if r.exit != 0 || !strings.Contains(r.stdout, "hello") {
			c.errorf("cn -p did not print the model's answer (exit %d)", r.exit)
		}
		offered := 0
		for _, tools := range model.requests(s.name) {
			n := 0
			for _, t := range tools {
				if t == "get-sum" {
					n++
				}
			}
			offered = max(offered, n)
		}
		if offered != len(want) {
			c.errorf("the model was offered server-everything's tools %d times, want %d (one per server)", offered, len(want))
		}
		for _, w := range want {
			s.reached(c, w)
		}
		return r
	}}
}

// TestContinueCLIProjectBlocks pins what Continue CLI does not read: the project file
// mcpwire writes for Continue, <project>/.continue/mcpServers/mcpwire.yaml (the IDE
// extension's blocks), starts none of its servers in `cn -p`, whose only server file is
// ~/.continue/config.yaml (issue 27). When a cn starts reading project blocks, this
// fails, and what mcpwire tells a cn user about the project scope must change.
//
// spec: Q5
func TestContinueCLIProjectBlocks(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "continue-cli", "cn", "project-unread")
	// the IDE extension's block file: mcpwire's continue provider (continue-cli has no
	// project scope, and says why)
	s.provider, s.scope, s.traced = "continue", "project", true
	want := withoutFilters(s.confServers())
	s.files = append([]string{filepath.Join(s.proj, ".continue", "mcpServers", "mcpwire.yaml")}, continueFiles(s)...)
	injected("conf-sse")(s, want)
	s.check(func(c *checker) result {
		s.forget()
		r := s.client(cl.cn, "-p", "say hello please")
		if r.exit != 0 || !strings.Contains(r.stdout, "hello") {
			c.errorf("cn -p did not print the model's answer (exit %d)", r.exit)
		}
		for _, tools := range model.requests(s.name) {
			if slices.Contains(tools, "get-sum") {
				c.errorf("cn offered the model the tools of a server in %s: it reads the project's blocks now", s.files[0])
				break
			}
		}
		for _, w := range want {
			var probe checker
			s.reached(&probe, w)
			if len(probe.servers[w.name]) == 0 {
				c.serverf(w.name, "started or reached by cn, from the project's blocks")
			}
		}
		return r
	})
}
