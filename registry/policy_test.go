package registry

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/policy"
)

// spec: P2 P3
func TestPolicyFloor(t *testing.T) {
	f := newFixture(t, []string{"org", "team", "me"}, map[string]string{
		"org/mcp-servers.json":   `{"credentialPolicy": "references"}`,
		"team/mcp-profiles.json": `{"credentialPolicy": "literal"}`,
		"me/mcp-servers.json":    `{"credentialPolicy": "literal", "servers": {}}`,
	})
	r, warnings := f.load()
	fl := r.Floor()
	if !fl.Set || fl.Level != policy.References || fl.File != f.path("org/mcp-servers.json") {
		t.Fatalf("floor %+v", fl)
	}
	if p := r.PersonalPolicy(); p == nil || *p != policy.Literal {
		t.Fatalf("personal %v", p)
	}
	if r.StoredPolicy() != policy.References {
		t.Errorf("stored %v: the personal default is raised to the floor", r.StoredPolicy())
	}
	eff, err := r.EffectivePolicy("literal", nil)
	if err != nil || eff != policy.References {
		t.Fatalf("effective %v %v", eff, err)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], f.path("org/mcp-servers.json")) {
		t.Fatalf("warnings %q", *warnings)
	}

	// strictest lower layer wins, wherever it is
	f = newFixture(t, []string{"org", "team", "me"}, map[string]string{
		"org/mcp-servers.json":   `{"credentialPolicy": "references"}`,
		"team/mcp-profiles.json": `{"credentialPolicy": "none"}`,
		"me/mcp-servers.json":    `{"credentialPolicy": "literal"}`,
	})
	r, _ = f.load()
	if fl := r.Floor(); fl.Level != policy.None || fl.File != f.path("team/mcp-profiles.json") {
		t.Fatalf("floor %+v", fl)
	}
	// without lower layers there is no floor
	f = newFixture(t, []string{"me"}, map[string]string{"me/mcp-servers.json": `{"credentialPolicy": "literal"}`})
	r, _ = f.load()
	if r.Floor().Set || r.StoredPolicy() != policy.Literal {
		t.Fatalf("single layer: floor %+v stored %v", r.Floor(), r.StoredPolicy())
	}
	if eff, _ := r.EffectivePolicy("", nil); eff != policy.Literal {
		t.Fatal(eff)
	}
	// nothing set anywhere: literal
	f = newFixture(t, []string{"org", "me"}, nil)
	r, _ = f.load()
	if r.StoredPolicy() != policy.Literal || r.PersonalPolicy() != nil {
		t.Fatal("default")
	}
}

// spec: P4
func TestSetPolicy(t *testing.T) {
	files := map[string]string{
		"org/mcp-servers.json": `{"credentialPolicy": "references", "servers": {"o": {"command": "x"}}}`,
		"me/mcp-servers.json": `// mine
{"servers": {"m": {"command": "x"}}}`,
	}
	t.Run("below the floor is refused naming the file", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, files)
		r, _ := f.load()
		before := f.tree()
		err := r.SetPolicy(policy.Literal)
		if err == nil || err.Error() != `cannot relax the credential policy to "literal": the organisation floor is "references", set in `+f.path("org/mcp-servers.json") {
			t.Fatalf("err = %v", err)
		}
		f.sameTree(before)
	})
	t.Run("equal to the floor persists", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, files)
		r, _ := f.load()
		if err := r.SetPolicy(policy.References); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.read("me/mcp-servers.json"), `"credentialPolicy": "references"`) || !strings.Contains(f.read("me/mcp-servers.json"), "// mine") {
			t.Fatalf("file:\n%s", f.read("me/mcp-servers.json"))
		}
		if p := r.PersonalPolicy(); p == nil || *p != policy.References {
			t.Fatal("in memory")
		}
	})
	t.Run("above the floor persists", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, files)
		r, _ := f.load()
		if err := r.SetPolicy(policy.None); err != nil {
			t.Fatal(err)
		}
		r2, _ := f.load()
		if p := r2.PersonalPolicy(); p == nil || *p != policy.None {
			t.Fatal("not persisted")
		}
	})
	t.Run("an unrelated save keeps the own policy and never copies the inherited one", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, files)
		r, _ := f.load()
		if err := r.AddServer(&Server{Name: "n", Command: "x"}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f.read("me/mcp-servers.json"), "credentialPolicy") {
			t.Fatal("the inherited policy was copied")
		}
		if err := r.SetPolicy(policy.None); err != nil {
			t.Fatal(err)
		}
		if err := r.AddServer(&Server{Name: "n2", Command: "x"}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(f.read("me/mcp-servers.json"), `"credentialPolicy": "none"`) {
			t.Fatal("the own policy was lost")
		}
	})
	t.Run("a stale weaker value is dropped with a warning on an unrelated save", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, map[string]string{
			"org/mcp-servers.json": files["org/mcp-servers.json"],
			"me/mcp-servers.json":  `{"credentialPolicy": "literal", "servers": {}}`,
		})
		r, warnings := f.load()
		if err := r.AddServer(&Server{Name: "n", Command: "x"}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(f.read("me/mcp-servers.json"), "credentialPolicy") {
			t.Fatalf("stale value kept:\n%s", f.read("me/mcp-servers.json"))
		}
		if len(*warnings) != 1 || !strings.Contains((*warnings)[0], `dropping credentialPolicy "literal" from `+f.path("me/mcp-servers.json")) ||
			!strings.Contains((*warnings)[0], f.path("org/mcp-servers.json")) {
			t.Fatalf("warnings %q", *warnings)
		}
		if r.PersonalPolicy() != nil {
			t.Error("in-memory personal policy not dropped")
		}
	})
	t.Run("a stale value is not dropped, and nothing warns, when the save is refused", func(t *testing.T) {
		// one directory listed twice: its profiles file sets the floor, its servers
		// file holds a stale weaker value, and every write is refused (L8)
		f := newFixture(t, []string{"org", "org"}, map[string]string{
			"org/mcp-profiles.json": `{"credentialPolicy": "none"}`,
			"org/mcp-servers.json":  `{"credentialPolicy": "literal", "servers": {}}`,
		})
		r, warnings := f.load()
		before := f.tree()
		contains(t, r.AddServer(&Server{Name: "n", Command: "x"}), "overlapping configuration layer targets")
		f.sameTree(before)
		if len(*warnings) != 0 {
			t.Fatalf("warned about a drop that did not happen: %q", *warnings)
		}
	})
}

// spec: P5
func TestInvalidPolicyValuesNameTheFile(t *testing.T) {
	for _, v := range []string{`null`, `""`, `false`, `0`, `"LITERAL"`, `"strict"`, `[]`} {
		for _, file := range []string{"org/mcp-servers.json", "org/mcp-profiles.json", "me/mcp-servers.json", "me/mcp-profiles.json"} {
			f := newFixture(t, []string{"org", "me"}, map[string]string{file: `{"credentialPolicy": ` + v + `}`})
			_, _, err := f.open()
			want := f.path(file) + ": invalid credentialPolicy " + v + " (want \"literal\", \"references\" or \"none\")"
			if err == nil || err.Error() != want {
				t.Errorf("%s = %s: err = %v, want %q", file, v, err, want)
			}
		}
	}
}
