package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/registry"
)

// corpusStats is the table docs/manifests.md shows for the registry's seed data.
type corpusStats struct {
	Entries   int
	Transport map[string]int
	Refused   map[string]int
	Invented  int
	Unpinned  int
}

// everyRuntime finds every runtime on PATH: the corpus run chooses by the manifests'
// order, not by this machine.
func everyRuntime(string) (string, error) { return "/usr/bin/x", nil }

// runCorpus maps every entry of a listing file and checks each server it makes:
// every argument comes from the manifest or is its runtime's own, none twice; the
// package is pinned; the server round-trips through the registry and back into a
// server.json (M4).
func runCorpus(t *testing.T, file string) corpusStats {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ParseListing(data)
	if err != nil {
		t.Fatal(err)
	}
	st := corpusStats{Entries: len(l.Entries), Transport: map[string]int{}, Refused: map[string]int{}}
	for i, e := range l.Entries {
		if e.Err != nil {
			st.Refused["fails the schema"]++
			continue
		}
		plan, err := Map(e.Doc, Options{LookPath: everyRuntime})
		if err != nil {
			r, ok := err.(*Refusal)
			if !ok {
				t.Fatalf("entry %d (%s): an error that is no refusal: %v", i, e.Doc.Name, err)
			}
			st.Refused[r.Reason]++
			continue
		}
		s := plan.Server
		st.Transport[s.Type]++
		if plan.Record.Package != nil {
			inv, unp := checkArgv(plan.Record.Package, s)
			for _, p := range inv {
				t.Errorf("entry %d (%s): argument %q is not the manifest's", i, e.Doc.Name, p)
			}
			if unp != "" {
				t.Errorf("entry %d (%s): %s", i, e.Doc.Name, unp)
			}
			st.Invented += len(inv)
			if unp != "" {
				st.Unpinned++
			}
		}
		checkRoundTrip(t, fmt.Sprintf("entry %d (%s)", i, e.Doc.Name), e.Doc, plan)
	}
	return st
}

// ownArgs are what mcpwire adds to a runtime's command line when the manifest's
// arguments do not hold them already.
var ownArgs = map[string][]string{NPM: {"-y"}, OCI: {"run", "-i", "--rm", "-e"}, NuGet: {"--yes", "--"}}

// checkArgv returns the arguments of s that come from nowhere in the manifest (or
// come twice where the manifest has them once), and why the package is not pinned.
func checkArgv(p *Package, s *registry.Server) (invented []string, unpinned string) {
	typ := normalType(p.RegistryType)
	var published []string // every text the manifest's arguments hold
	var patterns []*regexp.Regexp
	for _, a := range slices.Concat(p.RuntimeArguments, p.PackageArguments) {
		for _, v := range []string{a.Name, deref(a.Value), deref(a.Default)} {
			if v == "" {
				continue
			}
			published = append(published, v)
			if templateRE().MatchString(v) {
				patterns = append(patterns, regexp.MustCompile("^"+templateRE().ReplaceAllString(regexp.QuoteMeta(v), ".*")+"$"))
			}
		}
	}
	for _, e := range p.EnvironmentVariables {
		published = append(published, e.Name) // docker -e NAME
	}
	spec, err := pinnedSpec(typ, *p)
	if err != nil {
		return nil, "not pinned: " + err.Error()
	}
	count := map[string]int{}
	specs := 0
	for _, a := range s.Args {
		count[a]++
		switch {
		case a == spec || strings.HasSuffix(a, "="+spec):
			specs++
		case slices.Contains(ownArgs[typ], a):
			if n := countOf(published, a); count[a] > max(n, 1) {
				invented = append(invented, a+" (twice)")
			}
		case slices.Contains(published, a), slices.ContainsFunc(patterns, func(re *regexp.Regexp) bool { return re.MatchString(a) }):
		case strings.HasPrefix(a, "${") && strings.HasSuffix(a, "}"): // a secret argument's reference
		default:
			invented = append(invented, a)
		}
		if strings.HasSuffix(a, "@latest") || strings.HasSuffix(a, ":latest") || strings.HasSuffix(a, "==latest") {
			unpinned = "an unpinned argument " + a
		}
	}
	if specs != 1 && !slices.ContainsFunc(published, func(v string) bool { return v == spec || strings.HasSuffix(v, "="+spec) }) {
		unpinned = fmt.Sprintf("the pinned package %s appears %d times", spec, specs)
	}
	if prog, _ := runtimeFor(*p); s.Command != prog {
		invented = append(invented, "command "+s.Command)
	}
	return invented, unpinned
}

func countOf(list []string, v string) int {
	n := 0
	for _, x := range list {
		if x == v {
			n++
		}
	}
	return n
}

// checkRoundTrip stores the server as a layer file does, reads it back and describes
// it as a server.json (M4): the fields mcpwire reads come back as published. Then,
// without the record, from its fields alone, which map back to the same launch.
func checkRoundTrip(t *testing.T, what string, src *Document, plan *Plan) {
	t.Helper()
	b, err := json.Marshal(plan.Server)
	if err != nil {
		t.Fatal(err)
	}
	var stored registry.Server
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	out, warns, err := Export(&stored, "local")
	if err != nil || len(warns) > 0 {
		t.Errorf("%s: export: %v %v", what, err, warns)
		return
	}
	back, err := Parse(mustJSON(t, out))
	if err != nil {
		t.Errorf("%s: the exported server.json does not read back: %v", what, err)
		return
	}
	if src.Description == "" {
		src = ptr(*src)
		src.Description = stored.Name // a server.json needs one
	}
	want := understood(src, plan.Record)
	if got := understood(back, nil); got != want {
		t.Errorf("%s: round trip\n got %s\nwant %s", what, got, want)
	}
	// from the fields alone
	stored.Extra = nil
	out, _, err = Export(&stored, "local")
	if err != nil {
		if plan.Record.Package != nil && slices.Contains([]string{NPM, PyPI, OCI, NuGet}, normalType(plan.Record.Package.RegistryType)) {
			t.Errorf("%s: a package server is not described: %v", what, err)
		}
		return
	}
	derived, err := Parse(mustJSON(t, out))
	if err != nil {
		t.Errorf("%s: the described server.json does not read back: %v", what, err)
		return
	}
	again, err := Map(derived, Options{LookPath: everyRuntime, Name: stored.Name})
	if err != nil {
		t.Errorf("%s: the described server.json does not map: %v\n%s", what, err, mustJSON(t, out))
		return
	}
	if got, want := launch(again.Server), launch(plan.Server); got != want {
		t.Errorf("%s: described and mapped again\n got %s\nwant %s", what, got, want)
	}
}

// understood is what of a server.json mcpwire reads, for one package or remote (the
// one a record names, else the document's only one), as JSON.
func understood(d *Document, rec *Record) string {
	v := struct {
		Name, Title, Description, Version, WebsiteURL string
		Repository                                    *Repository
		Package                                       *Package
		Remote                                        *Transport
	}{Name: d.Name, Title: d.Title, Description: d.Description, Version: d.Version, WebsiteURL: d.WebsiteURL, Repository: d.Repository}
	switch {
	case rec != nil:
		v.Package, v.Remote = rec.Package, rec.Remote
	case len(d.Packages) == 1:
		v.Package = &d.Packages[0]
	case len(d.Remotes) == 1:
		v.Remote = &d.Remotes[0]
	}
	if v.Package != nil {
		p := *v.Package
		p.RegistryType = normalType(p.RegistryType)
		v.Package = &p
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// launch is what starts or reaches a server, for comparing two mappings.
func launch(s *registry.Server) string {
	return fmt.Sprintf("%s %s %q %s env%v from%v headers%v headerEnv%v bearer=%s", s.Type, s.Command, s.Args, s.URL,
		slices.Sorted(maps.Keys(s.Env)), s.EnvFrom, slices.Sorted(maps.Keys(s.Headers)), s.HeaderEnv, s.BearerEnv)
}

func ptr[T any](v T) *T { return &v }

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The registry's seed data (testdata/seed/README.md has its sources and licence),
// every entry: how many become a server of each transport, how many are refused and
// why, with no argument invented and no unpinned package (docs/manifests.md shows
// this table).
//
// spec: M2 M4
func TestSeedCorpus(t *testing.T) {
	want := map[string]corpusStats{
		"seed_2025_05_16.json": {Entries: 471,
			Transport: map[string]int{"stdio": 69, "sse": 5},
			Refused: map[string]int{"fails the schema": 8, ReasonType: 296, ReasonMalformed: 53, ReasonUnpinned: 18,
				ReasonDockerFlags: 14, ReasonPlaceholder: 8}},
		"seed_0176c53.json": {Entries: 5, Transport: map[string]int{"stdio": 4, "http": 1}, Refused: map[string]int{}},
		"seed_c71d4e8.json": {Entries: 5, Transport: map[string]int{"stdio": 4}, Refused: map[string]int{"fails the schema": 1}},
	}
	for _, file := range slices.Sorted(maps.Keys(want)) {
		got := runCorpus(t, filepath.Join("testdata", "seed", file))
		t.Logf("%s: %d entries, servers %v, refused %v, invented %d, unpinned %d", file, got.Entries, got.Transport, got.Refused, got.Invented, got.Unpinned)
		w := want[file]
		if got.Entries != w.Entries || !maps.Equal(got.Transport, w.Transport) || !maps.Equal(got.Refused, w.Refused) || got.Invented != 0 || got.Unpinned != 0 {
			t.Errorf("%s:\n got %+v\nwant %+v", file, got, w)
		}
	}
}
