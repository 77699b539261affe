package registry

import (
	"errors"
	"slices"
	"testing"
)

// spec: P11 R1 — plainEnv survives a read–write cycle; a declaration that looks like
// a credential is refused on add and update naming the key, but a hand-written one
// already in the file does not block an unrelated update.
func TestPlainEnv(t *testing.T) {
	f := newFixture(t, []string{"me"}, map[string]string{"me/mcp-servers.json": `{"servers": {
		"hand": {"command": "x", "env": {"API_TOKEN": "t", "P": "/p"}, "plainEnv": ["API_TOKEN", "P", "GONE"]}}}`})
	r, _ := f.load()
	s, _ := r.Server("hand")
	if !slices.Equal(s.PlainEnv, []string{"API_TOKEN", "P", "GONE"}) || len(s.PlainEnvKeys()) != 2 {
		t.Fatalf("plainEnv %q keys %v", s.PlainEnv, s.PlainEnvKeys())
	}
	if err := r.UpdateServer("hand", func(s *Server) { s.Description = "d" }); err != nil {
		t.Fatalf("unrelated update: %v", err)
	}
	r, _ = f.load()
	if s, _ = r.Server("hand"); !slices.Equal(s.PlainEnv, []string{"API_TOKEN", "P", "GONE"}) {
		t.Fatalf("after a write: %q", s.PlainEnv)
	}
	var pe *PlainError
	err := r.UpdateServer("hand", func(s *Server) { s.Env["API_TOKEN"] = "changed" })
	if !errors.As(err, &pe) || !slices.Equal(pe.Keys, []string{"API_TOKEN"}) {
		t.Fatalf("a changed credential-named plain value: %v", err)
	}
	err = r.AddServer(&Server{Name: "n", Command: "x", Env: map[string]string{"K": "ghp_x"}, PlainEnv: []string{"K"}})
	contains(t, err, `server "n": cannot declare plain`, "K: its value starts like a well-known token")
	// a key or header declared twice is one problem
	pe = nil
	err = r.AddServer(&Server{Name: "n", Command: "x", Env: map[string]string{"K": "ghp_x"}, PlainEnv: []string{"K", "K", "L"}})
	if !errors.As(err, &pe) || !slices.Equal(pe.Keys, []string{"K"}) || len(pe.Problems) != 1 {
		t.Fatalf("a key declared twice: %v (%+v)", err, pe)
	}
	pe = nil
	err = r.AddServer(&Server{Name: "n", URL: "https://example.com", Headers: map[string]string{"Authorization": "Bearer x"}, PlainHeaders: []string{"Authorization", "Authorization"}})
	if !errors.As(err, &pe) || !slices.Equal(pe.Headers, []string{"Authorization"}) || len(pe.Problems) != 1 {
		t.Fatalf("a header declared twice: %v (%+v)", err, pe)
	}
	if err := r.AddServer(&Server{Name: "ok", Command: "x", Env: map[string]string{"K": "/k"}, PlainEnv: []string{"K"}}); err != nil {
		t.Fatal(err)
	}
}
