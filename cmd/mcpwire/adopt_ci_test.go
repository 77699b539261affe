package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAdoptCIExample runs the CI example of docs/adopt.md: the developer's command
// writes a repository's .mcp.json, .cursor/mcp.json and .vscode/mcp.json from the
// organisation layer in the repository; the job's command then passes on a fresh
// runner (no records, its own scratch write layer) and writes nothing into the
// checkout; once the organisation layer changes, it fails with the diff. The profile
// has deny filters: the job must not want Claude Code's uncommitted settings file.
//
// spec: B5
func TestAdoptCIExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/adopt.md")
	if err != nil {
		t.Fatal(err)
	}
	job := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindSubmatch(doc)
	dev := regexp.MustCompile("(?s)what a developer runs.*?```sh\n(.*?)```").FindSubmatch(doc)
	if job == nil || dev == nil {
		t.Fatal("docs/adopt.md has no CI job or developer command")
	}
	root := t.TempDir()
	repo, home, runner := filepath.Join(root, "repo"), filepath.Join(root, "home"), filepath.Join(root, "runner")
	for p, c := range map[string]string{
		"repo/.git/HEAD": "ref: refs/heads/main\n",
		"repo/org-layer/mcp-servers.json": `{"servers": {
			"docs": {"type": "http", "url": "https://docs.example.com/mcp", "bearerEnv": "DOCS_TOKEN"},
			"github": {"command": "github-mcp-server", "args": ["stdio"], "envFrom": {"GITHUB_PERSONAL_ACCESS_TOKEN": "GITHUB_TOKEN"}}}}`,
		"repo/org-layer/mcp-profiles.json": `{"profiles": {"team": {"servers": ["docs", "github"], "providerOverrides": {"*": {"toolDeny": ["github__delete_repo"]}}}}}`,
	} {
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	expand := func(s string) string {
		return strings.NewReplacer(`"`, "", "$PWD", repo, "$RUNNER_TEMP", runner, "$HOME", home).Replace(s)
	}
	run := func(line string, vars map[string]string) (int, string) {
		t.Helper()
		words := strings.Fields(line)
		for len(words) > 0 && words[0] != "mcpwire" {
			k, v, _ := strings.Cut(words[0], "=")
			vars[k] = expand(systemList(k, v))
			words = words[1:]
		}
		if len(words) == 0 {
			t.Fatalf("no mcpwire command in %q", line)
		}
		env, stdout, stderr := testEnv(t, vars)
		env.Home, env.Cwd = home, repo
		code := Main(words[1:], env)
		return code, stdout.String() + stderr.String()
	}
	devLine := strings.TrimSpace(string(dev[1]))
	if code, out := run(devLine, map[string]string{}); code != 0 {
		t.Fatalf("%s: exit %d\n%s", devLine, code, out)
	} else if n := strings.Count(out, "are not saved"); n != 1 {
		// the organisation's servers have no receipts in the write layer: said once,
		// not once per client
		t.Errorf("%s: the unsaved-records warning said %d times, want once\n%s", devLine, n, out)
	}
	for _, f := range []string{".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json"} {
		if _, err := os.Stat(filepath.Join(repo, f)); err != nil {
			t.Errorf("the developer's command did not write %s: %v", f, err)
		}
	}
	vars := map[string]string{}
	var check string
	for _, line := range strings.Split(string(job[1]), "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "export "); ok {
			k, val, _ := strings.Cut(v, "=")
			vars[k] = expand(systemList(k, val))
		}
		if strings.HasPrefix(line, "mcpwire ") {
			check = line
		}
	}
	if check == "" || vars["AIWG_CONFIG_LAYERS"] == "" {
		t.Fatalf("the job has no mcpwire command or layers: %q %v", check, vars)
	}
	snap := snapshotTree(t, repo)
	if code, out := run(check, vars); code != 0 {
		t.Fatalf("%s on files in sync: exit %d\n%s", check, code, out)
	} else if strings.Contains(out, "WARNING") {
		t.Errorf("%s warns though it writes nothing:\n%s", check, out)
	}
	if got := snapshotTree(t, repo); got != snap {
		t.Errorf("the job wrote into the checkout")
	}
	servers := filepath.Join(repo, "org-layer", "mcp-servers.json")
	b, _ := os.ReadFile(servers)
	if err := os.WriteFile(servers, []byte(strings.Replace(string(b), `["stdio"]`, `["stdio", "--read-only"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	snap = snapshotTree(t, repo)
	code, out := run(check, vars)
	if code != 1 || !strings.Contains(out, `+        "--read-only"`) || !strings.Contains(out, "not up to date") {
		t.Errorf("%s after the organisation layer changed: exit %d\n%s", check, code, out)
	}
	if got := snapshotTree(t, repo); got != snap || strings.Contains(got, "settings.local.json") {
		t.Errorf("the job wrote into the checkout: %s", got)
	}
}

// snapshotTree lists every file under dir with its content, for comparisons.
func snapshotTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		b.WriteString(p + "\n" + string(data) + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
