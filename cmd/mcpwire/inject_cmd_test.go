package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"

	"github.com/mcpwire/mcpwire/internal/suggest"
	"github.com/mcpwire/mcpwire/providers"
)

// injectEnv is an Env whose single configuration directory holds a small registry, with
// the per-user locations inside the temporary home.
func injectEnv(t *testing.T) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	vars := map[string]string{}
	env, stdout, stderr := testEnv(t, vars)
	cfg := filepath.Join(env.Home, ".aiwg")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"mcp-servers.json": `{"servers": {
			"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]},
			"lit": {"command": "lit-mcp", "env": {"API_KEY": "sk-live-CMDTEST"}}
		}}`,
		"mcp-profiles.json": `{"profiles": {"p": {"servers": ["fetch"]}}}`,
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(cfg, n), []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	vars["AIWG_CONFIG"] = cfg
	vars["XDG_CONFIG_HOME"] = filepath.Join(env.Home, ".config")
	vars["CODEX_HOME"] = filepath.Join(env.Home, ".codex")
	env.Cwd = filepath.Join(env.Home, "repo")
	if err := os.MkdirAll(env.Cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	return env, stdout, stderr
}

// spec: V2 U1 (aliases; an unknown provider exits 2 with a close name or the list of names)
func TestInjectProviderAliases(t *testing.T) {
	for alias, name := range map[string]string{
		"claude": "claude-code", "openai": "codex", "agy": "antigravity", "oh-my-pi": "omp",
		"factory-ai": "factory", "cascade": "windsurf", "code": "vscode", "copilot": "copilot-cli",
		"gemini": "gemini-cli", "grok": "grok-build",
	} {
		t.Run(alias, func(t *testing.T) {
			env, stdout, stderr := injectEnv(t)
			if code := Main([]string{"inject", "--provider", alias, "--servers", "fetch", "--dry-run"}, env); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.HasPrefix(stdout.String(), name+": would write fetch to ") {
				t.Errorf("--provider %s did not resolve to %s:\n%s", alias, name, stdout)
			}
		})
	}
	// U1: a close name (aliases included) is suggested, otherwise every name is listed
	names := providers.Names()
	list := "one of: " + strings.Join(names, ", ")
	if len(names) > suggest.MaxListed {
		list = "one of: " + strings.Join(names[:suggest.MaxListed], ", ") + fmt.Sprintf(" (and %d more)", len(names)-suggest.MaxListed)
	}
	hints := map[string]string{"claud": `did you mean "claude"?`, "Claude": `did you mean "claude"?`, "": list, "*": list,
		"vs-code": `did you mean "vscode"?`, "cluade": `did you mean "claude"?`, "zzz": list}
	for _, bad := range []string{"claud", "Claude", "", "*", "vs-code", "cluade", "zzz"} {
		t.Run("unknown "+bad, func(t *testing.T) {
			env, stdout, stderr := injectEnv(t)
			code := Main([]string{"inject", "--provider", bad, "--servers", "fetch"}, env)
			if code != exitUsage {
				t.Fatalf("exit %d, want 2\n%s", code, stderr)
			}
			want := `mcpwire: error: unknown provider "` + bad + `"` + "\nmcpwire: hint: " + hints[bad] + "\n"
			if !strings.HasPrefix(stderr.String(), want) {
				t.Errorf("stderr %q, want %q", stderr, want)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %s", stdout)
			}
		})
	}
}

// spec: §0 P3 V6 (inject usage errors exit 2 and write nothing; refusals exit 1)
func TestInjectExitCodes(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"inject", "--provider", "codex", "--servers", "fetch", "--strict-credentials", "--no-credentials"}, 2,
			"--strict-credentials and --no-credentials cannot be used together"},
		{[]string{"inject", "--all", "--strict-credentials", "--no-credentials"}, 2, "cannot be used together"},
		{[]string{"inject", "--provider", "codex", "--all"}, 2, "give exactly one of --provider NAME and --all"},
		{[]string{"inject", "--servers", "fetch"}, 2, "give exactly one of --provider NAME and --all"},
		{[]string{"inject", "--provider", "codex"}, 2, "choose servers with --profile NAME or --servers a,b"},
		{[]string{"inject", "--provider", "codex", "--servers", "fetch", "--scope", "global"}, 2, `--scope must be project, local or user, not "global"`},
		{[]string{"inject", "--provider", "codex", "--servers", "fetch", "--out", "x.json"}, 2, "--out needs --ephemeral"},
		{[]string{"inject", "--all", "--ephemeral"}, 2, "cannot be used with --all"},
		{[]string{"inject", "extra", "--provider", "codex", "--servers", "fetch"}, 2, "takes no arguments"},
		{[]string{"inject", "--provider", "codex", "--servers", "fetch", "--bogus"}, 2, "unknown flag --bogus"},
		{[]string{"providers", "--bogus"}, 2, "unknown flag --bogus"},
		// refusals: 1
		{[]string{"inject", "--provider", "codex", "--scope", "project", "--servers", "fetch"}, 1,
			"codex has no project-scope config file (it has: user)"},
		{[]string{"inject", "--provider", "codex", "--servers", "lit", "--strict-credentials"}, 1,
			`credential policy "references" refuses lit (env.API_KEY)`},
		{[]string{"inject", "--provider", "cursor", "--servers", "lit"}, 1, "project scope (a committed file) refuses lit (env.API_KEY)"},
		{[]string{"inject", "--provider", "cursor", "--servers", "ghost"}, 1, "servers not defined in any configuration layer: ghost"},
		{[]string{"inject", "--provider", "cursor", "--profile", "ghost"}, 1, `profile "ghost" not found`},
		{[]string{"inject", "--provider", "cursor", "--servers", "fetch", "--project", "missing"}, 1, "does not exist"},
		{[]string{"inject", "--provider", "chatgpt-desktop", "--servers", "fetch"}, 1, "ChatGPT Desktop has no config file mcpwire can write"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			env, stdout, stderr := injectEnv(t)
			before := fixtures.Tree(t, env.Home)
			code := Main(tt.args, env)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if !strings.HasPrefix(stderr.String(), "mcpwire: error: ") || !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q, want %q", stderr, tt.stderr)
			}
			if strings.Contains(stdout.String()+stderr.String(), "sk-live-") {
				t.Errorf("a credential value was printed")
			}
			if after := fixtures.Tree(t, env.Home); !maps.Equal(before, after) {
				t.Errorf("a refused inject changed files")
			}
		})
	}
}

// spec: V1 V2 V3 V6 §0 (providers --json: one document, every provider with its
// aliases, a destination for its default scope, format, references and filters)
func TestProvidersJSON(t *testing.T) {
	env, stdout, stderr := injectEnv(t)
	if code := Main([]string{"providers", "--json"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr: %s", stderr)
	}
	var views []providerView
	dec := json.NewDecoder(bytes.NewReader(stdout.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&views); err != nil {
		t.Fatal(err)
	}
	if dec.More() {
		t.Fatal("more than one JSON document")
	}
	var names []string
	for _, v := range views {
		names = append(names, v.Name)
		p, ok := providers.Get(v.Name)
		if !ok {
			t.Errorf("%s: not a provider", v.Name)
			continue
		}
		if !slices.Equal(v.Aliases, p.Aliases) || v.Aliases == nil {
			t.Errorf("%s: aliases %v, want %v (never null)", v.Name, v.Aliases, p.Aliases)
		}
		if v.References == "" || v.ToolDeny == "" || v.ToolAllow == "" || v.Transports == "" {
			t.Errorf("%s: missing references, filters or transports: %+v", v.Name, v)
		}
		if v.Conformance != p.Conformance || len(v.Sources) == 0 {
			t.Errorf("%s: conformance %v, want %v; sources %q", v.Name, v.Conformance, p.Conformance, v.Sources)
		}
		if p.Manual() {
			continue
		}
		if v.Format == "" || v.ServersKey == "" {
			t.Errorf("%s: no format or servers key", v.Name)
		}
		d := v.Destinations[v.DefaultScope]
		if len(d) == 0 || !filepath.IsAbs(d[0]) {
			t.Errorf("%s: default scope %s has no absolute destination: %q", v.Name, v.DefaultScope, d)
		}
		for _, s := range p.Scopes() {
			if only := p.Dest(s).Only; only != "" && only != runtime.GOOS {
				// a file of an OS the client alone runs on (Visual Studio): the listing
				// says why there is none here
				if d, why := v.Destinations[string(s)], v.Unresolved[string(s)]; len(d) > 0 || !strings.HasPrefix(why, "only on ") {
					t.Errorf("%s %s: %q (%q), want no file and the reason there is none on %s", v.Name, s, d, why, runtime.GOOS)
				}
				continue
			}
			files := v.Destinations[string(s)]
			if ptr, ok := v.Pointers[string(s)]; ok {
				files = append(files, ptr)
			}
			for _, c := range files {
				base := env.Home
				if s == providers.Project {
					base = env.Cwd
				}
				if !strings.HasPrefix(c, base+string(filepath.Separator)) {
					t.Errorf("%s %s: %s is not under %s", v.Name, s, c, base)
				}
			}
		}
	}
	if !slices.Equal(names, providers.Names()) {
		t.Errorf("providers %v, want %v", names, providers.Names())
	}
	// "/", or "\\" (a Windows separator in JSON)
	settings := strings.ReplaceAll(`"settings": \{\n(\s+"local": \[\n\s+".*/repo/\.claude/settings\.local\.json"\n\s+\],\n)?\s+"project": \[\n\s+".*/repo/\.claude/settings\.local\.json"`, "/", `(/|\\\\)`)
	if !regexp.MustCompile(settings).Match(stdout.Bytes()) {
		t.Errorf("claude-code's settings files are not listed")
	}
}

// spec: §0 L2 V4 F3 (the README's quick start: the organisation example layered under
// an empty personal overlay, injected into Codex with --dry-run, writes nothing)
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "AIWG_CONFIG_LAYERS=$HOME/src/mcpwire/examples/org:$HOME/.aiwg mcpwire inject --provider codex --profile dev --dry-run"
	if !strings.Contains(string(readme), cmd) {
		t.Fatalf("the README no longer shows %q; update this test with it", cmd)
	}
	org, err := filepath.Abs("../../examples/org")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	env, stdout, stderr := testEnv(t, vars)
	vars["AIWG_CONFIG_LAYERS"] = org + string(filepath.ListSeparator) + filepath.Join(env.Home, ".aiwg")
	before := fixtures.Tree(t, env.Home)
	if code := Main([]string{"inject", "--provider", "codex", "--profile", "dev", "--dry-run"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout.String(), "codex: would write ") || !strings.Contains(stdout.String(), "+[mcp_servers.") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if after := fixtures.Tree(t, env.Home); !maps.Equal(before, after) {
		t.Error("--dry-run wrote files")
	}
}
