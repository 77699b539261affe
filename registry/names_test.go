package registry

import (
	"strings"
	"testing"
)

// spec: L14 R2 R3 — names AIWG accepts load (dots, npm's "@org/srv", a backslash,
// other punctuation, upper case profile names); names that cannot be printed on one
// line are still load errors naming the file; add keeps the strict rules.
func TestLoadableNames(t *testing.T) {
	for _, name := range []string{"my.server", "a b", "Team.Dev", "x@y", "ünï", "default", "@org/srv", `a\b`, ".", "..", strings.Repeat("a", 256)} {
		if err := LoadableName("server", name); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"", "a\nb", "a\x7fb", "a\u0085b", "\xff", strings.Repeat("a", 257)} {
		if err := LoadableName("server", name); err == nil {
			t.Errorf("%q: loaded", name)
		}
	}
	f := newFixture(t, []string{"org", "me"}, map[string]string{
		"org/mcp-servers.json":  `{"servers": {"my.server": {"command": "x"}, "ok": {"command": "y"}}}`,
		"org/mcp-profiles.json": `{"profiles": {"Team.Dev": {"servers": ["my.server"], "extends": ["base.x"]}, "base.x": {"servers": ["ok"]}}}`,
	})
	r, _ := f.load()
	if _, ok := r.Server("my.server"); !ok {
		t.Fatal("my.server not loaded")
	}
	res, err := r.Resolve("Team.Dev")
	if err != nil || strings.Join(res.Servers, ",") != "ok,my.server" {
		t.Fatalf("Team.Dev resolved %v, %v", res, err)
	}
	contains(t, r.AddServer(&Server{Name: "new.server", Command: "x"}), `invalid server name "new.server"`)
	contains(t, r.AddProfile(&Profile{Name: "new.p", Servers: []string{"ok"}}), `invalid profile name "new.p"`)
	// editing a loaded entry keeps its name
	if err := r.UpdateServer("my.server", func(s *Server) { s.Description = "d" }); err != nil {
		t.Fatal(err)
	}
	f = newFixture(t, []string{"me"}, map[string]string{"me/mcp-servers.json": `{"servers": {"a\u0001b": {"command": "x"}}}`})
	_, _, err = f.open()
	contains(t, err, f.path("me/mcp-servers.json")+`: server "a\x01b": invalid server name "a\x01b"`)
}
