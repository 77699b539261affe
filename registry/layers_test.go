package registry

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// three layers: org, team, me
func orgTeamMe(t *testing.T, extra map[string]string) *fixture {
	files := map[string]string{
		"org/mcp-servers.json": `{
  "apiVersion": "aiwg.io/v1", "kind": "McpServerRegistry", "x-org-only": 1,
  "servers": {
    "docs":    {"command": "org-docs", "args": ["--org"], "env": {"A": "1"}, "description": "org docs"},
    "tracker": {"url": "https://org.example/mcp", "headerEnv": {"Authorization": "TRACKER_TOKEN"}},
    "guarded": {"command": "g", "workerQualification": {"level": "reviewed"}},
    "wq-empty": {"command": "g", "workerQualification": ""}
  }
}`,
		"org/mcp-profiles.json": `{"profiles": {
  "base": {"servers": ["docs"], "description": "org base"},
  "shared": {"servers": ["tracker"]}
}}`,
		"team/mcp-servers.json": `{"servers": {
  "docs": {"command": "team-docs"}
}}`,
		"team/mcp-profiles.json": `{"profiles": {
  "base": {"servers": ["tracker"], "extends": []}
}}`,
		"me/mcp-servers.json": `{"servers": {
  "mine": {"url": "https://me.example/mcp"}
}}`,
	}
	for k, v := range extra {
		files[k] = v
	}
	return newFixture(t, []string{"org", "team", "me"}, files)
}

// spec: L3
func TestLaterLayerReplacesWhole(t *testing.T) {
	f := orgTeamMe(t, nil)
	r, _ := f.load()
	docs, _ := r.Server("docs")
	if docs.Command != "team-docs" || docs.Args != nil || docs.Env != nil || docs.Description != "" {
		t.Fatalf("fields were merged across layers: %+v", docs)
	}
	if r.ServerOrigin("docs") != f.path("team/mcp-servers.json") || r.ServerOrigin("tracker") != f.path("org/mcp-servers.json") ||
		r.ServerOrigin("mine") != f.path("me/mcp-servers.json") {
		t.Error("origins")
	}
	base, _ := r.Profile("base")
	if !slices.Equal(base.Servers, []string{"tracker"}) || base.Description != "" || r.ProfileOrigin("base") != f.path("team/mcp-profiles.json") {
		t.Fatalf("profile %+v from %s", base, r.ProfileOrigin("base"))
	}
	if !slices.Equal(r.ServerNames(), []string{"docs", "guarded", "mine", "tracker", "wq-empty"}) {
		t.Errorf("names %q", r.ServerNames())
	}
	infos := r.Layers()
	if len(infos) != 3 || !infos[2].Write || infos[0].Write || !slices.Equal(infos[1].Servers, []string{"docs"}) ||
		!slices.Equal(infos[0].Profiles, []string{"base", "shared"}) || infos[0].ServersFile != f.path("org/mcp-servers.json") {
		t.Errorf("layers %+v", infos)
	}
}

// spec: L4 L5
func TestUpdateCopiesUp(t *testing.T) {
	f := orgTeamMe(t, nil)
	r, _ := f.load()
	orgBefore, teamBefore := f.read("org/mcp-servers.json"), f.read("team/mcp-servers.json")
	if err := r.UpdateServer("tracker", func(s *Server) { s.Description = "mine now" }); err != nil {
		t.Fatal(err)
	}
	if f.read("org/mcp-servers.json") != orgBefore || f.read("team/mcp-servers.json") != teamBefore {
		t.Fatal("a lower layer file changed")
	}
	got := f.fileEntry("me/mcp-servers.json", "servers", "tracker")
	want := object(t, `{"name":"tracker","type":"http","url":"https://org.example/mcp","headerEnv":{"Authorization":"TRACKER_TOKEN"},
		"description":"mine now","updatedAt":"2026-01-02T03:04:05Z"}`)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("copied entry %v, want %v", got, want)
	}
	me := object(t, f.read("me/mcp-servers.json"))
	if _, ok := me["x-org-only"]; ok {
		t.Error("an inherited top-level field was copied (L4)")
	}
	if me["apiVersion"] != "aiwg.io/v1" || me["kind"] != "McpServerRegistry" {
		t.Errorf("apiVersion/kind not written: %v", me)
	}
	if r.ServerOrigin("tracker") != f.path("me/mcp-servers.json") || !r.InWriteLayer("tracker") {
		t.Error("the in-memory view does not show the copy")
	}
	// The other entries of the lower layers are not copied.
	if len(me["servers"].(map[string]any)) != 2 {
		t.Errorf("me holds %v", me["servers"])
	}
}

// spec: L4
func TestUnchangedUpdateDoesNotCopyUp(t *testing.T) {
	f := orgTeamMe(t, nil)
	r, _ := f.load()
	before := f.tree()
	if err := r.UpdateServer("docs", func(s *Server) { s.Command = "team-docs" }); err != nil {
		t.Fatal(err)
	}
	if err := r.UpdateServer("docs", func(s *Server) {
		s.UpdatedAt, s.AddedAt, s.InjectedProviders = "2030-01-01T00:00:00Z", "2030-01-01T00:00:00Z", []string{"codex"}
	}); err != nil {
		t.Fatal(err)
	}
	f.sameTree(before)
	if r.InWriteLayer("docs") {
		t.Fatal("a bookkeeping-only change copied the entry up")
	}
	// A real change does copy up.
	if err := r.UpdateServer("docs", func(s *Server) { s.Args = []string{"--v"} }); err != nil {
		t.Fatal(err)
	}
	if !r.InWriteLayer("docs") {
		t.Fatal("a real change was not copied up")
	}
}

// spec: L7 L4
func TestInjectionRecords(t *testing.T) {
	f := orgTeamMe(t, nil)
	r, warnings := f.load()
	before := f.tree()
	if err := r.RecordInjection([]string{"docs", "tracker"}, "codex"); err != nil {
		t.Fatal(err)
	}
	f.sameTree(before)
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "docs, tracker") || !strings.Contains((*warnings)[0], "inject --all") {
		t.Fatalf("warnings %q", *warnings)
	}
	if got := r.ServersInjectedInto("codex"); len(got) != 0 {
		t.Fatalf("lower-only records kept in memory: %q", got)
	}
	if err := r.RecordInjection([]string{"mine", "docs", "nosuch"}, "cursor"); err != nil {
		t.Fatal(err)
	}
	if got := f.fileEntry("me/mcp-servers.json", "servers", "mine")["injectedProviders"]; !reflect.DeepEqual(got, []any{"cursor"}) {
		t.Fatalf("injectedProviders %v", got)
	}
	if r.InWriteLayer("docs") {
		t.Error("a record copied a lower entry up")
	}
	// recording twice changes nothing
	before = f.tree()
	if err := r.RecordInjection([]string{"mine"}, "cursor"); err != nil {
		t.Fatal(err)
	}
	f.sameTree(before)
	if !slices.Equal(r.InjectedProviders(), []string{"cursor"}) || !slices.Equal(r.ServersInjectedInto("cursor"), []string{"mine"}) {
		t.Errorf("%q %q", r.InjectedProviders(), r.ServersInjectedInto("cursor"))
	}
}

// spec: L5
func TestAddAndRemoveAcrossLayers(t *testing.T) {
	f := orgTeamMe(t, nil)
	r, _ := f.load()
	before := f.tree()
	err := r.AddServer(&Server{Name: "tracker", Command: "x"})
	contains(t, err, `server "tracker" already exists in a lower configuration layer (`+f.path("org/mcp-servers.json")+")")
	err = r.AddServer(&Server{Name: "mine", Command: "x"})
	contains(t, err, `server "mine" already exists in `+f.path("me/mcp-servers.json"))
	err = r.RemoveServer("tracker")
	contains(t, err, `server "tracker" is defined in a lower configuration layer (`+f.path("org/mcp-servers.json")+"); remove it there")
	err = r.RemoveServer("docs") // the team entry shadows org's: the message names the team file
	contains(t, err, "("+f.path("team/mcp-servers.json")+")")
	contains(t, r.RemoveServer("nosuch"), `server "nosuch" not found`)
	err = r.AddProfile(&Profile{Name: "shared"})
	contains(t, err, `profile "shared" already exists in a lower configuration layer (`+f.path("org/mcp-profiles.json")+")")
	contains(t, r.RemoveProfile("base"), `profile "base" is defined in a lower configuration layer (`+f.path("team/mcp-profiles.json")+"); remove it there")
	f.sameTree(before)

	// copy up, then remove the overlay: the lower entry is back at once
	if err := r.UpdateServer("docs", func(s *Server) { s.Command = "my-docs" }); err != nil {
		t.Fatal(err)
	}
	if s, _ := r.Server("docs"); s.Command != "my-docs" {
		t.Fatal("overlay not visible")
	}
	if err := r.RemoveServer("docs"); err != nil {
		t.Fatal(err)
	}
	if s, ok := r.Server("docs"); !ok || s.Command != "team-docs" || r.ServerOrigin("docs") != f.path("team/mcp-servers.json") {
		t.Fatalf("after removing the overlay: %+v from %s", s, r.ServerOrigin("docs"))
	}
	if strings.Contains(f.read("me/mcp-servers.json"), `"docs"`) {
		t.Error("overlay still in the file")
	}
	// profiles too
	if err := r.EditProfile("shared", ProfileEdit{AddServers: []string{"docs"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveProfile("shared"); err != nil {
		t.Fatal(err)
	}
	if p, _ := r.Profile("shared"); !slices.Equal(p.Servers, []string{"tracker"}) || r.ProfileOrigin("shared") != f.path("org/mcp-profiles.json") {
		t.Fatalf("after removing the profile overlay: %+v", p)
	}
}

// spec: L6
func TestWorkerQualificationBlocksOverlayRemoval(t *testing.T) {
	f := orgTeamMe(t, map[string]string{"me/mcp-servers.json": `{"servers": {
		"guarded": {"command": "harmless", "workerQualification": null},
		"wq-empty": {"command": "mine"}
	}}`})
	r, _ := f.load()
	before := f.tree()
	err := r.RemoveServer("guarded")
	contains(t, err, `server "guarded" cannot be removed`, "workerQualification", f.path("org/mcp-servers.json"))
	f.sameTree(before)
	if !r.InWriteLayer("guarded") {
		t.Fatal("in-memory view changed")
	}
	// an empty qualification does not block
	if err := r.RemoveServer("wq-empty"); err != nil {
		t.Fatal(err)
	}
	// any non-empty value qualifies (L6): false and 0 are values
	for raw, want := range map[string]bool{`{"a":1}`: true, `"x"`: true, `true`: true, `1`: true, `["r"]`: true,
		`false`: true, `0`: true, `" "`: true, `[null]`: true,
		``: false, ` `: false, `null`: false, `""`: false, `{}`: false, `[]`: false, `{ }`: false, "[\n]": false} {
		s := Server{WorkerQualification: []byte(raw)}
		if s.Qualified() != want {
			t.Errorf("Qualified(%s) = %v", raw, !want)
		}
	}
}

// spec: L10
func TestRejectedMutationsChangeNothing(t *testing.T) {
	files := map[string]string{
		"org/mcp-servers.json": `{"credentialPolicy": "references", "servers": {"tracker": {"url": "https://o.example/"},
			"guarded": {"command": "g", "workerQualification": {"l": 1}}}}`,
		"org/mcp-profiles.json": `{"profiles": {"base": {"servers": ["tracker"]}}}`,
		"me/mcp-servers.json": `// mine
{"servers": {"mine": {"command": "m"}, "guarded": {"command": "over"}}}`,
		"me/mcp-profiles.json": `{"profiles": {"child": {"extends": ["base"], "servers": []}, "p": {"servers": []}}}`,
	}
	mutations := []struct {
		name string
		do   func(r *Registry) error
		want string
	}{
		{"add invalid server", func(r *Registry) error { return r.AddServer(&Server{Name: "x", Type: "stdio"}) }, "needs a command"},
		{"add server with a relative url", func(r *Registry) error { return r.AddServer(&Server{Name: "x", URL: "x/y"}) }, "absolute"},
		{"add a lower name", func(r *Registry) error { return r.AddServer(&Server{Name: "tracker", Command: "x"}) }, "already exists"},
		{"update into an invalid server", func(r *Registry) error {
			return r.UpdateServer("tracker", func(s *Server) { s.URL = "relative" })
		}, "absolute"},
		{"update with a bad variable", func(r *Registry) error {
			return r.UpdateServer("mine", func(s *Server) { s.EnvFrom = map[string]string{"A": "B C"} })
		}, "not a valid variable name"},
		{"update a missing server", func(r *Registry) error { return r.UpdateServer("nope", func(*Server) {}) }, "not found"},
		{"remove a lower server", func(r *Registry) error { return r.RemoveServer("tracker") }, "lower configuration layer"},
		{"remove a qualified overlay", func(r *Registry) error { return r.RemoveServer("guarded") }, "workerQualification"},
		{"relax the policy below the floor", func(r *Registry) error { return r.SetPolicy(0) }, "floor"},
		{"add a profile with a missing base", func(r *Registry) error { return r.AddProfile(&Profile{Name: "q", Extends: []string{"zzz"}}) }, "not defined"},
		{"add a profile with a missing server", func(r *Registry) error { return r.AddProfile(&Profile{Name: "q", Servers: []string{"zzz"}}) }, "not found"},
		{"edit into a cycle", func(r *Registry) error {
			return r.EditProfile("p", ProfileEdit{Extends: []string{"p"}, SetExtends: true})
		}, "Profile extends cycle: p -> p"},
		{"edit with an unknown provider", func(r *Registry) error {
			return r.EditProfile("p", ProfileEdit{Provider: "nope", ToolDeny: []string{"a__b"}})
		}, "unknown provider"},
		{"import a cycle", func(r *Registry) error {
			_, _, err := r.ImportProfiles(map[string]*Profile{"a": {Extends: []string{"b"}}, "b": {Extends: []string{"a"}}})
			return err
		}, "Profile extends cycle"},
		{"import a bad name", func(r *Registry) error {
			_, _, err := r.ImportProfiles(map[string]*Profile{"Bad": {}})
			return err
		}, "invalid profile names: Bad"},
	}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			f := newFixture(t, []string{"org", "me"}, files)
			r, warnings := f.load()
			before, mem := f.tree(), view(t, r)
			contains(t, m.do(r), m.want)
			f.sameTree(before)
			if got := view(t, r); got != mem {
				t.Errorf("in-memory view changed:\n%s\n%s", mem, got)
			}
			if len(*warnings) != 0 {
				t.Errorf("a refused mutation warned: %q", *warnings)
			}
		})
	}
	// A write refused by the overlap check (L8) changes nothing either.
	t.Run("overlapping layers", func(t *testing.T) {
		f := newFixture(t, []string{"me", "me"}, files)
		r, _ := f.load()
		before, mem := f.tree(), view(t, r)
		contains(t, r.AddServer(&Server{Name: "new", Command: "x"}), "overlapping configuration layer targets")
		f.sameTree(before)
		if view(t, r) != mem {
			t.Error("in-memory view changed")
		}
	})
}
