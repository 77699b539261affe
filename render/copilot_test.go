package render_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render/write"
)

// TestCopilotProjectStrict: GitHub Copilot CLI ignores a whole project file that holds
// comments or trailing commas, so mcpwire refuses to write one, naming the first such
// line (and writes nothing)
// instead of adding servers Copilot would never load; its user file is JSONC, which
// Copilot reads, and a new one is written 0600.
//
// spec: V9 W2 W4
func TestCopilotProjectStrict(t *testing.T) {
	w := newWorld(t)
	p := w.provider("copilot-cli")
	project := w.dest(p, providers.Project)
	// the refusal names the line, as Qwen Code's and Kilo's do
	for bad, line := range map[string]string{"{\n  // mine\n  \"mcpServers\": {}\n}\n": ": line 2 holds a comment,",
		"{\n  \"mcpServers\": {\"a\": {\"command\": \"x\"},\n  },\n  \"x\": 1\n}\n": ": line 2 has a trailing comma,",
		"{\n  \"mcpServers\": {},\n  \"x\": [1,\n  /* c */ ]\n}\n":                  ": line 3 has a trailing comma,"} {
		w.place(project, []byte(bad))
		_, err := write.Inject(fsys.NewOS(), w.request("copilot-cli", providers.Project, "", "fetch"))
		if err == nil || !strings.Contains(err.Error(), project+line) {
			t.Fatalf("inject into %q: %v; want %q", bad, err, project+line)
		}
		if got := read(t, project); string(got) != bad {
			t.Errorf("the refused file changed:\n%s", got)
		}
	}
	user := w.dest(p, providers.User)
	commented := "{\n  // mine\n  \"mcpServers\": {}\n}\n"
	w.place(user, []byte(commented))
	if _, err := write.Inject(fsys.NewOS(), w.request("copilot-cli", "", "", "fetch")); err != nil {
		t.Fatalf("the user file takes comments: %v", err)
	}
	if got := read(t, user); !strings.Contains(string(got), "// mine") || !strings.Contains(string(got), `"fetch"`) {
		t.Errorf("user file:\n%s", got)
	}
	if err := os.Remove(user); err != nil {
		t.Fatal(err)
	}
	if _, err := write.Inject(fsys.NewOS(), w.request("copilot-cli", "", "", "fetch")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(user); err != nil || fi.Mode().Perm() != fsys.EffectiveMode(0o600) {
		t.Errorf("new file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
}

// TestCopilotGithubFile: Copilot reads .github/mcp.json only when no .mcp.json exists,
// so mcpwire writes that file when it is the only one, and .mcp.json otherwise.
//
// spec: V1 V10
func TestCopilotGithubFile(t *testing.T) {
	w := newWorld(t)
	gh := filepath.Join(w.project, ".github", "mcp.json")
	w.place(gh, []byte("{\n  \"mcpServers\": {}\n}\n"))
	res, err := write.Inject(fsys.NewOS(), w.request("copilot-cli", providers.Project, "", "fetch"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Destination != gh || len(res.Readers) != 0 {
		t.Errorf("destination %s, readers %v; want %s, none", res.Destination, res.Readers, gh)
	}
	mcp := filepath.Join(w.project, ".mcp.json")
	w.place(mcp, []byte("{}\n"))
	res, err = write.Inject(fsys.NewOS(), w.request("copilot-cli", providers.Project, "", "fetch"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Destination != mcp || strings.Join(res.Readers, ", ") != "Claude Code, VS Code, Grok Build, Qwen Code, Qoder CLI, Kimi Code, Visual Studio" {
		t.Errorf("destination %s, readers %v", res.Destination, res.Readers)
	}
}
