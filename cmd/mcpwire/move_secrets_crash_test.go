package main

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/internal/secretstore"
	"github.com/mcpwire/mcpwire/internal/secretstore/storetest"
)

// moveCrashWorld is one command that moves literals into a store, and its world.
type moveCrashWorld struct {
	name string
	args []string
	// files are the files of the world before the run, by path under root
	files map[string]string
	// source is the file that keeps the literals by design (the client file an import
	// reads, which it never changes), "" when none does.
	source string
}

// The two literals every world moves, and where they go.
var (
	moveCrashLiterals = map[string]string{
		"GITHUB_TOKEN": "ghp_S5CRASHabcdefghijklmnopqrstuvwxyz012345",
		"API_KEY":      "sk-S5CRASH-0123456789abcdefghijklmnopqrstu",
	}
	moveCrashServer = `{"command": "gh-mcp", "env": {"GITHUB_TOKEN": "ghp_S5CRASHabcdefghijklmnopqrstuvwxyz012345", "API_KEY": "sk-S5CRASH-0123456789abcdefghijklmnopqrstu"}}`
)

// moveCrashStore is where the crash tests move literals: the real pass on Unix, the
// real Credential Manager on Windows (pass is a Unix program), in a service of the
// test's own. It returns the destination and the stores' environment.
func moveCrashStore(t *testing.T) (dest secretstore.Destination, vars []string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return secretstore.Destination{Store: secretref.Keyring, Where: fmt.Sprintf("mcpwire-crash-%d", os.Getpid())}, nil
	}
	return secretstore.Destination{Store: secretref.Pass, Where: "mcpwire"}, storetest.Pass(t, t.TempDir())
}

// spec: S5 K10 — import --secrets-to and server update --move-secrets-to, killed right
// after every step that changes the disk or the store (MCPWIRE_TEST_CRASH_AFTER counts
// the store's writes too): at every kill each literal is still in the layer file or
// the store holds it (the layer never loses it first); the same command run again
// ends as an uninterrupted run does — the references in the layer, the values in the
// store, and no literal in any file under the test's root (layer files, temporary
// files, lock files) but the client file an import reads.
func TestMoveSecretsCrash(t *testing.T) {
	dest, vars := moveCrashStore(t)
	to := string(dest.Store) + ":" + dest.Where
	layer := filepath.Join("home", ".aiwg", "mcp-servers.json")
	worlds := []moveCrashWorld{
		{"server update", []string{"server", "update", "gh", "--move-secrets-to", to},
			map[string]string{layer: `{"apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "servers": {"gh": ` + moveCrashServer + `}}`}, ""},
		{"import", []string{"import", "--from", "claude-code", "--scope", "user", "--secrets-to", to},
			map[string]string{filepath.Join("home", ".claude.json"): `{"numStartups": 3, "mcpServers": {"gh": ` + moveCrashServer + `}}`},
			filepath.Join("home", ".claude.json")},
	}
	for _, w := range worlds {
		t.Run(w.name, func(t *testing.T) { moveCrash(t, w, dest, vars) })
	}
}

func moveCrash(t *testing.T, w moveCrashWorld, dest secretstore.Destination, vars []string) {
	root := filepath.Join(t.TempDir(), "w")
	st := secretstore.Env{Environ: append(os.Environ(), vars...)}
	refs := map[string]string{}
	for k := range moveCrashLiterals {
		refs[k] = dest.Ref("gh", k)
	}
	fresh := func() {
		t.Helper()
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		for p, data := range w.files {
			p = filepath.Join(root, p)
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, ref := range refs {
			r, _ := secretref.Parse(ref)
			st.For(r.Store).Delete(context.Background(), r) // absent already: an error, ignored
		}
	}
	t.Cleanup(fresh)
	stored := func(k string) bool {
		v, err := st.Resolve(context.Background(), refs[k])
		return err == nil && v == moveCrashLiterals[k]
	}
	// literalsIn lists the files under root that hold a literal, but the source
	layerFile := filepath.Join(root, "home", ".aiwg", "mcp-servers.json")
	literalsIn := func() (files []string, inLayer map[string]bool) {
		inLayer = map[string]bool{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, _ := os.ReadFile(p)
			for k, lit := range moveCrashLiterals {
				if !strings.Contains(string(b), lit) {
					continue
				}
				if p == layerFile {
					inLayer[k] = true
				}
				if rel, _ := filepath.Rel(root, p); rel != w.source && !slices.Contains(files, rel) {
					files = append(files, rel)
				}
			}
			return nil
		})
		return files, inLayer
	}
	fresh()
	if r := runIn(t, root, root, w.args, vars...); r.err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", r.err, r.stderr)
	}
	want := timeless(t, root)
	checkMoved := func(label string) {
		t.Helper()
		files, _ := literalsIn()
		b, _ := os.ReadFile(layerFile)
		for k := range moveCrashLiterals {
			if !stored(k) {
				t.Errorf("%s: the store does not hold %s", label, k)
			}
			if !strings.Contains(string(b), `"`+k+`": "`+refs[k]+`"`) {
				t.Errorf("%s: the layer has no reference for %s:\n%s", label, k, b)
			}
		}
		if len(files) > 0 {
			t.Errorf("%s: a literal is left in %s", label, strings.Join(files, ", "))
		}
	}
	checkMoved("uninterrupted run")

	kills := 0
	var stages []string
	for n := 1; ; n++ {
		fresh()
		r := runIn(t, root, root, w.args, append(slices.Clone(vars), fmt.Sprintf("%s=%d", crashAfterEnv, n))...)
		if !r.killed() {
			if r.err != nil {
				t.Fatalf("step %d: %v\n%s", n, r.err, r.stderr)
			}
			break
		}
		kills++
		step := strings.TrimSpace(r.stderr[strings.LastIndex(r.stderr, "killed after step"):])
		stages = append(stages, strings.Fields(step)[4])
		_, inLayer := literalsIn()
		for k := range moveCrashLiterals {
			if !inLayer[k] && w.source == "" && !stored(k) {
				t.Errorf("%s: the layer lost %s and the store does not hold it", step, k)
			}
		}
		again := runIn(t, root, root, w.args, vars...)
		if again.err != nil && !strings.Contains(again.stderr, "nothing to move") {
			t.Fatalf("%s, the run again fails: %v\n%s", step, again.err, again.stderr)
		}
		checkMoved(step + ", then run again")
		if got := timeless(t, root); !maps.Equal(got, want) {
			t.Errorf("%s, then run again: not what an uninterrupted run leaves:\n%v\nwant\n%v", step, got, want)
		}
		_, leftovers := worldState(t, root)
		for p, size := range leftovers {
			// an empty lock file beside a file the run again had nothing to write
			// (docs/writes.md, "Crashes"); no other file
			if !strings.HasSuffix(p, fsys.LockSuffix) || size != 0 {
				t.Errorf("%s, then run again: left %s (%d bytes)", step, p, size)
			}
		}
	}
	for _, s := range []string{"store", "temp", "rename"} {
		if !slices.Contains(stages, s) {
			t.Errorf("no kill after a %q step (%v): the hook did not see every kind of step", s, stages)
		}
	}
	t.Logf("%d kills (%s), each converged", kills, strings.Join(stages, " "))
}

// timeless maps every file under root but mcpwire's temporary and lock files to its
// content, the registry's timestamps (addedAt, updatedAt…) blanked: a run again writes
// its own time.
func timeless(t *testing.T, root string) map[string]string {
	t.Helper()
	files, _ := worldState(t, root)
	registryTime := regexp.MustCompile(`"(addedAt|createdAt|updatedAt)": "[^"]*"`)
	out := map[string]string{}
	for p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = registryTime.ReplaceAllString(string(b), `"$1": ""`)
	}
	return out
}
