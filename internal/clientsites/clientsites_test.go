package clientsites

import (
	"path"
	"strings"
	"testing"
)

// shared are the files of render/dialect that are not one shape's dialect: they must
// not branch on a client either.
var shared = map[string]bool{"dialect.go": true, "values.go": true, "filters.go": true, "launch.go": true}

// dataDirs hold data about the clients, not code that works on them: the test
// fixtures and the benchmark generator may name clients.
var dataDirs = []string{"fixtures/", "internal/benchgen/"}

func inData(file string) bool {
	for _, d := range dataDirs {
		if strings.HasPrefix(file, d) {
			return true
		}
	}
	return false
}

// inDialect reports whether a file is one shape's dialect (render/dialect/<shape>.go),
// where per-client knowledge belongs.
func inDialect(file string) bool {
	dir, name := path.Split(file)
	return dir == "render/dialect/" && !shared[name]
}

// TestNoClientBranchesOutsideDialects: per-client knowledge lives in one dialect file
// per shape. Every comparison or switch on a provider enum or a client's name, and
// every client name spelled as a string, elsewhere (outside the providers table and
// tests) is a place that a new client would have to edit; there are none. go test -v
// lists every site, the dialects' included, with the count (62 branches in 14 files
// before the dialects).
func TestNoClientBranchesOutsideDialects(t *testing.T) {
	sites, err := Count("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]int{}
	outside := 0
	for _, s := range sites {
		files[s.File]++
		if inDialect(s.File) || inData(s.File) && strings.HasPrefix(s.What, "name ") {
			t.Log(s)
			continue
		}
		outside++
		t.Errorf("%s: a branch on a client, or its name, outside its dialect file", s)
	}
	t.Logf("%d sites in %d files; %d outside the dialect files", len(sites), len(files), outside)
}

// TestCountSeesBranches: the counter finds what it counts (a switch, a comparison on
// an enum constant and one on a client name) and nothing else.
func TestCountSeesBranches(t *testing.T) {
	voc := &vocabulary{consts: map[string]bool{"ShapeCodex": true}, names: map[string]bool{"codex": true}}
	src := `package x
func f(p, q any, s string) {
	switch p { case providers.ShapeCodex: }
	_ = p == providers.ShapeCodex
	_ = s != "codex"
	_ = s == "other"
	_ = p == providers.Unrelated
	switch s { case "codex": }
	use("codex")
}`
	sites, err := fileSitesSource(src, "x.go", voc)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 5 {
		t.Errorf("got %v, want 5 sites", sites)
	}
}
