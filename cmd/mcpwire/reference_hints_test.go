package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// hintServers are servers with every reference problem a client can refuse: a variable
// under another name, a header and a bearer token from variables, an input, a
// variable inside a value, a default, a variable a client reads as empty, SSE; and a
// server with several keys, of which a hint must change one and keep the others (H3).
const hintServers = `{"servers": {
  "renamed": {"command": "gh-mcp", "envFrom": {"GITHUB_PERSONAL_ACCESS_TOKEN": "GITHUB_TOKEN"}},
  "same": {"command": "gh-mcp", "envFrom": {"GITHUB_TOKEN": "GITHUB_TOKEN"}},
  "several": {"command": "gh-mcp", "envFrom": {"GITHUB_PERSONAL_ACCESS_TOKEN": "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN": "GH_ENTERPRISE_TOKEN"}, "env": {"LOG_LEVEL": "debug"}, "plainEnv": ["LOG_LEVEL"]},
  "hdr": {"type": "http", "url": "https://h.example/mcp", "headerEnv": {"X-Team": "TEAM"}},
  "bearer": {"type": "http", "url": "https://h.example/mcp", "bearerEnv": "TICKETS_TOKEN"},
  "input": {"command": "px-mcp", "envInput": {"PERPLEXITY_API_KEY": "perplexity-key"}, "inputs": [{"id": "perplexity-key", "password": true}]},
  "inner": {"command": "db-mcp", "args": ["--url=postgres://db/${DB_NAME}"]},
  "dflt": {"command": "notes-mcp", "env": {"NOTES_DIR": "${NOTES_DIR:-./notes}"}},
  "reserved": {"type": "http", "url": "https://r.example/mcp", "headerEnv": {"x-api-key": "ANTHROPIC_API_KEY"}},
  "legacy": {"type": "sse", "url": "https://legacy.example/sse"}
}}`

// hintWorld is a home, a project and a write layer holding hintServers.
type hintWorld struct {
	t                    *testing.T
	home, project, layer string
}

func newHintWorld(t *testing.T) hintWorld {
	root := t.TempDir()
	w := hintWorld{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "repo"), layer: filepath.Join(root, "layer")}
	for _, d := range []string{w.home, filepath.Join(w.project, ".git"), w.layer} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(w.layer, "mcp-servers.json"), []byte(hintServers), 0o600); err != nil {
		t.Fatal(err)
	}
	return w
}

// run runs mcpwire in the world: its exit code, stdout and stderr.
func (w hintWorld) run(args ...string) (int, string, string) {
	env, stdout, stderr := testEnv(w.t, nil)
	env.Home, env.Cwd = w.home, w.project
	code := Main(append([]string{"--config-dir", w.layer}, args...), env)
	return code, stdout.String(), stderr.String()
}

// keysRead are the env keys and headers a server gets, wherever their values come
// from: what a hint must keep (the server's meaning).
func (w hintWorld) keysRead(server string) []string {
	raw, err := os.ReadFile(filepath.Join(w.layer, "mcp-servers.json"))
	if err != nil {
		w.t.Fatal(err)
	}
	var f struct {
		Servers map[string]map[string]json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		w.t.Fatal(err)
	}
	var keys []string
	for _, m := range []string{"env", "envFrom", "envInput", "headers", "headerEnv", "headerInput"} {
		var kv map[string]string
		_ = json.Unmarshal(f.Servers[server][m], &kv)
		keys = append(keys, slices.Collect(maps.Keys(kv))...)
	}
	if _, ok := f.Servers[server]["bearerEnv"]; ok {
		keys = append(keys, "Authorization")
	}
	slices.Sort(keys)
	return keys
}

var hintLine = regexp.MustCompile(`(?m)^mcpwire: hint: (.*)$`)

// TestReferenceHints walks every hint mcpwire prints when a client refuses a server
// for a reference problem, for every client and every such server: each hint,
// applied literally in a fresh world, makes the same command succeed and keeps the
// server's meaning — the keys the server reads stay, and a server a client cannot take
// is left out of its file rather than written with another meaning. A hint the walk
// does not know how to apply fails it.
//
// spec: T5 H5
func TestReferenceHints(t *testing.T) {
	var servers []string
	var doc struct {
		Servers map[string]json.RawMessage `json:"servers"`
	}
	if err := json.Unmarshal([]byte(hintServers), &doc); err != nil {
		t.Fatal(err)
	}
	servers = slices.Sorted(maps.Keys(doc.Servers))
	applied := map[string]int{}
	for _, p := range providers.All() {
		if p.Manual() {
			continue
		}
		for _, scope := range p.Scopes() {
			// the default scope, and a scope whose file takes no reference (Kilo's project
			// files): the others refuse as the default does; RunWield's project file needs
			// a git checkout that ignores it
			if scope != p.DefaultScope && !p.Dest(scope).NoRefs || scope == providers.Project && p.GitIgnored {
				continue
			}
			w := newHintWorld(t) // a refused inject writes nothing: one world for them all
			for _, s := range servers {
				cmd := []string{"inject", "--provider", p.Name, "--scope", string(scope), "--servers", s}
				code, _, stderr := w.run(cmd...)
				if code == 0 {
					w = newHintWorld(t) // it wrote: the next server starts afresh
					continue
				}
				if !strings.Contains(stderr, "cannot write for") {
					continue
				}
				hints := hintLine.FindAllStringSubmatch(stderr, -1)
				if len(hints) == 0 {
					t.Errorf("%s: refused without a hint:\n%s", strings.Join(cmd, " "), stderr)
				}
				for _, h := range hints {
					kind := applyHint(t, cmd, s, h[1])
					applied[kind]++
				}
			}
		}
	}
	t.Logf("hints applied: %v", applied)
	for _, kind := range []string{"server update", "--skip-unsupported", "--scope user"} {
		if applied[kind] == 0 {
			t.Errorf("no %s hint was walked", kind)
		}
	}
}

// applyHint applies one hint in a fresh world and reruns the command; it returns the
// kind of hint.
func applyHint(t *testing.T, cmd []string, server, hint string) string {
	w := newHintWorld(t)
	before := w.keysRead(server)
	rerun := slices.Clone(cmd)
	var kind string
	switch {
	case strings.HasPrefix(hint, "mcpwire server update "):
		kind = "server update"
		line, _, _ := strings.Cut(hint, " (")
		args := strings.Fields(strings.TrimPrefix(line, "mcpwire "))
		if code, _, stderr := w.run(args...); code != 0 {
			t.Errorf("%s: the hint %q fails:\n%s", strings.Join(cmd, " "), hint, stderr)
			return kind
		}
	case strings.HasPrefix(hint, "add --skip-unsupported "):
		kind = "--skip-unsupported"
		rerun = append(rerun, "--skip-unsupported")
	case strings.HasPrefix(hint, "add --scope user"):
		kind = "--scope user"
		for i := range rerun {
			if rerun[i] == "--scope" {
				rerun[i+1] = "user"
			}
		}
	default:
		t.Errorf("%s: a hint the walk cannot apply: %q", strings.Join(cmd, " "), hint)
		return "unknown"
	}
	code, stdout, stderr := w.run(rerun...)
	if code != 0 {
		t.Errorf("%s: after the hint %q the command still fails:\n%s", strings.Join(cmd, " "), hint, stderr)
		return kind
	}
	if after := w.keysRead(server); !slices.Equal(before, after) {
		t.Errorf("%s: the hint %q changed what the server reads: %v, now %v", strings.Join(cmd, " "), hint, before, after)
	}
	if kind == "--skip-unsupported" && strings.Contains(stdout, "wrote "+server+" ") {
		t.Errorf("%s --skip-unsupported: wrote the server it cannot take:\n%s", strings.Join(cmd, " "), stdout)
	}
	return kind
}
