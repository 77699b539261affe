package registry

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/layers"
	"github.com/mcpwire/mcpwire/policy"
)

// Two processes, A and B, open the same layers; B writes first, then A writes from
// what it read at start-up. A must never undo B's change (W8, L4).

func conflictFiles() map[string]string {
	return map[string]string{
		"org/mcp-servers.json":  `{"servers": {"lower": {"command": "org"}}}`,
		"org/mcp-profiles.json": `{"profiles": {"base": {"servers": ["lower"]}}}`,
		"me/mcp-servers.json": `{"servers": {
  // keep me
  "x": {"command": "old", "injectedProviders": ["codex"]},
  "y": {"command": "y"}
}}`,
		"me/mcp-profiles.json": `{"profiles": {"p": {"servers": ["x"]}, "q": {"servers": []}}}`,
	}
}

// spec: W8 L4
func TestReceiptsKeepOtherProcessesChanges(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, conflictFiles())
	a, _ := f.load()
	b, _ := f.load()
	if err := b.UpdateServer("x", func(s *Server) { s.Command = "from-b" }); err != nil {
		t.Fatal(err)
	}
	if err := a.RecordInjection([]string{"x"}, "cursor"); err != nil {
		t.Fatal(err)
	}
	e := f.fileEntry("me/mcp-servers.json", "servers", "x")
	if e["command"] != "from-b" || e["updatedAt"] != "2026-01-02T03:04:05Z" {
		t.Fatalf("the receipt undid B's update: %v", e)
	}
	if !reflect.DeepEqual(e["injectedProviders"], []any{"codex", "cursor"}) {
		t.Fatalf("injectedProviders %v", e["injectedProviders"])
	}
	if !strings.Contains(f.read("me/mcp-servers.json"), "// keep me") {
		t.Error("comment lost")
	}
	// A now sees what is in the file, B's change included
	if s, _ := a.Server("x"); s.Command != "from-b" || !slices.Equal(s.InjectedProviders, []string{"codex", "cursor"}) {
		t.Fatalf("A's view: %+v", s)
	}

	// B records another provider, then A forgets one: only that one goes
	if err := b.RecordInjection([]string{"x"}, "claude-code"); err != nil {
		t.Fatal(err)
	}
	if err := b.UpdateServer("x", func(s *Server) { s.Args = []string{"--b"} }); err != nil {
		t.Fatal(err)
	}
	if err := a.ForgetInjection([]string{"x"}, "codex"); err != nil {
		t.Fatal(err)
	}
	e = f.fileEntry("me/mcp-servers.json", "servers", "x")
	if !reflect.DeepEqual(e["injectedProviders"], []any{"cursor", "claude-code"}) || !reflect.DeepEqual(e["args"], []any{"--b"}) {
		t.Fatalf("after forget: %v", e)
	}
	// forgetting the last providers removes the member
	c, _ := f.load()
	if err := c.ForgetInjection([]string{"x"}, "cursor"); err != nil {
		t.Fatal(err)
	}
	if err := c.ForgetInjection([]string{"x"}, "claude-code"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.read("me/mcp-servers.json"), "injectedProviders") {
		t.Fatalf("empty list kept:\n%s", f.read("me/mcp-servers.json"))
	}

}

// spec: W8 L4
func TestReceiptForRemovedServerDoesNotRecreateIt(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, conflictFiles())
	a, _ := f.load()
	b, _ := f.load()
	if err := b.RemoveServer("y"); err != nil {
		t.Fatal(err)
	}
	if err := a.RecordInjection([]string{"y"}, "cursor"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(f.read("me/mcp-servers.json"), `"y"`) {
		t.Fatalf("the receipt brought back a removed server:\n%s", f.read("me/mcp-servers.json"))
	}
	if _, ok := a.Server("y"); ok {
		t.Error("A still sees the removed server")
	}
}

// spec: W8 L4 L10
func TestStaleMutationsConflict(t *testing.T) {
	tests := []struct {
		name string
		// other is B's change, made after A loaded
		other func(b *Registry) error
		// mine is A's mutation from its stale view
		mine func(a *Registry) error
		file string
		want []string
	}{
		{"update a changed server",
			func(b *Registry) error { return b.UpdateServer("x", func(s *Server) { s.Command = "b" }) },
			func(a *Registry) error { return a.UpdateServer("x", func(s *Server) { s.Description = "a" }) },
			"me/mcp-servers.json", []string{`server "x" in `, " was changed by another process"}},
		{"update a server removed meanwhile",
			func(b *Registry) error { return b.RemoveServer("x") },
			func(a *Registry) error { return a.UpdateServer("x", func(s *Server) { s.Description = "a" }) },
			"me/mcp-servers.json", []string{`server "x" was removed from `}},
		{"copy up a lower server another process copied up",
			func(b *Registry) error { return b.UpdateServer("lower", func(s *Server) { s.Command = "b" }) },
			func(a *Registry) error { return a.UpdateServer("lower", func(s *Server) { s.Description = "a" }) },
			"me/mcp-servers.json", []string{`server "lower" was added to `}},
		{"a receipt is a change too",
			func(b *Registry) error { return b.RecordInjection([]string{"x"}, "cursor") },
			func(a *Registry) error { return a.UpdateServer("x", func(s *Server) { s.Command = "a" }) },
			"me/mcp-servers.json", []string{`server "x" in `}},
		{"remove a changed server",
			func(b *Registry) error { return b.UpdateServer("x", func(s *Server) { s.Command = "b" }) },
			func(a *Registry) error { return a.RemoveServer("x") },
			"me/mcp-servers.json", []string{`server "x" in `}},
		{"add a server another process added",
			func(b *Registry) error { return b.AddServer(&Server{Name: "new", Command: "b"}) },
			func(a *Registry) error { return a.AddServer(&Server{Name: "new", Command: "a"}) },
			"me/mcp-servers.json", []string{`server "new" was added to `}},
		{"import servers one of which another process added",
			func(b *Registry) error { return b.AddServer(&Server{Name: "new", Command: "b"}) },
			func(a *Registry) error {
				return a.AddServers([]*Server{{Name: "zz", Command: "a"}, {Name: "new", Command: "a"}, {Name: "aa", Command: "a"}}, nil, nil)
			},
			"me/mcp-servers.json", []string{`server "new" was added to `}},
		{"set a policy another process set",
			func(b *Registry) error { return b.SetPolicy(policy.None) },
			func(a *Registry) error { return a.SetPolicy(policy.References) },
			"me/mcp-servers.json", []string{`credentialPolicy was added to `}},
		{"edit a changed profile",
			func(b *Registry) error { return b.EditProfile("p", ProfileEdit{AddServers: []string{"y"}}) },
			func(a *Registry) error { return a.EditProfile("p", ProfileEdit{RemoveServers: []string{"x"}}) },
			"me/mcp-profiles.json", []string{`profile "p" in `}},
		{"copy up a lower profile another process copied up",
			func(b *Registry) error { return b.EditProfile("base", ProfileEdit{AddServers: []string{"y"}}) },
			func(a *Registry) error { return a.EditProfile("base", ProfileEdit{AddServers: []string{"x"}}) },
			"me/mcp-profiles.json", []string{`profile "base" was added to `}},
		{"remove a changed profile",
			func(b *Registry) error { return b.EditProfile("q", ProfileEdit{AddServers: []string{"y"}}) },
			func(a *Registry) error { return a.RemoveProfile("q") },
			"me/mcp-profiles.json", []string{`profile "q" in `}},
		{"add a profile another process added",
			func(b *Registry) error { return b.AddProfile(&Profile{Name: "new"}) },
			func(a *Registry) error { return a.AddProfile(&Profile{Name: "new", Servers: []string{"x"}}) },
			"me/mcp-profiles.json", []string{`profile "new" was added to `}},
		{"import over a changed profile",
			func(b *Registry) error { return b.EditProfile("q", ProfileEdit{AddServers: []string{"y"}}) },
			func(a *Registry) error {
				_, _, err := a.ImportProfiles(map[string]*Profile{"q": {Description: "a"}, "fresh": {}})
				return err
			},
			"me/mcp-profiles.json", []string{`profile "q" in `}},
		{"init presets another process added",
			func(b *Registry) error { return b.AddProfile(&Profile{Name: "minimal", Servers: []string{"x"}}) },
			func(a *Registry) error { _, err := a.InitPresets(); return err },
			"me/mcp-profiles.json", []string{`profile "minimal" was added to `}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, []string{"org", "me"}, conflictFiles())
			a, warnings := f.load()
			b, _ := f.load()
			if err := tt.other(b); err != nil {
				t.Fatal(err)
			}
			before, mem := f.tree(), view(t, a)
			err := tt.mine(a)
			contains(t, err, append(tt.want, f.path(tt.file), "by another process", "run the command again")...)
			if !errors.Is(err, layers.ErrConflict) {
				t.Errorf("%v does not match layers.ErrConflict", err)
			}
			f.sameTree(before) // B's change is kept, nothing else written
			if got := view(t, a); got != mem {
				t.Errorf("A's in-memory view changed:\n%s\n%s", mem, got)
			}
			if len(*warnings) != 0 {
				t.Errorf("warnings %q", *warnings)
			}
			// run again: a fresh process sees B's change and succeeds
			a2, _ := f.load()
			if err := tt.mine(a2); err != nil && !strings.Contains(err.Error(), "already exists") && !strings.Contains(err.Error(), "not found") {
				t.Errorf("run again: %v", err)
			}
		})
	}
}

// Changes to other entries, and unchanged entries, do not conflict.
//
// spec: W8
func TestUnrelatedChangesDoNotConflict(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, conflictFiles())
	a, _ := f.load()
	b, _ := f.load()
	if err := b.UpdateServer("y", func(s *Server) { s.Command = "b" }); err != nil {
		t.Fatal(err)
	}
	if err := b.EditProfile("q", ProfileEdit{AddServers: []string{"y"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateServer("x", func(s *Server) { s.Command = "a" }); err != nil {
		t.Fatal(err)
	}
	if err := a.EditProfile("p", ProfileEdit{AddServers: []string{"y"}}); err != nil {
		t.Fatal(err)
	}
	if err := a.AddServer(&Server{Name: "z", Command: "a"}); err != nil {
		t.Fatal(err)
	}
	if e := f.fileEntry("me/mcp-servers.json", "servers", "y"); e["command"] != "b" {
		t.Fatalf("B's change lost: %v", e)
	}
	if e := f.fileEntry("me/mcp-servers.json", "servers", "x"); e["command"] != "a" {
		t.Fatalf("A's change lost: %v", e)
	}
	if e := f.fileEntry("me/mcp-profiles.json", "profiles", "q"); !reflect.DeepEqual(e["servers"], []any{"y"}) {
		t.Fatalf("B's profile change lost: %v", e)
	}
	// A's later mutations start from what its writes read back: no conflict with itself
	if err := a.UpdateServer("y", func(s *Server) { s.Description = "a" }); err != nil {
		t.Fatal(err)
	}
	if err := a.RemoveServer("z"); err != nil {
		t.Fatal(err)
	}
}

// A stale personal policy is dropped only while it is still the value this process
// read; a policy another process set meanwhile is kept, and nothing warns.
//
// spec: P4 W8
func TestStalePolicyDropKeepsAConcurrentChange(t *testing.T) {
	f := newFixture(t, []string{"org", "me"}, map[string]string{
		"org/mcp-servers.json": `{"credentialPolicy": "references", "servers": {}}`,
		"me/mcp-servers.json":  `{"credentialPolicy": "literal", "servers": {}}`,
	})
	a, warnings := f.load()
	b, _ := f.load()
	if err := b.SetPolicy(policy.None); err != nil {
		t.Fatal(err)
	}
	if err := a.AddServer(&Server{Name: "n", Command: "x"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.read("me/mcp-servers.json"), `"credentialPolicy": "none"`) {
		t.Fatalf("B's policy was dropped:\n%s", f.read("me/mcp-servers.json"))
	}
	if len(*warnings) != 0 {
		t.Errorf("warned about a drop that did not happen: %q", *warnings)
	}
	if p := a.PersonalPolicy(); p == nil || *p != policy.None {
		t.Errorf("A's personal policy %v", p)
	}
}
