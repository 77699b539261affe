package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// spec: §0 L2 L3 — the README's quick start, run in order in a scratch HOME and
// project: each command succeeds, and the last line (the organisation example layered
// under the overlay the first steps filled) really shows examples/org's dev profile
// (docs, tracker, github): the personal example must not shadow it.
func TestReadmeQuickStartInOrder(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile("(?s)## Quick start\n\n```sh\n(.*?)```").FindSubmatch(readme)
	if section == nil {
		t.Fatal("README.md has no quick start block")
	}
	org, err := filepath.Abs("../../examples/org")
	if err != nil {
		t.Fatal(err)
	}
	home, project := t.TempDir(), t.TempDir()
	var last string
	n := 0
	for _, line := range strings.Split(string(section[1]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		vars := map[string]string{}
		words := strings.Fields(line)
		for len(words) > 0 && strings.Contains(words[0], "=") && words[0] != "mcpwire" {
			k, v, _ := strings.Cut(words[0], "=")
			v = strings.ReplaceAll(v, "$HOME", home)
			v = strings.ReplaceAll(v, "examples/org", org)
			vars[k] = v
			words = words[1:]
		}
		if len(words) == 0 || words[0] != "mcpwire" {
			t.Fatalf("not an mcpwire command: %q", line)
		}
		env, stdout, stderr := testEnv(t, vars)
		env.Home, env.Cwd = home, project
		if code := Main(words[1:], env); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, stderr)
		}
		last = stdout.String()
		n++
	}
	if n < 5 {
		t.Fatalf("only %d commands in the quick start", n)
	}
	for _, s := range []string{"[mcp_servers.docs]", "[mcp_servers.tracker]", "[mcp_servers.github]"} {
		if !strings.Contains(last, s) {
			t.Errorf("the organisation example does not show %s: the personal layer shadows examples/org:\n%s", s, last)
		}
	}
}
