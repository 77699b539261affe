package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// jsonSecret is a literal credential of the registry of TestWriteCommandsJSON.
const jsonSecret = "sk-live-JSONTEST-42"

// TestWriteCommandsJSON: every command that writes takes --json and prints on stdout
// one JSON document and nothing else: each destination with its scope and the
// servers written, removed and skipped, the changed files, the warnings, and for a
// launch the command as an argument array. A literal credential of a server never
// appears, on stdout or stderr.
//
// spec: U5 R8
func TestWriteCommandsJSON(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "repo")
	for p, c := range map[string]string{
		".aiwg/mcp-servers.json": `{"servers": {
			"lit": {"command": "lit-mcp", "args": ["--stdio"], "env": {"API_KEY": "` + jsonSecret + `"}},
			"web": {"type": "http", "url": "https://web.example/mcp", "headers": {"X-Api-Key": "` + jsonSecret + `"}},
			"sse": {"type": "sse", "url": "https://sse.example/mcp"},
			"off": {"command": "off-mcp", "enabled": false}}}`,
		".aiwg/mcp-profiles.json": `{"profiles": {"p": {"servers": ["lit", "web"]}}}`,
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
	} {
		p = filepath.Join(home, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	run := func(want int, args ...string) map[string]any {
		t.Helper()
		env, stdout, stderr := testEnv(t, map[string]string{"CODEX_HOME": filepath.Join(home, ".codex")})
		env.Home, env.Cwd = home, project
		code := Main(args, env)
		if code != want {
			t.Fatalf("%s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, stderr)
		}
		if strings.Contains(stdout.String()+stderr.String(), jsonSecret) {
			t.Errorf("%s printed a credential:\n%s\n%s", strings.Join(args, " "), stdout, stderr)
		}
		if want == 2 {
			return nil
		}
		doc := oneDocument(t, stdout.Bytes())
		if doc["dryRun"] == false {
			// U5: files written or removed, never a staged record written and removed
			// within the run
			for _, p := range doc["changed"].([]any) {
				if strings.HasSuffix(p.(string), ".staged") {
					t.Errorf("%s: changed lists %s", strings.Join(args, " "), p)
				}
			}
		}
		return doc
	}
	dest := func(doc map[string]any, i int) map[string]any { return doc["destinations"].([]any)[i].(map[string]any) }

	doc := run(0, "inject", "--provider", "cursor", "--scope", "user", "--servers", "lit,web", "--json", "--dry-run")
	if d := dest(doc, 0); doc["dryRun"] != true || d["path"] != cursor || d["scope"] != "user" || !sameList(d["written"], "lit", "web") || d["changed"] != true {
		t.Errorf("inject --dry-run: %v", doc)
	}
	if _, err := os.Stat(cursor); err == nil {
		t.Error("inject --dry-run --json wrote the file")
	}
	doc = run(0, "inject", "--provider", "cursor,claude-desktop", "--scope", "user", "--servers", "lit,off", "--json")
	if d := dest(doc, 1); d["provider"] != "claude-desktop" || !sameList(d["written"], "lit") || !sameList(d["skipped"], "off") {
		t.Errorf("inject into two clients: %v", doc)
	}
	if w := doc["warnings"].([]any); len(w) != 2 || !strings.Contains(w[0].(string), "off is disabled") {
		t.Errorf("inject: warnings %v", w)
	}
	doc = run(0, "inject", "--provider", "cursor", "--scope", "user", "--servers", "lit,web", "--json")
	if !slices.Contains(doc["changed"].([]any), any(cursor)) || !sameList(dest(doc, 0)["written"], "lit", "web") {
		t.Errorf("inject: %v", doc)
	}
	doc = run(0, "uninject", "--provider", "cursor", "--scope", "user", "--servers", "lit,web,sse", "--json")
	if d := dest(doc, 0); !sameList(d["removed"], "lit", "web") || !sameList(d["skipped"], "sse") || d["changed"] != true {
		t.Errorf("uninject: %v", doc)
	}
	doc = run(0, "install", "claude-code", "--json")
	if d := dest(doc, 0); d["path"] != filepath.Join(project, ".mcp.json") || !sameList(d["written"], "aiwg") {
		t.Errorf("install: %v", doc)
	}
	doc = run(0, "import", "--from", "claude-desktop", "--json")
	if !sameList(doc["identical"], "lit") || dest(doc, 0)["provider"] != "claude-desktop" {
		t.Errorf("import: %v", doc)
	}
	out := filepath.Join(home, "run.json")
	doc = run(0, "inject", "--ephemeral", "--provider", "claude-code", "--profile", "p", "--out", out, "--json")
	if l := doc["launch"].(map[string]any); !sameList(l["argv"], "claude", "--mcp-config", out, "--strict-mcp-config") {
		t.Errorf("inject --ephemeral: %v", doc)
	}
	doc = run(0, "session", "--provider", "claude-code", "--profile", "p", "--dry-run", "--json")
	if argv := doc["launch"].(map[string]any)["argv"].([]any); argv[0] != "claude" || argv[1] != "--mcp-config" || len(doc["destinations"].([]any)) != 1 || dest(doc, 0)["scope"] != "ephemeral" {
		t.Errorf("session claude --dry-run: %v", doc)
	}
	doc = run(0, "session", "--provider", "codex", "--profile", "p", "--dry-run", "--json")
	if l := doc["launch"].(map[string]any); !strings.HasPrefix(l["env"].(map[string]any)["CODEX_HOME"].(string), filepath.Join(home, ".codex", "roles-runtime")) || !sameList(l["argv"], "codex") || dest(doc, 0)["scope"] != "ephemeral" {
		t.Errorf("session codex --dry-run: %v", doc)
	}
	doc = run(0, "session", "--provider", "codex", "--profile", "p", "--persist", "--dry-run", "--json")
	if d := dest(doc, 0); d["path"] != filepath.Join(home, ".codex", "config.toml") || d["scope"] != "user" {
		t.Errorf("session --persist --dry-run: %v", doc)
	}
	if _, err := os.Stat(filepath.Join(home, ".codex", "roles-runtime")); err == nil {
		t.Error("session --dry-run made the runtime home")
	}
	run(2, "session", "--provider", "codex", "--profile", "p", "--json")
}

// oneDocument decodes out as exactly one JSON object, with nothing after it.
func oneDocument(t *testing.T, out []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not a JSON document: %v\n%s", err, out)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON document:\n%s", out)
	}
	return doc
}

// sameList reports whether a decoded JSON list holds exactly the strings want.
func sameList(v any, want ...string) bool {
	list, _ := v.([]any)
	if len(list) != len(want) {
		return false
	}
	for i, x := range list {
		if x != want[i] {
			return false
		}
	}
	return true
}
