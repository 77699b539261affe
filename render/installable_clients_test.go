package render_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/write"
)

// refused injects and wants an error holding every part, with the file unchanged.
func refused(t *testing.T, w *world, r write.Request, path string, parts ...string) {
	t.Helper()
	before, _ := os.ReadFile(path)
	_, err := write.Inject(fsys.NewOS(), r)
	if err == nil {
		t.Fatalf("%s: no error; want one with %q", r.Provider.Name, parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error %q lacks %q", r.Provider.Name, err, p)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Errorf("%s changed:\n%s", path, after)
	}
}

// TestAuggieRefusals: auggie sends header values as written, so a header taken from a
// variable is refused (and a literal header holding a placeholder), while env
// references pass; a file whose mcpServers holds an entry auggie cannot read (which
// makes it drop every server of the file) is refused, naming the entry.
//
// spec: V4 V9 P6
func TestAuggieRefusals(t *testing.T) {
	w := newWorld(t)
	path := w.dest(w.provider("auggie"), providers.User)
	refused(t, w, w.request("auggie", "", "", "tickets"), path, "tickets (headerEnv.X-Tickets-Team, bearerEnv)", "sends header values as written")
	r := w.request("auggie", "", "", "hdr")
	r.Install.Extra = []*registry.Server{{Name: "hdr", Type: registry.HTTP, URL: "https://x.example/mcp", Headers: map[string]string{"X-Team": "${TEAM}"}}}
	refused(t, w, r, path, "hdr (headers.X-Team)")
	if _, err := w.inject("auggie", "", "github"); err != nil {
		t.Fatalf("env references: %v", err)
	}
	// each seen with auggie 0.36.0: mcp list --json shows no server of the file
	for bad, why := range map[string]string{
		`"command": "x", "type": "streamable-http"`:   `type "streamable-http" is not stdio, http or sse`,
		`"command": "x", "args": "-y"`:                "args is not a list",
		`"command": "x", "args": [null]`:              "args is not a list",
		`"command": "x", "disabled": "yes"`:           "disabled is not true or false",
		`"url": "https://a/mcp", "headers": {"A": 1}`: "headers.A is not a string",
		`"url": "https://a/mcp", "headers": "h"`:      "headers is not an object",
		`"command": 1`:                                "command is not a string",
		`"url": 5`:                                    "url is not a string",
		`"command": "x", "env": "A"`:                  "env is not an object",
		`"command": "x", "env": {"A": [1]}`:           "env.A is not a string, number, boolean or null",
		`"command": "x", "cwd": 5`:                    "cwd is not a string",
		`"command": "x", "name": 5`:                   "name is not a string",
		`"command": "x", "title": null`:               "title is not a string",
		`"command": "x", "clientId": 5`:               "clientId is not a string",
		`"type": "http", "command": "x"`:              "type http needs a url",
		`"type": "stdio", "url": "https://a/mcp"`:     "type stdio needs a command",
		`"args": ["a"]`:                               "it has neither a command nor a url",
		`"url": ""`:                                   "it has neither a command nor a url",
	} {
		w.place(path, []byte("{\n  \"mcpServers\": {\n    \"theirs\": {"+bad+"}\n  }\n}\n"))
		refused(t, w, w.request("auggie", "", "", "fetch"), path, path, `entry "theirs": `+why)
	}
	// what auggie reads: scalars in args and env, unknown members, a url with a command
	for _, good := range []string{`"command": "x", "args": [1, true], "env": {"A": 1, "B": null, "C": false}`,
		`"url": "https://a/mcp", "command": "x", "timeout": "x"`, `"type": "sse", "url": "https://a/sse"`} {
		w.place(path, []byte("{\n  \"mcpServers\": {\n    \"theirs\": {"+good+"}\n  }\n}\n"))
		if _, err := w.inject("auggie", "", "fetch"); err != nil {
			t.Errorf("%s: %v", good, err)
		}
	}
}

// TestKiloProjectRefs: Kilo skips a whole project file holding a {env:…} reference, so
// a reference (or a literal value holding one) is refused at project scope, and so is
// a project file that holds one already; the user file takes them.
//
// spec: V4 V9
func TestKiloProjectRefs(t *testing.T) {
	w := newWorld(t)
	path := w.dest(w.provider("kilo"), providers.Project)
	refused(t, w, w.request("kilo", providers.Project, "", "github"), path, "github (envFrom.GITHUB_PERSONAL_ACCESS_TOKEN)", "skips a whole project-scope file")
	r := w.request("kilo", providers.Project, "", "lit")
	r.Install.Extra = []*registry.Server{{Name: "lit", Type: registry.Stdio, Command: "x", Args: []string{"--root", "{env:HOME}"}}}
	refused(t, w, r, path, "lit (args[1])")
	if _, err := w.inject("kilo", providers.Project, "fetch", "docs"); err != nil {
		t.Fatalf("no references: %v", err)
	}
	if _, err := w.inject("kilo", providers.User, "github"); err != nil {
		t.Fatalf("user file: %v", err)
	}
	// a reference already in the project file: Kilo loads none of its servers
	w.place(path, []byte("{\n  // {env:X} in a comment is fine\n  \"model\": \"{env:MODEL}\"\n}\n"))
	refused(t, w, w.request("kilo", providers.Project, "", "fetch"), path, path+": line 3 holds a reference")
}

// TestTrailingCommaRefused: Qwen Code resets (or refuses to start over) a settings
// file with a trailing comma, and Qoder CLI drops the whole file: mcpwire never writes
// one, naming the line; comments are fine for both.
//
// spec: V9 W2
func TestTrailingCommaRefused(t *testing.T) {
	for _, name := range []string{"qwen-code", "qoder"} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			path := w.dest(w.provider(name), providers.User)
			w.place(path, []byte("{\n  // mine\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"},\n  }\n}\n"))
			refused(t, w, w.request(name, providers.User, "", "fetch"), path, path+": line 4 has a trailing comma")
			w.place(path, []byte("{\n  // mine\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n  }\n}\n"))
			if _, err := w.inject(name, providers.User, "fetch"); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestQwenVersion: a new Qwen Code settings file gets "$version": 4, so that Qwen does
// not migrate and rewrite it; an existing file with other settings is left to Qwen.
//
// spec: V9 W1
func TestQwenVersion(t *testing.T) {
	w := newWorld(t)
	path := w.dest(w.provider("qwen"), providers.User)
	if _, err := w.inject("qwen", providers.User, "fetch"); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(read(t, path), &doc); err != nil || doc["$version"] != float64(4) {
		t.Errorf("new file %v: %s", err, read(t, path))
	}
	old := []byte("{\n  \"ui\": {\"theme\": \"Default\"}\n}\n")
	w.place(path, old)
	if _, err := w.inject("qwen", providers.User, "fetch"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); strings.Contains(string(got), "$version") {
		t.Errorf("added $version to a file with other settings:\n%s", got)
	}
}

// TestEphemeralInstallableClients: the clients with a flag or variable that loads a standalone
// file get one, with the launch line; Qoder CLI has none and refuses.
//
// spec: C5
func TestEphemeralInstallableClients(t *testing.T) {
	for _, c := range []struct{ provider, key, launch string }{
		{"copilot-cli", "mcpServers", "copilot --additional-mcp-config @OUT"},
		{"qwen-code", "mcpServers", "qwen --mcp-config OUT"},
		{"auggie", "mcpServers", "auggie --mcp-config OUT"},
		{"amp", "", "amp --mcp-config OUT"},
		{"kilo", "mcp", "KILO_CONFIG=OUT kilo"},
	} {
		t.Run(c.provider, func(t *testing.T) {
			w := newWorld(t)
			out := filepath.Join(t.TempDir(), "run.json")
			res, err := write.Ephemeral(fsys.NewOS(), w.request(c.provider, "", "", "fetch", "docs"), out)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := res.LaunchLine(), launchWith(c.launch, out); got != want {
				t.Errorf("launch %q, want %q", got, want)
			}
			var doc map[string]map[string]any
			if err := json.Unmarshal(read(t, out), &doc); err != nil {
				t.Fatal(err)
			}
			servers := doc
			if c.key != "" {
				servers = map[string]map[string]any{}
				raw, _ := json.Marshal(doc[c.key])
				if err := json.Unmarshal(raw, &servers); err != nil {
					t.Fatal(err)
				}
			}
			if servers["fetch"] == nil || servers["docs"] == nil || len(servers) != 2 {
				t.Errorf("standalone file:\n%s", read(t, out))
			}
		})
	}
	w := newWorld(t)
	if _, err := write.Ephemeral(fsys.NewOS(), w.request("qoder", "", "", "fetch"), filepath.Join(t.TempDir(), "x.json")); err == nil || !strings.Contains(err.Error(), "cannot stand alone") {
		t.Errorf("qoder ephemeral: %v", err)
	}
}

// TestHidesOtherClientsFile: Copilot CLI reads .github/mcp.json only while no .mcp.json
// exists, so creating .mcp.json for Claude Code says it hides that file from Copilot.
//
// spec: V10
func TestHidesOtherClientsFile(t *testing.T) {
	w := newWorld(t)
	w.place(filepath.Join(w.project, ".github", "mcp.json"), []byte("{\"mcpServers\": {}}\n"))
	if _, err := w.inject("claude-code", providers.Project, "fetch"); err != nil {
		t.Fatal(err)
	}
	want := "hides " + filepath.Join(w.project, ".github", "mcp.json") + " from GitHub Copilot CLI"
	if !slices.ContainsFunc(w.warns, func(s string) bool { return strings.Contains(s, want) }) {
		t.Errorf("warnings %q", w.warns)
	}
	w.warns = nil
	if _, err := w.inject("claude-code", providers.Project, "fetch", "docs"); err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(w.warns, func(s string) bool { return strings.Contains(s, "hides") }) {
		t.Errorf("said again for an existing file: %q", w.warns)
	}
}

// TestAmpFlatKey: Amp's servers are under the top-level key "amp.mcpServers" (one key
// with a dot, not nested), SSE servers with "transport": "sse".
//
// spec: V9
func TestAmpFlatKey(t *testing.T) {
	w := newWorld(t)
	path := w.dest(w.provider("amp"), providers.User)
	w.place(path, []byte("{\n  \"amp\": {\"mcpServers\": {\"nested\": {}}}\n}\n"))
	r := w.request("amp", "", "", "old")
	r.Install.Extra = []*registry.Server{{Name: "old", Type: registry.SSE, URL: "https://x.example/sse"}}
	if _, err := write.Inject(fsys.NewOS(), r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(read(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	if string(doc["amp"]) != `{"mcpServers": {"nested": {}}}` || !strings.Contains(string(doc["amp.mcpServers"]), `"transport": "sse"`) {
		t.Errorf("file:\n%s", read(t, path))
	}
}
