package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/registry/manifest/mcpb/mcpbtest"
)

// A bundle added with server add --from and the process killed after each step that
// changes the disk (MCPWIRE_TEST_CRASH_AFTER, testhook.go): the same command run again
// succeeds, and leaves exactly what an uninterrupted run leaves — the bundle's
// directory and record, the registry's server — and nothing else in the store: an
// interrupted unpack leaves nothing a later run trips on.
//
// spec: M3
func TestCrashDuringBundleUnpack(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the bundle holds a link")
	}
	entries := []mcpbtest.Entry{
		{Name: "manifest.json", Data: mcpbtest.Manifest("hello", "1.0.0", `{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node","args":["${__dirname}/server/index.js"]}}`)},
		{Name: "server/index.js", Data: "console.log(1)"},
		{Name: "server/lib/a.js", Data: "a"},
		{Name: "server/lib/b.js", Data: "b"},
		{Name: "bin/tool", Data: "#!/bin/sh\n", Mode: 0o755},
		{Name: "node_modules/.bin/tool", Data: "../../bin/tool", Mode: os.ModeSymlink | 0o777},
	}
	bundle := mcpbtest.Build(entries...)
	root := filepath.Join(t.TempDir(), "w")
	args := []string{"server", "add", "hello", "--from", filepath.Join(root, "hello.mcpb")}
	fresh := func() {
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "home"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "hello.mcpb"), bundle, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fresh()
	if r := runIn(t, root, root, args); r.err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", r.err, r.stderr)
	}
	want := bundleWorld(t, root)
	kills := 0
	for n := 1; ; n++ {
		fresh()
		r := runIn(t, root, root, args, fmt.Sprintf("%s=%d", crashAfterEnv, n))
		if !r.killed() {
			if r.err != nil {
				t.Fatalf("step %d: %v\n%s", n, r.err, r.stderr)
			}
			break // the run ended before step n
		}
		kills++
		again := runIn(t, root, root, args)
		if again.err != nil && !strings.Contains(again.stderr, "already exists") {
			t.Fatalf("killed after step %d, the run again fails: %v\n%s", n, again.err, again.stderr)
		}
		for _, d := range fixtures.DiffTree(want, bundleWorld(t, root)) {
			t.Errorf("killed after step %d (%s), then run again: %s", n, strings.TrimSpace(r.stderr), d)
		}
	}
	if kills < 10 {
		t.Fatalf("only %d steps: the hook did not see the unpack", kills)
	}
	t.Logf("add: %d kills, each converged", kills)

	// server remove killed at each step: the next server remove (or, the server gone,
	// any bundle command) leaves an empty store
	kills = 0
	remove := []string{"server", "remove", "hello"}
	for n := 1; ; n++ {
		fresh()
		if r := runIn(t, root, root, args); r.err != nil {
			t.Fatal(r.stderr)
		}
		r := runIn(t, root, root, remove, fmt.Sprintf("%s=%d", crashAfterEnv, n))
		if !r.killed() {
			if r.err != nil {
				t.Fatalf("step %d: %v\n%s", n, r.err, r.stderr)
			}
			break
		}
		kills++
		if again := runIn(t, root, root, remove); again.err != nil {
			// the registry write went through before the kill: the next bundle
			// command prunes
			if !strings.Contains(again.stderr, "no server") {
				t.Fatalf("killed after step %d, the run again fails: %v\n%s", n, again.err, again.stderr)
			}
			runIn(t, root, root, []string{"server", "add", "other", "--from", filepath.Join(root, "hello.mcpb")})
			runIn(t, root, root, []string{"server", "remove", "other"})
		}
		for _, d := range fixtures.DiffTree(map[string]string{}, bundleWorld(t, root)) {
			t.Errorf("remove killed after step %d (%s), then run again: %s", n, strings.TrimSpace(r.stderr), d)
		}
	}
	if kills < 3 {
		t.Fatalf("only %d steps in server remove", kills)
	}
	t.Logf("remove: %d kills, each converged", kills)
}

// bundleWorld is what the store holds (lock files aside) and the registry's server
// without its timestamps.
func bundleWorld(t *testing.T, root string) map[string]string {
	t.Helper()
	home := filepath.Join(root, "home")
	store, err := fixtures.TreeState(filepath.Join(home, ".aiwg", "mcp-bundles"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for p, v := range store {
		if !strings.HasSuffix(p, ".mcpwire.lock") {
			out["store/"+p] = v
		}
	}
	b, err := os.ReadFile(filepath.Join(home, ".aiwg", "mcp-servers.json"))
	if err == nil {
		var reg struct {
			Servers map[string]map[string]json.RawMessage `json:"servers"`
		}
		if err := json.Unmarshal(b, &reg); err != nil {
			t.Fatalf("the registry does not parse: %v", err)
		}
		for name, s := range reg.Servers {
			delete(s, "addedAt")
			delete(s, "updatedAt")
			j, _ := json.Marshal(s)
			out["server/"+name] = string(j)
		}
	}
	return out
}
