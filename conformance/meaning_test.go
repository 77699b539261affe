//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The loaders' side of T7: servers written in other clients' forms — a value VS Code
// asks for (${input:ID}), Cursor's ${env:VAR} inside a value, Gemini CLI's bare $VAR —
// are added as a person pastes them (server add-json) and injected into Claude Code,
// Gemini CLI and opencode, each in its own form. The clients' own loaders must resolve
// every one to its sentinel value: the HTTP servers receive it in the header (the
// header-recording proxy), and the stdio servers in their environment (a wrapper
// around server-everything records it before it starts).
//
//	vin    http   Authorization: Bearer ${input:conf-key}   → Bearer <MCP_INPUT_CONF_KEY>
//	venv   http   Authorization: Token ${env:CONF_ENV_TOKEN} → Token <CONF_ENV_TOKEN>
//	vbare  http   Authorization: $CONF_BARE_TOKEN            → <CONF_BARE_TOKEN>
//	sin    stdio  CONF_IN_KEY: ${input:conf-in}              → <CONF_IN_KEY>
//	sbare  stdio  CONF_BARE: $CONF_BARE_SRC                  → <CONF_BARE_SRC>
//	semb   stdio  CONF_EMB: pre-${env:CONF_EMB_SRC}          → pre-<CONF_EMB_SRC>
//
// spec: T7 T1 T2 T3 Q3
func TestMeaningLoaders(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		provider, client, bin string
		file                  func(s *scenario) string
		setup                 func(s *scenario)
	}{
		{"claude-code", "claude", cl.claude, func(s *scenario) string { return filepath.Join(s.home, ".claude.json") },
			func(s *scenario) {
				writeFile(s.t, filepath.Join(s.home, ".claude.json"), fmt.Sprintf(`{"projects":{%q:{"hasTrustDialogAccepted":true}}}`, s.proj))
			}},
		{"gemini-cli", "gemini", cl.gemini, func(s *scenario) string { return filepath.Join(s.home, ".gemini", "settings.json") },
			func(s *scenario) {
				writeFile(s.t, filepath.Join(s.home, ".gemini", "trustedFolders.json"), fmt.Sprintf(`{%q: "TRUST_FOLDER"}`, s.proj))
			}},
		{"opencode", "opencode", cl.opencode, func(s *scenario) string { return filepath.Join(s.home, ".config", "opencode", "opencode.json") }, nil},
	} {
		t.Run(c.provider, func(t *testing.T) {
			s := newScenario(t, c.provider, c.client+"-meaning", "user")
			if c.setup != nil {
				c.setup(s)
			}
			records := meaningServers(s)
			s.files = []string{c.file(s)}
			r := s.mcpwire("inject", "--provider", c.provider, "--scope", "user", "--servers", "vin,venv,vbare,sin,sbare,semb")
			if !strings.Contains(r.stdout, "cannot ask for inputs: set CONF_IN_KEY (input conf-in), MCP_INPUT_CONF_KEY (input conf-key)") &&
				!strings.Contains(r.stdout, "cannot ask for inputs: set MCP_INPUT_CONF_KEY (input conf-key), CONF_IN_KEY (input conf-in)") {
				t.Errorf("inject did not say which variables to set for the inputs:\n%s", r.stdout)
			}
			written, _ := os.ReadFile(c.file(s))
			for k, v := range sentinels {
				if strings.Contains(string(written), v) {
					t.Errorf("%s holds the value of %s: a reference was resolved at write time", c.file(s), k)
				}
			}
			for _, form := range []string{"${input:", "${env:", "\"$CONF"} {
				if strings.Contains(string(written), form) {
					t.Errorf("%s holds %s, a form %s does not resolve:\n%s", c.file(s), form, c.provider, written)
				}
			}
			s.check(func(ch *checker) result {
				for _, f := range records {
					os.Remove(f)
				}
				r := s.client(c.bin, "mcp", "list")
				s.sentAuthorization(ch, map[string]string{
					"vin":   "Bearer " + sentinels["MCP_INPUT_CONF_KEY"],
					"venv":  "Token " + sentinels["CONF_ENV_TOKEN"],
					"vbare": sentinels["CONF_BARE_TOKEN"],
				})
				for server, want := range map[string]map[string]string{
					"sin":   {"CONF_IN_KEY": sentinels["CONF_IN_KEY"]},
					"sbare": {"CONF_BARE": sentinels["CONF_BARE_SRC"]},
					"semb":  {"CONF_EMB": "pre-" + sentinels["CONF_EMB_SRC"]},
				} {
					raw, err := os.ReadFile(records[server])
					if err != nil {
						ch.serverf(server, "the client did not start it (no record of its environment)")
						continue
					}
					var got map[string]string
					_ = json.Unmarshal(raw, &got)
					for _, k := range slices.Sorted(maps.Keys(want)) {
						if got[k] != want[k] {
							ch.serverf(server, "the server got %s = %q, want %q (the reference did not resolve)", k, redact(got[k]), redact(want[k]))
						}
					}
				}
				return r
			})
		})
	}
}

// meaningServers adds the servers of TestMeaningLoaders as their clients' READMEs
// spell them, and returns the file each stdio server records its environment in.
func meaningServers(s *scenario) map[string]string {
	s.t.Helper()
	wrapper := filepath.Join(s.root, "recenv.mjs")
	writeFile(s.t, wrapper, `import { writeFileSync } from "node:fs";
const [out, keys, target, ...rest] = process.argv.slice(2);
const env = {};
for (const k of keys.split(",")) env[k] = process.env[k] ?? null;
writeFileSync(out, JSON.stringify(env));
process.argv = [process.argv[0], target, ...rest];
await import(target);
`)
	records := map[string]string{}
	stdio := func(name, key, value string) {
		records[name] = filepath.Join(s.root, name+".env.json")
		entry := map[string]any{"type": "stdio", "command": "node",
			"args": []string{wrapper, records[name], key, cl.everything, "stdio"}, "env": map[string]string{key: value}}
		b, _ := json.Marshal(entry)
		s.mcpwire("server", "add-json", name, string(b))
	}
	remote := func(name, value string) {
		entry := map[string]any{"type": "http", "url": s.url(name), "headers": map[string]string{"Authorization": value}}
		b, _ := json.Marshal(entry)
		s.mcpwire("server", "add-json", name, string(b))
	}
	remote("vin", "Bearer ${input:conf-key}")
	remote("venv", "Token ${env:CONF_ENV_TOKEN}")
	remote("vbare", "$CONF_BARE_TOKEN")
	stdio("sin", "CONF_IN_KEY", "${input:conf-in}")
	stdio("sbare", "CONF_BARE", "$CONF_BARE_SRC")
	stdio("semb", "CONF_EMB", "pre-${env:CONF_EMB_SRC}")
	return records
}
