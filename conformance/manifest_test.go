//go:build conformance && unix

package conformance

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
)

// The clients' side of M5: three servers added from manifests (server add --from) and
// injected at user scope — an npm package from a real server.json
// (@modelcontextprotocol/server-everything, pinned as the suite pins it), a remote with
// a secret header from a variable, reached through the header-recording proxy, and a
// small bundle built here (its server a script that starts server-everything) — must
// be listed by each client's own `mcp list` with the pinned command line or the URL,
// and connected:
//
//	mev      npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio
//	         (npx finds the package in the project's node_modules, a link to the
//	         suite's: npm_config_offline=true, nothing is fetched)
//	mapi     http  <proxy>/<scenario>/mapi/mcp, its {scenario} from --value,
//	         Authorization: Bearer {token}, token a secret from CONF_NOTES_TOKEN
//	mbundle  node <HOME>/.aiwg/mcp-bundles/mbundle-1.0.0-<sha12>/server/index.mjs stdio
//
// spec: M5 M1 M3 Q3
func TestManifestLoaders(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		provider, client, bin string
		file                  func(s *scenario) string
		setup                 func(s *scenario)
		list                  func(out string) map[string]string // name → "DETAIL STATUS"
		want                  func(detail string) string
	}{
		{"claude-code", "claude", cl.claude, func(s *scenario) string { return filepath.Join(s.home, ".claude.json") },
			func(s *scenario) {
				writeFile(s.t, filepath.Join(s.home, ".claude.json"), fmt.Sprintf(`{"projects":{%q:{"hasTrustDialogAccepted":true}}}`, s.proj))
			},
			func(out string) map[string]string { // a URL is followed by (HTTP)
				return listed(out, `(?m)^(\S+): (.*?)(?: \(HTTP\))? - (✔ Connected|.*)$`, 1, 2, 3)
			},
			func(d string) string { return d + " ✔ Connected" }},
		{"gemini-cli", "gemini", cl.gemini, func(s *scenario) string { return filepath.Join(s.home, ".gemini", "settings.json") },
			func(s *scenario) {
				writeFile(s.t, filepath.Join(s.home, ".gemini", "trustedFolders.json"), fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, s.proj))
			},
			func(out string) map[string]string {
				return listed(out, `(?m)^\S+ (\S+): (.*) \((?:stdio|http|sse)\) - (\S+)$`, 1, 2, 3)
			},
			func(d string) string { return d + " Connected" }},
		{"qwen-code", "qwen", cl.qwen, func(s *scenario) string { return filepath.Join(s.home, ".qwen", "settings.json") }, nil,
			func(out string) map[string]string {
				return listed(stripANSI(out), `(?m)^\S+ (\S+): (.*) \((?:stdio|http|sse)\) - (\S+)$`, 1, 2, 3)
			},
			func(d string) string { return d + " Connected" }},
		{"opencode", "opencode", cl.opencode, func(s *scenario) string { return filepath.Join(s.home, ".config", "opencode", "opencode.json") }, nil,
			func(out string) map[string]string {
				got := map[string]string{}
				for n, e := range parseBoxList(out) {
					got[n] = e.detail + " " + e.mark + " " + e.status
				}
				return got
			},
			func(d string) string { return d + " ✓ connected" }},
	} {
		t.Run(c.provider, func(t *testing.T) {
			s := newScenario(t, c.provider, c.client+"-manifest", "user")
			if c.setup != nil {
				c.setup(s)
			}
			want := manifestServers(s)
			s.files = []string{c.file(s)}
			s.mcpwire("inject", "--provider", c.provider, "--scope", "user", "--servers", "mev,mapi,mbundle")
			written, _ := os.ReadFile(c.file(s))
			for k, v := range sentinels {
				if strings.Contains(string(written), v) {
					t.Errorf("%s holds the value of %s: a reference was resolved at write time", c.file(s), k)
				}
			}
			s.check(func(ch *checker) result {
				r := s.client(c.bin, "mcp", "list")
				got := c.list(r.output())
				for _, n := range []string{"mev", "mapi", "mbundle"} {
					if g, ok := got[n]; !ok {
						ch.serverf(n, "not listed")
					} else if w := c.want(want[n]); g != w {
						ch.serverf(n, "listed as %q, want %q", g, w)
					}
				}
				s.sentAuthorization(ch, map[string]string{"mapi": "Bearer " + sentinels["CONF_NOTES_TOKEN"]})
				if r.exit != 0 {
					ch.errorf("exit %d", r.exit)
				}
				return r
			})
		})
	}
}

// listed reads a client's list: the name, detail and status groups of re.
func listed(out, re string, name, detail, status int) map[string]string {
	got := map[string]string{}
	for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(out, -1) {
		got[m[name]] = m[detail] + " " + m[status]
	}
	return got
}

// manifestServers adds mev, mapi and mbundle from their manifests and returns the
// command line or URL each must be listed with.
func manifestServers(s *scenario) map[string]string {
	s.t.Helper()
	// npx runs the pinned package from the project's node_modules, offline
	if err := os.Symlink(filepath.Join(cl.dir, "node_modules"), filepath.Join(s.proj, "node_modules")); err != nil {
		s.t.Fatal(err)
	}
	writeFile(s.t, filepath.Join(s.proj, "package.json"), `{"private":true,"dependencies":{"@modelcontextprotocol/server-everything":"2026.8.31"}}`)
	s.env = append(s.env, "npm_config_offline=true", "npm_config_update_notifier=false", "npm_config_cache="+filepath.Join(s.root, "npm-cache"))

	serverJSON := filepath.Join(s.root, "server.json")
	writeFile(s.t, serverJSON, `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.github.modelcontextprotocol/server-everything",
  "description": "MCP server that exercises all the features of the MCP protocol",
  "version": "2026.8.31",
  "packages": [{
    "registryType": "npm", "identifier": "@modelcontextprotocol/server-everything", "version": "2026.8.31",
    "runtimeHint": "npx", "transport": {"type": "stdio"},
    "packageArguments": [{"type": "positional", "value": "stdio"}],
    "environmentVariables": [{"name": "CONF_STDIO_TOKEN", "isRequired": true, "isSecret": true}]
  }],
  "remotes": [{
    "type": "streamable-http", "url": "`+relay.base+`/{scenario}/mapi/mcp",
    "variables": {"scenario": {"isRequired": true}},
    "headers": [{"name": "Authorization", "value": "Bearer {token}", "variables": {"token": {"isRequired": true, "isSecret": true}}}]
  }]
}`)
	s.mcpwire("server", "add", "mev", "--from", serverJSON, "--package", "npm")
	s.mcpwire("server", "add", "mapi", "--from", serverJSON, "--package", "remote", "--value", "scenario="+s.name, "--value-from", "token=CONF_NOTES_TOKEN")

	bundle := mcpbtest.Build(
		mcpbtest.Entry{Name: "manifest.json", Data: `{"manifest_version":"0.3","name":"mbundle","version":"1.0.0","description":"a test bundle",
			"author":{"name":"mcpwire conformance"},
			"server":{"type":"node","entry_point":"server/index.mjs","mcp_config":{"command":"node",
				"args":["${__dirname}/server/index.mjs","${user_config.transport}"],"env":{"CONF_STDIO_TOKEN":"${user_config.token}"}}},
			"user_config":{"token":{"type":"string","title":"Token","description":"t","sensitive":true,"required":true},
				"transport":{"type":"string","title":"Transport","description":"t","default":"stdio"}},
			"compatibility":{"platforms":["darwin","linux"],"runtimes":{"node":">=18"}}}`},
		mcpbtest.Entry{Name: "server/index.mjs", Data: "await import(" + fmt.Sprintf("%q", cl.everything) + ");\n"},
	)
	file := filepath.Join(s.root, "mbundle.mcpb")
	if err := os.WriteFile(file, bundle, 0o644); err != nil {
		s.t.Fatal(err)
	}
	sum := sha256.Sum256(bundle)
	s.mcpwire("server", "add", "mbundle", "--from", file, "--value-from", "token=CONF_STDIO_TOKEN", "--sha256", hex.EncodeToString(sum[:]))
	dir := filepath.Join(s.home, ".aiwg", "mcp-bundles", "mbundle-1.0.0-"+hex.EncodeToString(sum[:])[:12])
	return map[string]string{
		"mev":     "npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio",
		"mapi":    s.url("mapi"),
		"mbundle": "node " + filepath.Join(dir, "server", "index.mjs") + " stdio",
	}
}
