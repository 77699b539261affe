package registry

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const extendsServers = `{"servers": {
  "s1": {"command": "a"}, "s2": {"command": "a"}, "s3": {"command": "a"}, "s4": {"command": "a"}, "s5": {"command": "a"}
}}`

// spec: R4 L3
func TestResolveAcrossLayers(t *testing.T) {
	f := newFixture(t, []string{"org", "team", "me"}, map[string]string{
		"org/mcp-servers.json": extendsServers,
		"org/mcp-profiles.json": `{"profiles": {
  "base":  {"servers": ["s1", "s2"], "providerOverrides": {"*": {"toolDeny": ["s1__x"], "toolAllow": ["s1__a"]}, "claude": {"toolDeny": ["s2__y"]}}},
  "other": {"servers": ["s3", "s1"], "providerOverrides": {"*": {"toolDeny": ["s3__z", "s1__x"]}, "codex": {"toolAllow": ["s3__c"]}}},
  "mid":   {"servers": ["s9-shadowed"]}
}}`,
		"team/mcp-profiles.json": `{"profiles": {
  "mid": {"extends": ["base", "other"], "servers": ["s4", "s2"],
          "providerOverrides": {"*": {"toolAllow": ["s4__b"]}, "claude-code": {"toolDeny": ["s4__w"]}}}
}}`,
		"me/mcp-profiles.json": `{"profiles": {
  "top":  {"extends": ["mid"], "servers": ["s5"], "providerOverrides": {"*": {"toolDeny": ["s5__q"]}, "codex": {"toolAllow": []}}},
  "a\u0001ll":  {"servers": []},
  "every": {"extends": ["base"], "servers": ["__all__"]},
  "plain": {"servers": []}
}}`,
	})
	_, _, err := f.open()
	contains(t, err, `invalid profile name "a\x01ll"`)
	// drop the unloadable one (L14) and load again
	f = newFixture(t, []string{"org", "team", "me"}, map[string]string{
		"org/mcp-servers.json":   extendsServers,
		"org/mcp-profiles.json":  strings.Replace(f.read("org/mcp-profiles.json"), "", "", 1),
		"team/mcp-profiles.json": f.read("team/mcp-profiles.json"),
		"me/mcp-profiles.json":   strings.Replace(f.read("me/mcp-profiles.json"), `"a\u0001ll":  {"servers": []},`, "", 1),
	})
	r, _ := f.load()

	top, err := r.Resolve("top")
	if err != nil {
		t.Fatal(err)
	}
	// servers: base's chain (base, then other), then mid's own, then top's own, no duplicates
	if want := []string{"s1", "s2", "s3", "s4", "s5"}; !slices.Equal(top.Servers, want) {
		t.Errorf("servers %q, want %q", top.Servers, want)
	}
	want := map[string]*Filters{
		// deny unioned along the chain; the most-derived allow (mid's) replaces base's
		"*": {ToolDeny: []string{"s1__x", "s3__z", "s5__q"}, ToolAllow: []string{"s4__b"}},
		// claude (alias) and claude-code are one key
		"claude-code": {ToolDeny: []string{"s2__y", "s4__w"}},
		// an explicitly empty allow list replaces the base's
		"codex": {ToolAllow: []string{}},
	}
	if !reflect.DeepEqual(top.Filters, want) {
		t.Errorf("filters %s, want %s", show(top.Filters), show(want))
	}
	mid, _ := r.Resolve("mid")
	if !slices.Equal(mid.Servers, []string{"s1", "s2", "s3", "s4"}) || !slices.Equal(mid.Filters["codex"].ToolAllow, []string{"s3__c"}) {
		t.Errorf("mid %q %s", mid.Servers, show(mid.Filters))
	}
	every, _ := r.Resolve("every")
	if !slices.Equal(every.Servers, []string{"s1", "s2", "s3", "s4", "s5"}) {
		t.Errorf("__all__ after a base: %q", every.Servers)
	}
	plain, _ := r.Resolve("plain")
	if len(plain.Servers) != 0 || len(plain.Filters) != 0 {
		t.Errorf("plain %+v", plain)
	}
	// The result is the caller's: changing it changes nothing for the next caller.
	top.Servers[0] = "changed"
	top.Filters["*"].ToolDeny[0] = "changed"
	again, _ := r.Resolve("top")
	if again.Servers[0] != "s1" || again.Filters["*"].ToolDeny[0] != "s1__x" {
		t.Error("Resolve returned shared state")
	}
	if _, err := r.Resolve("nope"); err == nil || err.Error() != `profile "nope" not found` {
		t.Errorf("%v", err)
	}
	// A change to a base is seen by the next Resolve.
	if err := r.EditProfile("base", ProfileEdit{AddServers: []string{"s5"}, RemoveServers: []string{"s1"}}); err != nil {
		t.Fatal(err)
	}
	top, _ = r.Resolve("top")
	if !slices.Equal(top.Servers, []string{"s2", "s5", "s3", "s1", "s4"}) {
		t.Errorf("after editing base: %q", top.Servers)
	}
}

func show(m map[string]*Filters) string {
	var b strings.Builder
	for _, k := range sortedKeys(m) {
		b.WriteString(k + ":" + strings.Join(m[k].ToolDeny, ",") + "/")
		if m[k].ToolAllow == nil {
			b.WriteString("nil ")
		} else {
			b.WriteString("[" + strings.Join(m[k].ToolAllow, ",") + "] ")
		}
	}
	return b.String()
}

// spec: R5
func TestExtendsErrorsWordForWord(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, map[string]string{
		"org/mcp-profiles.json": `{"profiles": {"a": {"extends": ["b"], "servers": []}}}`,
		"me/mcp-profiles.json": `{"profiles": {"b": {"extends": ["a"], "servers": []},
			"m": {"extends": ["missing"], "servers": []}, "n": {"extends": ["m"]}, "self": {"extends": ["self"]},
			"x": {"extends": ["y"]}, "y": {"extends": ["z"]}, "z": {"extends": ["x"]}}}`,
	})
	r, _ := f.load()
	for name, want := range map[string]string{
		"a":    "Profile extends cycle: a -> b -> a",
		"b":    "Profile extends cycle: b -> a -> b",
		"m":    `Profile "m" extends "missing", which is not defined in any configuration layer.`,
		"n":    `Profile "m" extends "missing", which is not defined in any configuration layer.`,
		"self": "Profile extends cycle: self -> self",
		"x":    "Profile extends cycle: x -> y -> z -> x",
	} {
		_, err := r.Resolve(name)
		if err == nil || err.Error() != want {
			t.Errorf("Resolve(%s) = %v, want %q", name, err, want)
		}
	}
	var ce *CycleError
	if _, err := r.Resolve("a"); !errors.As(err, &ce) || !slices.Equal(ce.Path, []string{"a", "b", "a"}) {
		t.Errorf("CycleError %+v", ce)
	}
	var me *MissingBaseError
	if _, err := r.Resolve("n"); !errors.As(err, &me) || me.Profile != "m" || me.Base != "missing" {
		t.Errorf("MissingBaseError %+v", me)
	}
}

// spec: R6
func TestRemoveProfileRefusedWhileExtended(t *testing.T) {
	f := newFixture(t, []string{"org", "team", "me"}, map[string]string{
		"org/mcp-profiles.json":  `{"profiles": {"org-child": {"extends": ["shared"], "servers": []}}}`,
		"team/mcp-profiles.json": `{"profiles": {"team-child": {"extends": ["other", "shared"]}, "other": {}}}`,
		"me/mcp-profiles.json":   `{"profiles": {"shared": {"servers": []}, "me-child": {"extends": ["shared"]}, "lone": {}}}`,
	})
	r, _ := f.load()
	before := f.tree()
	err := r.RemoveProfile("shared")
	if err == nil || err.Error() != `cannot remove profile "shared": extended by me-child, org-child, team-child` {
		t.Fatalf("err = %v", err)
	}
	f.sameTree(before)
	if err := r.RemoveProfile("lone"); err != nil {
		t.Fatal(err)
	}
	contains(t, r.RemoveProfile("lone"), `profile "lone" not found`)
}

// spec: R6
func TestImportProfiles(t *testing.T) {
	files := map[string]string{
		"org/mcp-servers.json":  `{"servers": {"s1": {"command": "x"}, "s2": {"command": "x"}}}`,
		"org/mcp-profiles.json": `{"profiles": {"org-base": {"servers": ["s1"]}, "org-top": {"extends": ["me-mid"]}}}`,
		"me/mcp-profiles.json":  `{"profiles": {"me-mid": {"servers": ["s2"], "description": "kept"}}}`,
	}
	refusals := []struct {
		name string
		in   map[string]*Profile
		want []string
	}{
		{"self cycle", map[string]*Profile{"selfish": {Extends: []string{"selfish"}}}, []string{"Profile extends cycle: selfish -> selfish"}},
		{"two-cycle", map[string]*Profile{"x1": {Extends: []string{"x2"}}, "x2": {Extends: []string{"x1"}}},
			[]string{"Profile extends cycle: x1 -> x2 -> x1"}},
		{"missing bases", map[string]*Profile{"x1": {Extends: []string{"nothere"}}, "x2": {Extends: []string{"org-base", "alsonot"}}},
			[]string{`Profile "x1" extends "nothere", which is not defined in any configuration layer.`,
				`Profile "x2" extends "alsonot", which is not defined in any configuration layer.`}},
		{"cycle through existing layers", map[string]*Profile{"me-mid": {Extends: []string{"org-top"}}},
			[]string{"Profile extends cycle: me-mid -> org-top -> me-mid"}},
		{"invalid names", map[string]*Profile{"Bad": {}, "all": {}, "ok": {}},
			[]string{"invalid profile names: Bad, all"}},
		{"name not matching its key", map[string]*Profile{"p": {Name: "q"}}, []string{`profile "p": name: "q" does not match its key`}},
		{"unknown provider", map[string]*Profile{"p": {ProviderOverrides: map[string]*Filters{"nope": {}}}}, []string{`profile "p": providerOverrides: unknown provider "nope"`}},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, []string{"org", "me"}, files)
			r, _ := f.load()
			before, mem := f.tree(), view(t, r)
			_, _, err := r.ImportProfiles(tt.in)
			if err == nil || err.Error() != strings.Join(tt.want, "\n") {
				t.Fatalf("err = %v, want %q", err, strings.Join(tt.want, "\n"))
			}
			f.sameTree(before)
			if view(t, r) != mem {
				t.Error("in-memory view changed")
			}
		})
	}
	t.Run("a valid chain with forward references", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, files)
		r, _ := f.load()
		added, updated, err := r.ImportProfiles(map[string]*Profile{
			"c1":     {Extends: []string{"c2"}, Servers: []string{"s1"}},
			"c2":     {Extends: []string{"c3", "org-base"}},
			"c3":     {Servers: []string{"s2"}, ProviderOverrides: map[string]*Filters{"claude": {ToolDeny: []string{"s2__x"}}}},
			"me-mid": {Description: "changed"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(added, []string{"c1", "c2", "c3"}) || !slices.Equal(updated, []string{"me-mid"}) {
			t.Fatalf("added %q updated %q", added, updated)
		}
		c1, err := r.Resolve("c1")
		if err != nil || !slices.Equal(c1.Servers, []string{"s2", "s1"}) || c1.Filters["claude-code"] == nil {
			t.Fatalf("%+v %v", c1, err)
		}
		// an import updates the fields it sets and keeps the others
		mid, _ := r.Profile("me-mid")
		if mid.Description != "changed" || !slices.Equal(mid.Servers, []string{"s2"}) {
			t.Errorf("me-mid %+v", mid)
		}
		e := f.fileEntry("me/mcp-profiles.json", "profiles", "c3")
		if e["createdAt"] != "2026-01-02T03:04:05Z" || e["providerOverrides"].(map[string]any)["claude-code"] == nil {
			t.Errorf("c3 written as %v", e)
		}
	})
	t.Run("a broken existing profile blocks any import", func(t *testing.T) {
		f := newFixture(t, []string{"org", "me"}, map[string]string{
			"me/mcp-profiles.json": `{"profiles": {"broken": {"extends": ["gone"]}}}`,
		})
		r, _ := f.load()
		_, _, err := r.ImportProfiles(map[string]*Profile{"fine": {}})
		contains(t, err, `Profile "broken" extends "gone"`)
	})
}

// spec: R9
func TestInitPresets(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, map[string]string{
		"org/mcp-profiles.json": `{"profiles": {"dev": {"servers": [], "description": "org dev"}}}`,
	})
	r, _ := f.load()
	added, err := r.InitPresets()
	if err != nil || !slices.Equal(added, []string{"minimal", "ops", "research", "incident", "full"}) {
		t.Fatalf("%q %v", added, err)
	}
	if p, _ := r.Profile("dev"); p.Description != "org dev" {
		t.Error("an existing preset was replaced")
	}
	full, _ := r.Profile("full")
	if !slices.Equal(full.Servers, []string{AllServers}) {
		t.Errorf("full %+v", full)
	}
	before := f.tree()
	if added, err := r.InitPresets(); err != nil || len(added) != 0 {
		t.Fatalf("second run %q %v", added, err)
	}
	f.sameTree(before)
}

// spec: R5 R6 L10
func TestEditProfileChecksTheChainsThroughIt(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, map[string]string{
		"org/mcp-profiles.json": `{"profiles": {"broken": {"extends": ["gone"]}, "base": {}}}`,
		"me/mcp-profiles.json":  `{"profiles": {"child": {"extends": ["base"]}, "grandchild": {"extends": ["child"]}, "solo": {}}}`,
	})
	r, _ := f.load()
	// an unrelated broken profile does not block an edit
	if err := r.EditProfile("solo", ProfileEdit{Extends: []string{"base"}, SetExtends: true}); err != nil {
		t.Fatal(err)
	}
	before, mem := f.tree(), view(t, r)
	// an edit that closes a cycle through dependents is refused
	err := r.EditProfile("base", ProfileEdit{Extends: []string{"grandchild"}, SetExtends: true})
	if err == nil || !strings.HasPrefix(err.Error(), "Profile extends cycle: base -> grandchild -> child -> base") {
		t.Fatalf("err = %v", err)
	}
	// and so is one that breaks a dependent's chain
	err = r.EditProfile("base", ProfileEdit{Extends: []string{"gone"}, SetExtends: true})
	contains(t, err, `Profile "base" extends "gone"`)
	f.sameTree(before)
	if view(t, r) != mem {
		t.Error("in-memory view changed")
	}
}
