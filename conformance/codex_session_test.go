//go:build conformance && unix

package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCodexSession runs `mcpwire session --provider codex` with the real codex 0.169.0
// (spec X2, X3), in a HOME whose Codex home (~/.codex) holds a server of the person's
// own and a login:
//
//   - `codex mcp list --json` in the session lists exactly the profile's servers:
//     CODEX_HOME alone makes codex read the runtime home's config.toml, not
//     ~/.codex/config.toml, though HOME is unchanged;
//   - `codex login status` in the session says the person is logged in: the runtime
//     home's auth.json is a link to ~/.codex/auth.json, made (and said on stderr) once;
//   - a runtime home with an auth.json of its own (a role with a separate account)
//     keeps it, and codex logs in with it.
//
// The login is an auth.json holding only OPENAI_API_KEY (a fake key): codex 0.169.0
// accepts that offline and prints "API key configured - <masked key>" (its
// AuthDotJson: auth_mode, OPENAI_API_KEY, tokens, last_refresh; only the key is needed).
//
// spec: X1 X2 X3 Q3
func TestCodexSession(t *testing.T) {
	t.Parallel()
	s := newScenario(t, "codex", "codex", "user")
	s.define()
	global := filepath.Join(s.home, ".codex")
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(global, "config.toml"), "[mcp_servers.mine]\ncommand = \"my-own-mcp\"\n")
	write(filepath.Join(global, "auth.json"), `{"OPENAI_API_KEY": "sk-conformance-person-12345"}`+"\n")
	// the role "role" has an account of its own
	s.mcpwire("profile", "add", "role", "--servers", "everything")
	write(filepath.Join(global, "roles-runtime", "role", "auth.json"), `{"OPENAI_API_KEY": "sk-conformance-role-67890"}`+"\n")

	c := &checker{}
	session := func(profile string, args ...string) result {
		return s.mcpwire(append([]string{"session", "--provider", "codex", "--profile", profile, "--"}, args...)...)
	}

	r := session("conf", "mcp", "list", "--json")
	var listed []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	var names []string
	for _, l := range listed {
		names = append(names, l.Name)
	}
	slices.Sort(names)
	c.equal("servers in the session", strings.Join(names, ","), "everything,notes,tickets,wd")
	link := filepath.Join(global, "roles-runtime", "conf", "auth.json")
	c.equal("said once: the login link", strings.Count(r.stderr, "linked "+link+" to your login"), 1)
	target, err := os.Readlink(link)
	c.equal("auth.json link", target, filepath.Join(global, "auth.json"))
	c.equal("auth.json link error", err == nil, true)

	r = session("conf", "login", "status")
	out := r.output()
	c.equal("logged in with the person's key", strings.Contains(out, "API key configured") && strings.Contains(out, "***12345"), true)
	c.equal("not logged out", strings.Contains(out, "Not logged in"), false)
	c.equal("said only once", strings.Contains(r.stderr, "to your login"), false)

	r = session("role", "login", "status")
	out = r.output()
	c.equal("a role keeps its own login", strings.Contains(out, "***67890") && !strings.Contains(out, "***12345"), true)
	if fi, err := os.Lstat(filepath.Join(global, "roles-runtime", "role", "auth.json")); err != nil || !fi.Mode().IsRegular() {
		c.problems = append(c.problems, "the role's own auth.json was replaced")
	}
	if len(c.problems) > 0 {
		t.Errorf("codex session:\n%s\nlast command: %s\n%s\n%s", strings.Join(c.problems, "\n"), r.cmd, r.stdout, r.stderr)
	}
}
