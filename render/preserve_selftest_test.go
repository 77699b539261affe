package render_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/rogpeppe/go-internal/txtar"
)

// recorder is a reporter that records failures instead of failing the test.
type recorder struct{ msgs []string }

type fatal struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(fatal{})
}

// failures runs a check and returns what it reported.
func failures(check func(reporter)) (msgs []string) {
	r := &recorder{}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(fatal); !ok {
				panic(v)
			}
		}
		msgs = r.msgs
	}()
	check(r)
	return r.msgs
}

// mutate replaces the only occurrence of old in s.
func mutate(t *testing.T, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(s, old))
	}
	return strings.Replace(s, old, new, 1)
}

// TestPreserveChecksCatchChanges keeps the W1 checks of TestGoldenInject honest: they
// accept each golden against its fixture, and they fail when one byte outside
// mcpwire's entries changes (a comment, spacing, key order, a trailing comma, an
// unrelated server, a blank line), or when the TOML has a duplicate key.
//
// spec: W1
func TestPreserveChecksCatchChanges(t *testing.T) {
	goldenFile := func(name string) string {
		ar, err := txtar.ParseFile(filepath.Join("testdata", "golden", filepath.FromSlash(name)+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "file" {
				return string(f.Data)
			}
		}
		t.Fatalf("%s: no file in its golden", name)
		return ""
	}

	jsonCases := []struct {
		fixture  string
		affected [][]string
		mutate   [][2]string // old, new
	}{
		{
			fixture:  "gemini-cli/project.dev.settings.json",
			affected: [][]string{{"mcpServers", "notes"}, {"mcpServers", "tickets"}, {"mcpServers", "github"}},
			mutate: [][2]string{
				{"// servers allowed to start", "// servers allowed to run"},
				{`"theme": "GitHub"`, `"theme":  "GitHub"`},
				{"\"vimMode\": true,\n    \"preferredEditor\": \"code\"\n", "\"preferredEditor\": \"code\",\n    \"vimMode\": true\n"},
				{`"trust": false`, `"trust": true`},
				{`{"enabled": false}`, `{ "enabled": false }`},
			},
		},
		{
			fixture: "opencode/project.dev.opencode.jsonc",
			affected: [][]string{{"mcp", "notes"}, {"mcp", "tickets"}, {"mcp", "github"},
				{"tools", "github_*"}, {"tools", "notes_purge_*"}, {"tools", "tickets_delete_ticket"}, {"tools", "github_get_file_contents"}, {"tools", "github_search_*"}},
			mutate: [][2]string{
				{`"options": { "timeout": 600000 },`, `"options": { "timeout": 600000 }`},
				{`// "old-local"`, `// "old_local"`},
				{"\"context7_*\": false,   //", "\"context7_*\": false,  //"},
				{"    \"bash\": true,\n", ""},
			},
		},
	}
	for _, c := range jsonCases {
		orig := fixtures.File(c.fixture)
		got := goldenFile(c.fixture)
		if msgs := failures(func(r reporter) { checkJSONPreserved(r, c.fixture, orig, []byte(got), c.affected) }); len(msgs) > 0 {
			t.Fatalf("%s: the golden itself fails: %v", c.fixture, msgs)
		}
		for _, m := range c.mutate {
			bad := mutate(t, got, m[0], m[1])
			if msgs := failures(func(r reporter) { checkJSONPreserved(r, c.fixture, orig, []byte(bad), c.affected) }); len(msgs) == 0 {
				t.Errorf("%s: changing %q to %q outside mcpwire's entries went unnoticed", c.fixture, m[0], m[1])
			}
		}
	}

	tomlCases := []struct {
		fixture string
		names   []string
		mutate  [][2]string
	}{
		{
			fixture: "codex/user.dev.config.toml",
			names:   []string{"notes", "tickets", "github"},
			mutate: [][2]string{
				{"# ring the bell when a turn ends", "# ring the bell when a turn ended"},
				{"model = \"gpt-5\"\nmodel_reasoning_effort = \"high\"\n", "model_reasoning_effort = \"high\"\nmodel = \"gpt-5\"\n"},
				{"network_access = false\n\n", "network_access = false\n"},
				{"startup_timeout_sec = 20", "startup_timeout_sec = 30"},
				{"sandbox_mode=\"workspace-write\"", "sandbox_mode = \"workspace-write\""},
				{"[mcp_servers.notes]\n", "[mcp_servers.notes]\ncommand = \"x\"\n"}, // duplicate key
			},
		},
		{
			fixture: "grok-build/project.dev.config.toml",
			names:   []string{"notes", "tickets", "github"},
			mutate: [][2]string{
				{"# Linear, added by hand from the docs example\n", ""},
				{"tool_timeout_sec = 600", "tool_timeout_sec = 6000"},
				{"  \"bash:make lint\",\n", "  \"bash:make lint\"\n"},
			},
		},
	}
	for _, c := range tomlCases {
		orig := fixtures.File(c.fixture)
		got := goldenFile(c.fixture)
		if msgs := failures(func(r reporter) { checkTOMLPreserved(r, c.fixture, orig, []byte(got), "mcp_servers", c.names) }); len(msgs) > 0 {
			t.Fatalf("%s: the golden itself fails: %v", c.fixture, msgs)
		}
		for _, m := range c.mutate {
			bad := mutate(t, got, m[0], m[1])
			if msgs := failures(func(r reporter) { checkTOMLPreserved(r, c.fixture, orig, []byte(bad), "mcp_servers", c.names) }); len(msgs) == 0 {
				t.Errorf("%s: changing %q to %q outside mcpwire's tables went unnoticed", c.fixture, m[0], m[1])
			}
		}
	}
}
