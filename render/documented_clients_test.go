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

// serversOf decodes a strict-JSON client file's servers map.
func serversOf(t *testing.T, path, key string) map[string]map[string]any {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(read(t, path), &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out map[string]map[string]any
	if err := json.Unmarshal(doc[key], &out); err != nil {
		t.Fatalf("%s %s: %v", path, key, err)
	}
	return out
}

// shellWord is a word of a POSIX shell line as the launch lines spell it: as it is, or
// in single quotes when it holds a backslash (a Windows path; the temporary paths of
// the tests hold nothing else a shell would take).
func shellWord(s string) string {
	if strings.Contains(s, `\`) {
		return "'" + s + "'"
	}
	return s
}

// launchWith is the launch line template with OUT replaced by the path out, each word
// (or variable's value) holding it spelled by shellWord.
func launchWith(template, out string) string {
	words := strings.Fields(template)
	for i, w := range words {
		if !strings.Contains(w, "OUT") {
			continue
		}
		name, value, isVar := strings.Cut(w, "=")
		if isVar {
			words[i] = name + "=" + shellWord(strings.ReplaceAll(value, "OUT", out))
		} else {
			words[i] = shellWord(strings.ReplaceAll(w, "OUT", out))
		}
	}
	return strings.Join(words, " ")
}

// TestClineEphemeral: Cline's CLI reads its MCP settings from the file
// CLINE_MCP_SETTINGS_PATH names, so a standalone file works: it is strict JSON (0600)
// in Cline's flat typed shape, and the launch line sets the variable.
//
// spec: C5 V9
func TestClineEphemeral(t *testing.T) {
	w := newWorld(t)
	out := filepath.Join(t.TempDir(), "run.json")
	res, err := write.Ephemeral(fsys.NewOS(), w.request("cline", "", "local"), out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.LaunchLine(), launchWith("CLINE_MCP_SETTINGS_PATH=OUT cline", out); got != want {
		t.Errorf("launch %q, want %q", got, want)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != fsys.EffectiveMode(0o600) {
		t.Fatalf("%s: %v", out, err)
	}
	servers := serversOf(t, out, "mcpServers")
	if servers["docs"]["type"] != "streamableHttp" || servers["fetch"]["type"] != "stdio" {
		t.Errorf("entries %v", servers)
	}
	if slices.Contains(write.SessionProviders(), w.provider("cline")) {
		t.Error("session starts Cline, which mcpwire has not seen run on a standalone file")
	}
}

// TestZooCodeFallsBackToRooFile: Zoo Code reads .roo/mcp.json only while
// .zoo/mcp.json is absent, so mcpwire writes the file Zoo Code reads: .zoo/mcp.json
// when it exists or neither does, .roo/mcp.json when only that one exists. Roo Code
// and Zoo Code write the same entry into a shared .roo/mcp.json, so injecting a server
// for both gives one entry, which either may uninject (V10).
//
// spec: V8 V10 C6
func TestZooCodeFallsBackToRooFile(t *testing.T) {
	w := newWorld(t)
	roo := filepath.Join(w.project, ".roo", "mcp.json")
	zoo := filepath.Join(w.project, ".zoo", "mcp.json")
	w.place(roo, []byte("{\n  \"mcpServers\": {}\n}\n"))
	res, err := write.Inject(fsys.NewOS(), w.request("roo-code", "", "", "fetch"))
	if err != nil || res.Destination != roo {
		t.Fatalf("roo-code: %v, %v", res, err)
	}
	before := read(t, roo)
	res, err = write.Inject(fsys.NewOS(), w.request("zoo-code", "", "", "fetch"))
	if err != nil || res.Destination != roo || slices.Contains(res.Changed, roo) {
		t.Fatalf("zoo-code into the legacy file: %+v, %v", res, err)
	}
	if got := read(t, roo); string(got) != string(before) {
		t.Errorf("the shared entry changed:\n%s", got)
	}
	ures, err := write.Uninject(fsys.NewOS(), w.request("zoo-code", "", "", "fetch"))
	if err != nil || !slices.Equal(ures.Removed, []string{"fetch"}) {
		t.Fatalf("zoo-code uninject of the entry Roo Code's inject wrote: %+v, %v", ures, err)
	}
	if _, err := os.Stat(zoo); !os.IsNotExist(err) {
		t.Errorf("%s was created", zoo)
	}

	w.place(zoo, []byte("{\n  \"mcpServers\": {}\n}\n"))
	res, err = write.Inject(fsys.NewOS(), w.request("zoo-code", "", "", "fetch"))
	if err != nil || res.Destination != zoo {
		t.Fatalf("zoo-code with both files: %+v, %v", res, err)
	}
}

// TestCrushAllowlistWithoutExactNames: Crush reads an empty enabled_tools as every
// tool, so a server whose toolAllow keeps no exact name is written switched off
// (disabled: true) with a warning, never open.
//
// spec: F3 F4
func TestCrushAllowlistWithoutExactNames(t *testing.T) {
	w := newWorld(t)
	r := w.request("crush", "", "", "github", "fetch")
	r.Filters = map[string]*registry.Filters{"crush": {ToolAllow: []string{"github__search_*", "fetch__fetch"}}}
	res, err := write.Inject(fsys.NewOS(), r)
	if err != nil {
		t.Fatal(err)
	}
	servers := serversOf(t, res.Destination, "mcp")
	if gh := servers["github"]; gh["disabled"] != true || gh["enabled_tools"] != nil {
		t.Errorf("github: %v, want disabled and no enabled_tools", gh)
	}
	if f := servers["fetch"]; f["disabled"] != nil || len(f["enabled_tools"].([]any)) != 1 {
		t.Errorf("fetch: %v, want enabled_tools [fetch]", f)
	}
	if !slices.ContainsFunc(w.warns, func(s string) bool {
		return strings.Contains(s, "github written with disabled: true") && strings.Contains(s, "empty enabled_tools as every tool")
	}) {
		t.Errorf("warnings %q", w.warns)
	}
}

// TestKimiCodeFilters: a whole-server deny switches a Kimi Code server off with
// enabled: false; exact names go to enabledTools and disabledTools; a bearer token is
// named by its variable, and an envFrom under the variable's own name needs no
// member (a stdio server inherits Kimi Code's environment).
//
// spec: F3 F4 V4
func TestKimiCodeFilters(t *testing.T) {
	w := newWorld(t)
	r := w.request("kimi-code", providers.Project, "", "github", "search")
	r.Filters = map[string]*registry.Filters{
		"*":         {ToolDeny: []string{"search__*"}},
		"kimi-code": {ToolAllow: []string{"github__get_me"}, ToolDeny: []string{"github__delete_file"}},
	}
	res, err := write.Inject(fsys.NewOS(), r)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(w.project, ".kimi-code", "mcp.json"); res.Destination != want {
		t.Errorf("destination %s, want %s", res.Destination, want)
	}
	servers := serversOf(t, res.Destination, "mcpServers")
	gh, search := servers["github"], servers["search"]
	if gh["env"] != nil || gh["enabledTools"].([]any)[0] != "get_me" || gh["disabledTools"].([]any)[0] != "delete_file" {
		t.Errorf("github: %v", gh)
	}
	if search["enabled"] != false || search["bearerTokenEnvVar"] != "SEARCH_TOKEN" || search["transport"] != "sse" || search["headers"] != nil {
		t.Errorf("search: %v", search)
	}
}

// TestLMStudioHome: LM Studio's mcp.json is in its home directory: the one
// ~/.lmstudio-home-pointer names, else ~/.cache/lm-studio when it exists, else
// ~/.lmstudio (as LM Studio's findLMStudioHome decides). A pointer that names no
// absolute directory is refused naming the pointer file.
//
// spec: V1 V8 W2
func TestLMStudioHome(t *testing.T) {
	w := newWorld(t)
	p := w.provider("lm-studio")
	if got := w.dest(p, providers.User); got != filepath.Join(w.home, ".lmstudio", "mcp.json") {
		t.Errorf("without pointer or legacy home: %s", got)
	}
	legacy := filepath.Join(w.home, ".cache", "lm-studio")
	if err := os.MkdirAll(legacy, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := w.dest(p, providers.User); got != filepath.Join(legacy, "mcp.json") {
		t.Errorf("with ~/.cache/lm-studio: %s", got)
	}
	custom := filepath.Join(t.TempDir(), "D", "lmstudio")
	pointer := filepath.Join(w.home, ".lmstudio-home-pointer")
	w.place(pointer, []byte(custom+"\n"))
	res, err := write.Inject(fsys.NewOS(), w.request("lm-studio", "", "", "fetch"))
	if err != nil || res.Destination != filepath.Join(custom, "mcp.json") {
		t.Fatalf("with a pointer: %+v, %v", res, err)
	}
	w.place(pointer, []byte("relative/dir"))
	if _, err := write.Inject(fsys.NewOS(), w.request("lm-studio", "", "", "fetch")); err == nil || !strings.Contains(err.Error(), pointer) {
		t.Errorf("a relative pointer: %v", err)
	}
}
