package render_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/hint"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// refusalCase is an injection the provider refuses; the error text is pinned word for
// word, with the destination written as @DEST@.
type refusalCase struct {
	name     string
	fixture  string
	edit     func([]byte) []byte // changes the fixture before the injection
	settings string              // Claude Code's settings fixture
	profile  string
	servers  []string
	want     string
	hints    []string // the error's hint lines, when set
}

// addBefore inserts text before the first occurrence of marker.
func addBefore(marker, text string) func([]byte) []byte {
	return func(b []byte) []byte {
		i := bytes.Index(b, []byte(marker))
		if i < 0 {
			panic("no " + marker)
		}
		return append(append(bytes.Clone(b[:i]), text...), b[i:]...)
	}
}

var refusalCases = []refusalCase{
	{
		// spec: F3 (Claude Code allow refused, even when inherited from "*") R4
		name: "claude-code toolAllow", fixture: "claude-code/project.dev.mcp.json", settings: "claude-code/project.settings.settings.local.json", profile: "dev-allow",
		want: `Claude Code has no restrict-only allowlist, so toolAllow cannot be applied: github__get_file_contents`,
	},
	{
		// spec: V5
		name: "claude-code reserved variable", fixture: "claude-code/project.dev.mcp.json", settings: "claude-code/project.settings.settings.local.json", servers: []string{"anthropic-proxy"},
		want: `cannot write for Claude Code: anthropic-proxy (headerEnv.x-api-key): Claude Code reads ANTHROPIC_API_KEY as empty in a remote server's URL and headers`,
	},
	{
		// spec: V4 V7 (references and a remote server refused, every server and field in one error)
		name: "claude-desktop references and remote", fixture: "claude-desktop/user.desktop.claude_desktop_config.json", profile: "dev",
		want: `cannot write for Claude Desktop: ` +
			`tickets (headerEnv.X-Tickets-Team, bearerEnv), github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Claude Desktop documents no environment-variable interpolation in its config, so a reference cannot be written there; ` +
			`tickets (type): Claude Desktop takes only stdio servers (a remote http server needs a stdio bridge such as mcp-remote)`,
	},
	{
		// spec: V4 (Codex passes a variable under its own name only)
		name: "codex envFrom renamed", fixture: "codex/user.dev.config.toml", servers: []string{"gh-renamed"},
		want: `cannot write for Codex CLI: gh-renamed (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Codex CLI passes a variable to a server only under its own name`,
		// spec: T5 (the hint names the key the server reads)
		hints: []string{"mcpwire server update gh-renamed --env-from GITHUB_PERSONAL_ACCESS_TOKEN=GITHUB_PERSONAL_ACCESS_TOKEN " +
			"(then set GITHUB_PERSONAL_ACCESS_TOKEN, the variable the server reads, where Codex CLI starts)"},
	},
	{
		// spec: V4 (Antigravity documents no interpolation)
		name: "antigravity references", fixture: "antigravity/project.local.mcp_config.json", profile: "dev",
		want: `cannot write for Google Antigravity: ` +
			`tickets (headerEnv.X-Tickets-Team, bearerEnv), github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Google Antigravity documents no environment-variable interpolation in its config, so a reference cannot be written there`,
	},
	{
		// spec: V4 (Warp documents no interpolation)
		name: "warp references", fixture: "warp/user.local.mcp.json", profile: "dev",
		want: `cannot write for Warp: ` +
			`tickets (headerEnv.X-Tickets-Team, bearerEnv), github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Warp documents no environment-variable interpolation in its config, so a reference cannot be written there`,
	},
	{
		// spec: C6 (OMP: a same-named entry mcpwire did not write is always refused)
		name: "omp operator-owned entry", fixture: "omp/project.dev.mcp.json", profile: "dev",
		edit: addBefore(`    "exa": {`, "    \"notes\": { \"command\": \"my-notes\" },\n"),
		want: `@DEST@: notes is operator-owned or modified; choose a different name`,
	},
	{
		// spec: C6 (Grok Build: an unmarked table is the operator's)
		name: "grok-build unmarked table", fixture: "grok-build/project.dev.config.toml", profile: "dev",
		edit: addBefore(`[permissions]`, "[mcp_servers.notes]\ncommand = \"my-notes\"\n\n"),
		want: `@DEST@ already has entries mcpwire did not write or that changed since it wrote them: notes`,
	},
	{
		// spec: V4 V9 (Kimi Code: a bearer token's variable by name, no header from a variable)
		name: "kimi-code headerEnv", fixture: "kimi-code/user.bearer.mcp.json", servers: []string{"tickets", "gh-renamed"},
		want: `cannot write for Kimi Code: ` +
			`tickets (headerEnv.X-Tickets-Team): Kimi Code takes no header from a variable but an Authorization bearer token (bearerTokenEnvVar); ` +
			`gh-renamed (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Kimi Code passes a variable to a server only under its own name`,
	},
	{
		// spec: V4 (Cline: the CLI reads no reference, so none is written into the file it shares with the extension)
		name: "cline references", fixture: "cline/user.local.cline_mcp_settings.json", profile: "dev",
		want: `cannot write for Cline: ` +
			`tickets (headerEnv.X-Tickets-Team, bearerEnv), github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Cline documents no environment-variable interpolation in its config, so a reference cannot be written there`,
	},
	{
		// spec: V4 V7 (Zed: no interpolation; streamable HTTP only)
		name: "zed references and sse", fixture: "zed/user.local.settings.json", servers: []string{"github", "search"},
		want: `cannot write for Zed: ` +
			`github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN), search (bearerEnv): Zed documents no environment-variable interpolation in its config, so a reference cannot be written there; ` +
			`search (type): Zed takes streamable HTTP remote servers, not SSE`,
	},
	{
		// spec: V7 (Trae and JetBrains Junie: stdio only in mcpwire)
		name: "trae remote", fixture: "trae/project.desktop.mcp.json", servers: []string{"docs"},
		want: `cannot write for Trae: docs (type): Trae takes only stdio servers (a remote http server needs a stdio bridge such as mcp-remote)`,
	},
	{
		name: "junie remote", fixture: "junie/user.desktop.mcp.json", servers: []string{"docs"},
		want: `cannot write for JetBrains Junie: docs (type): JetBrains Junie takes only stdio servers (a remote http server needs a stdio bridge such as mcp-remote)`,
	},
	{
		// spec: V4 (Visual Studio documents no interpolation)
		name: "visual-studio references", fixture: "visual-studio/local.local.mcp.json", servers: []string{"github"},
		want: `cannot write for Visual Studio: github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN): Visual Studio documents no environment-variable interpolation in its config, so a reference cannot be written there`,
	},
	{
		// spec: V9 (a strict-JSON client's file with a comment is refused, not written)
		name: "kiro comment", fixture: "kiro/project.dev.mcp.json", profile: "dev",
		edit: addBefore(`  "mcpServers"`, "  // servers for this workspace\n"),
		want: `@DEST@: line 2 holds a comment, and Kiro reads strict JSON only: it would reject or ignore the whole file`,
	},
	{
		name: "crush trailing comma", fixture: "crush/project.dev.crush.json", profile: "dev",
		edit: addBefore(`
  },
  "options"`, ","),
		want: `@DEST@: line 23 has a trailing comma, and Crush reads strict JSON only: it would reject or ignore the whole file`,
	},
}

// TestInjectRefusals pins the exact error of each injection a provider refuses and
// proves that nothing was written: the client files are byte-identical, and no
// ownership record or settings file appeared.
//
// spec: V4 V5 V7 F3 C6 P6 W1 W7
func TestInjectRefusals(t *testing.T) {
	for _, rc := range refusalCases {
		t.Run(rc.name, func(t *testing.T) {
			w := newWorld(t)
			fx, _ := fixtures.Lookup(rc.fixture)
			p := w.provider(fx.Provider)
			path := w.dest(p, providers.Scope(fx.Scope))
			orig := fixtures.File(rc.fixture)
			if rc.edit != nil {
				orig = rc.edit(orig)
			}
			w.place(path, orig)
			var settingsPath string
			var settingsOrig []byte
			if p.Settings != nil {
				settingsPath = w.settingsDest(p, providers.Scope(fx.Scope))
				if rc.settings != "" {
					settingsOrig = fixtures.File(rc.settings)
					w.place(settingsPath, settingsOrig)
				}
			}
			layerBefore := treeState(t, w.layer)

			_, err := write.Inject(fsys.NewOS(), w.request(fx.Provider, "", rc.profile, rc.servers...))
			if err == nil {
				t.Fatal("inject succeeded; want a refusal")
			}
			got := strings.ReplaceAll(err.Error(), path, "@DEST@")
			if got != rc.want {
				t.Errorf("error:\n got: %s\nwant: %s", got, rc.want)
			}
			var h hint.Hinter
			if rc.hints != nil && (!errors.As(err, &h) || !slices.Equal(h.Hints(), rc.hints)) {
				t.Errorf("hints: %v, want %v", h, rc.hints)
			}
			if b := read(t, path); !bytes.Equal(b, orig) {
				t.Errorf("%s changed:\n%s", path, b)
			}
			if settingsPath != "" {
				b, err := os.ReadFile(settingsPath)
				switch {
				case settingsOrig == nil && err == nil:
					t.Errorf("%s was created", settingsPath)
				case settingsOrig != nil && !bytes.Equal(b, settingsOrig):
					t.Errorf("%s changed", settingsPath)
				}
			}
			if after := treeState(t, w.layer); !maps.Equal(layerBefore, after) {
				t.Errorf("the registry layer changed (ownership records or receipts written): %v", keys(after))
			}
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestAntigravityKeepsExistingEntry: a same-named Antigravity entry keeps its launch
// configuration and only gains the profile's filters, without --force; its other
// members survive, and the existing disabledTools array is unioned, not replaced.
//
// spec: C6 F3 W1
func TestAntigravityKeepsExistingEntry(t *testing.T) {
	w := newWorld(t)
	p := w.provider("antigravity")
	path := w.dest(p, providers.Project)
	orig := fixtures.File("antigravity/project.local.mcp_config.json")
	w.place(path, orig)
	if _, err := write.Inject(fsys.NewOS(), w.request("antigravity", "", "local")); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
	}
	if err := json.Unmarshal(read(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	fetch := doc.MCPServers["fetch"]
	if fetch["command"] != "docker" {
		t.Errorf("fetch.command = %v, want the existing docker (kept, not replaced)", fetch["command"])
	}
	if got, _ := json.Marshal(fetch["args"]); string(got) != `["run","-i","--rm","mcp/fetch"]` {
		t.Errorf("fetch.args = %s, want the existing ones", got)
	}
	if got, _ := json.Marshal(fetch["disabledTools"]); string(got) != `["fetch_html","fetch_raw"]` {
		t.Errorf("fetch.disabledTools = %s, want the existing fetch_html unioned with fetch_raw", got)
	}
	if len(fetch) != 3 {
		t.Errorf("fetch has members %v, want only command, args, disabledTools", fetch)
	}
}
