package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// spec: §0 L2 L3 U3 U4 P11 V4 — the README's quick start, run in order in a scratch
// HOME: the setup line makes the scratch project (a git work tree under HOME, not the
// clone), each mcpwire command succeeds there, the project's .mcp.json gets the
// command line after --, the plain value and the bearer reference, and the last line
// (the organisation example of the clone layered under the overlay the first steps
// filled) really shows examples/org's dev profile (docs, tracker, github): the
// personal example must not shadow it.
func TestReadmeQuickStartInOrder(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile("(?s)## Quick start\n\n.*?```sh\n(.*?)```").FindSubmatch(readme)
	if section == nil {
		t.Fatal("README.md has no quick start block")
	}
	clone, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cwd := ""
	var last string
	n := 0
	for _, line := range strings.Split(string(section[1]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !strings.HasPrefix(line, "mcpwire ") && !strings.HasPrefix(line, "AIWG_") {
			cwd = shellSetup(t, line, home, cwd)
			continue
		}
		if cwd == "" {
			t.Fatalf("%q runs before the scratch project is made", line)
		}
		vars := map[string]string{}
		words := strings.Fields(line)
		for len(words) > 0 && strings.Contains(words[0], "=") && words[0] != "mcpwire" {
			k, v, _ := strings.Cut(words[0], "=")
			v = systemList(k, v)
			v = strings.ReplaceAll(v, "$HOME/src/mcpwire", clone) // where the Install section clones it
			v = strings.ReplaceAll(v, "$HOME", home)
			vars[k] = v
			words = words[1:]
		}
		if len(words) == 0 || words[0] != "mcpwire" {
			t.Fatalf("not an mcpwire command: %q", line)
		}
		env, stdout, stderr := testEnv(t, vars)
		env.Home, env.Cwd = home, cwd
		if code := Main(words[1:], env); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, stderr)
		}
		last = stdout.String()
		n++
	}
	if n < 7 {
		t.Fatalf("only %d commands in the quick start", n)
	}
	checkQuickStartProject(t, filepath.Join(cwd, ".mcp.json"))
	for _, s := range []string{"[mcp_servers.docs]", "[mcp_servers.tracker]", "[mcp_servers.github]"} {
		if !strings.Contains(last, s) {
			t.Errorf("the organisation example does not show %s: the personal layer shadows examples/org:\n%s", s, last)
		}
	}
}

// systemList spells the value of a POSIX shell line's variable k for this system: the
// directories of AIWG_CONFIG_LAYERS are separated by ":" in the docs' lines and by ";"
// on Windows (L2), where such a line is typed in Git Bash, PowerShell or cmd.
func systemList(k, v string) string {
	if k != "AIWG_CONFIG_LAYERS" {
		return v
	}
	return strings.ReplaceAll(v, ":", string(os.PathListSeparator))
}

// shellSetup runs a quick-start line that is not mcpwire's: "mkdir -p D && cd D &&
// git init", with ~ as the test's HOME. It returns the working directory after it.
func shellSetup(t *testing.T, line, home, cwd string) string {
	t.Helper()
	for _, part := range strings.Split(line, "&&") {
		words := strings.Fields(part)
		arg := func(i int) string {
			if i >= len(words) {
				t.Fatalf("%q: missing argument", part)
			}
			return strings.Replace(words[i], "~", home, 1)
		}
		switch {
		case len(words) == 3 && words[0] == "mkdir" && words[1] == "-p":
			if err := os.MkdirAll(arg(2), 0o755); err != nil {
				t.Fatal(err)
			}
		case len(words) == 2 && words[0] == "cd":
			cwd = arg(1)
		case len(words) == 2 && words[0] == "git" && words[1] == "init":
			if err := os.MkdirAll(filepath.Join(cwd, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("the quick start runs %q: only mkdir -p, cd and git init are understood here", part)
		}
	}
	if !strings.HasPrefix(cwd, home) {
		t.Fatalf("the quick start runs in %s, not a scratch directory under HOME", cwd)
	}
	return cwd
}

// checkQuickStartProject checks what the quick start wrote into the project's
// .mcp.json: the command line after --, the plain value, the bearer reference.
func checkQuickStartProject(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the quick start wrote no %s: %v", path, err)
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
			Env     map[string]string
			Headers map[string]string
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	files, memory, tickets := doc.MCPServers["files"], doc.MCPServers["memory"], doc.MCPServers["tickets"]
	if files.Command != "npx" || strings.Join(files.Args, " ") != "-y @modelcontextprotocol/server-filesystem ." {
		t.Errorf("files: %+v", files)
	}
	if memory.Env["MEMORY_FILE_PATH"] == "" {
		t.Errorf("memory: the --env-plain value is not in the project file: %+v", memory)
	}
	if tickets.Headers["Authorization"] != "Bearer ${TICKETS_TOKEN}" {
		t.Errorf("tickets: Authorization %q, want the bearer reference", tickets.Headers["Authorization"])
	}
}

// spec: Q1 — the Install section says how to get the source, where go install puts
// the binary and that it must be on PATH, and the go build alternative.
func TestReadmeInstall(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	install := string(regexp.MustCompile("(?s)## Install\n(.*?)\n## ").FindSubmatch(readme)[1])
	for _, s := range []string{"git clone <repository URL> ~/src/mcpwire", "go install ./cmd/mcpwire", "$(go env GOPATH)/bin", "PATH", "go build -o mcpwire ./cmd/mcpwire"} {
		if !strings.Contains(install, s) {
			t.Errorf("the Install section lacks %q", s)
		}
	}
}
