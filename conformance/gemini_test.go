//go:build conformance && unix

package conformance

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Gemini CLI 0.61.0, project scope (.gemini/settings.json), user scope
// (~/.gemini/settings.json), and user scope moved by GEMINI_CLI_HOME
// ($GEMINI_CLI_HOME/.gemini/settings.json; trustedFolders.json moves with it).
//
// What Gemini prints (everything on stderr, nothing on stdout):
//
//	gemini mcp list   Configured MCP servers:
//	                  ✓ NAME: node /path/index.js stdio (stdio) - Connected
//	                  ✓ NAME: URL (http) - Connected           (✗ … - Disconnected when unreachable)
//	                  ✓ NAME: URL (sse) - Connected
//	A bare "url" is streamable HTTP to Gemini 0.61, listed as "(http)"; SSE needs
//	"type": "sse" (a bare url against an SSE server: "✗ … (http) - Disconnected").
//	In a folder that is not trusted every server is "○ NAME: … - Disabled", after a
//	warning; the suite trusts the project in ~/.gemini/trustedFolders.json so that Gemini
//	connects. A settings file Gemini's schema rejects (a non-array excludeTools, an
//	unknown key) is reported as "Invalid configuration in FILE:" with each error; that
//	is the only place Gemini reports on includeTools/excludeTools offline.
//
// spec: Q3 V1 V3 V4 R4 F3
func TestGeminiCLI(t *testing.T) {
	t.Parallel()
	for _, variant := range []string{"project", "user", "relocated"} {
		t.Run(variant, func(t *testing.T) {
			s := newScenario(t, "gemini-cli", "gemini", variant)
			s.define()
			gemini := filepath.Join(s.home, ".gemini")
			if variant == "relocated" {
				gemini = filepath.Join(s.relocate("GEMINI_CLI_HOME"), ".gemini")
			}
			writeFile(t, filepath.Join(gemini, "trustedFolders.json"), fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, s.proj))
			file := filepath.Join(gemini, "settings.json")
			if variant == "project" {
				file = filepath.Join(s.proj, ".gemini", "settings.json")
			}
			s.inject("conf-sse", file)

			s.check(func(c *checker) result {
				r := s.client(cl.gemini, "mcp", "list")
				out := r.output()
				want := map[string]string{
					"everything": "node " + cl.everything + " stdio (stdio) - Connected",
					"tickets":    s.url("tickets") + " (http) - Connected",
					"notes":      s.url("notes") + " (http) - Connected",
					"legacy":     sseURL + " (sse) - Connected",
					"wd":         "node everything.js stdio (stdio) - Connected", // cwd honoured
				}
				line := regexp.MustCompile(`(?m)^(\S+) (\S+): (.*)$`)
				got := map[string]string{}
				for _, m := range line.FindAllStringSubmatch(out, -1) {
					if _, ok := want[m[2]]; ok {
						got[m[2]] = m[1] + " " + m[3]
					}
				}
				for n, w := range want {
					if g, ok := got[n]; !ok {
						c.errorf("%s is not listed", n)
					} else if g != "✓ "+w {
						c.errorf("%s: listed as %q, want %q", n, g, "✓ "+w)
					}
				}
				if strings.Contains(out, "Invalid configuration") {
					c.errorf("Gemini rejects the settings file")
				}
				if strings.Contains(out, "untrusted") {
					c.errorf("Gemini treats the project as untrusted")
				}
				if r.exit != 0 {
					c.errorf("exit %d", r.exit)
				}
				return r
			})

			var h checker
			s.sentHeaders(&h)
			s.report(result{label: "what Gemini CLI sent to the HTTP servers"}, &h)
		})
	}
}
