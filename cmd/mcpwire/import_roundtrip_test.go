package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/fixtures"
	"github.com/mcpwire/mcpwire/internal/fsys"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/render"
)

// TestImportRoundTrip: for every provider's fixture, a file as mcpwire and the person
// left it (the fixture with the fixture layer's profile injected) is imported with
// --adopt into a fresh layer; every entry mcpwire wrote is adopted, and injecting the
// adopted servers into the same file changes nothing but the ownership record. With
// --as-profile, injecting the profile (the clients' tool filters included) changes
// nothing either. A provider with a file but no fixture fails.
//
// spec: B1 B2 C6
func TestImportRoundTrip(t *testing.T) {
	tested := map[string]bool{}
	for _, fx := range fixtures.All() {
		if fx.Role != fixtures.Servers {
			continue
		}
		tested[fx.Provider] = true
		t.Run(fx.Name, func(t *testing.T) { importRoundTrip(t, fx) })
	}
	for _, p := range providers.All() {
		if !p.Manual() && !tested[p.Name] {
			t.Errorf("%s: no fixture to import from", p.Name)
		}
	}
}

// roundTripWorld is a home, a project and a way to run mcpwire there with a layer.
type roundTripWorld struct {
	t             *testing.T
	home, project string
}

func (w roundTripWorld) run(layer string, args ...string) string {
	w.t.Helper()
	env, stdout, stderr := testEnv(w.t, nil)
	env.Home, env.Cwd = w.home, w.project
	if code := Main(append([]string{"--config-dir", layer}, args...), env); code != 0 {
		w.t.Fatalf("mcpwire %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout.String()
}

func importRoundTrip(t *testing.T, fx fixtures.Fixture) {
	root := t.TempDir()
	w := roundTripWorld{t: t, home: filepath.Join(root, "home"), project: filepath.Join(root, "repo")}
	for _, d := range []string{w.home, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := providers.Get(fx.Provider)
	scope := providers.Scope(fx.Scope)
	penv := providers.PathEnv{GOOS: runtime.GOOS, Home: w.home, Project: w.project, Getenv: func(string) string { return "" }}
	dest, _, err := render.Destination(fsys.NewOS(), p, scope, penv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dest, fixtures.File(fx.Name), 0o600); err != nil {
		t.Fatal(err)
	}
	org := filepath.Join(root, "org")
	if err := fixtures.WriteLayer(org); err != nil {
		t.Fatal(err)
	}
	at := []string{"--provider", p.Name, "--scope", string(scope)}
	w.run(org, append([]string{"inject", "--profile", fx.Profile}, at...)...)
	before := readFile(t, dest)
	mine := recordedNames(t, org)

	fresh := filepath.Join(root, "fresh")
	var rep writeReport
	if err := json.Unmarshal([]byte(w.run(fresh, "import", "--from", p.Name, "--scope", string(scope), "--adopt", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	adopted := rep.Destinations[0].Adopted
	for _, n := range mine {
		if !slices.Contains(adopted, n) {
			t.Errorf("%s: mcpwire's entry %s was not adopted (foreign: %v)", dest, n, rep.Destinations[0].Foreign)
		}
	}
	w.run(fresh, append([]string{"inject", "--servers", strings.Join(adopted, ",")}, at...)...)
	if after := readFile(t, dest); after != before {
		t.Errorf("inject of the imported servers changed %s:\n--- before\n%s\n--- after\n%s", dest, before, after)
	}
	if got := recordedNames(t, fresh); !slices.Equal(got, slices.Sorted(slices.Values(adopted))) {
		t.Errorf("ownership record holds %v, want the adopted %v", got, adopted)
	}

	profiled := filepath.Join(root, "profiled")
	w.run(profiled, "import", "--from", p.Name, "--scope", string(scope), "--servers", strings.Join(mine, ","), "--as-profile", "imp", "--adopt")
	w.run(profiled, append([]string{"inject", "--profile", "imp"}, at...)...)
	if after := readFile(t, dest); after != before {
		t.Errorf("inject of the imported profile changed %s:\n--- before\n%s\n--- after\n%s", dest, before, after)
	}
}

// recordedNames are the server entries of the one ownership record of a layer.
func recordedNames(t *testing.T, layer string) []string {
	t.Helper()
	recs, err := render.RecordedDestinations(fsys.NewOS(), layer)
	if err != nil || len(recs) != 1 {
		t.Fatalf("ownership records of %s: %v, %v", layer, recs, err)
	}
	return recs[0].Servers
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
