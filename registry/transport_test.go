package registry

import (
	"strings"
	"testing"
)

// Fields of the other transport would be dropped silently when rendering: adding or
// updating a server with them is refused, naming the server and every field, never
// a value. Layer files that already hold them still load.
//
// spec: R1 R2 R8 L10
func TestTransportMismatchRefused(t *testing.T) {
	files := map[string]string{
		// written by another tool: loads, and can still be updated
		"me/mcp-servers.json": `{"servers": {
  "aiwg-stdio": {"command": "x", "headers": {"X-Key": "SECRET-H"}, "headerEnv": {"A": "TOKEN"}},
  "aiwg-http":  {"url": "https://h.example/", "args": ["SECRET-A"], "env": {"K": "SECRET-E"}},
  "plain":      {"command": "p", "env": {"K": "v"}}
}}`,
	}
	refused := []struct {
		name string
		do   func(r *Registry) error
		want string
	}{
		{"stdio with headerEnv", func(r *Registry) error {
			return r.AddServer(&Server{Name: "m4", Command: "x", HeaderEnv: map[string]string{"H": "V"}})
		}, `server "m4": headerEnv: not used by a stdio server (url, headers, headerEnv and bearerEnv are for http and sse servers)`},
		{"stdio with headers", func(r *Registry) error {
			return r.AddServer(&Server{Name: "m5", Type: "stdio", Command: "x", Headers: map[string]string{"H": "SECRET"}})
		}, `server "m5": headers: not used by a stdio server`},
		{"http with args and cwd", func(r *Registry) error {
			return r.AddServer(&Server{Name: "m3", URL: "https://x.example", Cwd: "/tmp", Args: []string{"a"}})
		}, `server "m3": args, cwd: not used by an http server (command, args, cwd, env and envFrom are for stdio servers)`},
		{"sse with env and envFrom", func(r *Registry) error {
			return r.AddServer(&Server{Name: "m6", Type: "sse", URL: "https://x.example", Env: map[string]string{"K": "SECRET"},
				EnvFrom: map[string]string{"A": "B"}})
		}, `server "m6": env, envFrom: not used by an sse server`},
		{"update adds a header to a stdio server", func(r *Registry) error {
			return r.UpdateServer("plain", func(s *Server) { s.HeaderEnv = map[string]string{"H": "V"} })
		}, `server "plain": headerEnv: not used by a stdio server`},
		{"update changes a tolerated field", func(r *Registry) error {
			return r.UpdateServer("aiwg-stdio", func(s *Server) { s.HeaderEnv = map[string]string{"A": "OTHER"} })
		}, `server "aiwg-stdio": headerEnv: not used`},
		{"update switches to http keeping env", func(r *Registry) error {
			return r.UpdateServer("plain", func(s *Server) { s.Type, s.Command, s.URL = "http", "", "https://h.example/" })
		}, `server "plain": env: not used by an http server`},
		{"a type change no longer tolerates existing fields", func(r *Registry) error {
			return r.UpdateServer("aiwg-http", func(s *Server) { s.Type = "sse" })
		}, `server "aiwg-http": args, env: not used by an sse server`},
	}
	for _, m := range refused {
		t.Run(m.name, func(t *testing.T) {
			f := newFixture(t, []string{"me"}, files)
			r, _ := f.load()
			before, mem := f.tree(), view(t, r)
			err := m.do(r)
			contains(t, err, m.want)
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("a value was quoted: %v", err)
			}
			f.sameTree(before)
			if view(t, r) != mem {
				t.Error("in-memory view changed")
			}
		})
	}
	t.Run("existing mismatched fields are kept by an unrelated update", func(t *testing.T) {
		f := newFixture(t, []string{"me"}, files)
		r, _ := f.load()
		for _, n := range []string{"aiwg-stdio", "aiwg-http"} {
			if err := r.UpdateServer(n, func(s *Server) { s.Description = "updated" }); err != nil {
				t.Fatal(err)
			}
		}
		if e := f.fileEntry("me/mcp-servers.json", "servers", "aiwg-stdio"); e["headerEnv"] == nil || e["description"] != "updated" {
			t.Errorf("entry %v", e)
		}
		if e := f.fileEntry("me/mcp-servers.json", "servers", "aiwg-http"); e["args"] == nil || e["description"] != "updated" {
			t.Errorf("entry %v", e)
		}
	})
	t.Run("an update that removes the mismatched fields is fine", func(t *testing.T) {
		f := newFixture(t, []string{"me"}, files)
		r, _ := f.load()
		if err := r.UpdateServer("aiwg-stdio", func(s *Server) {
			s.Type, s.Command, s.URL = "http", "", "https://h.example/"
		}); err != nil {
			t.Fatal(err)
		}
		if err := r.AddServer(&Server{Name: "ok", URL: "https://h.example/", HeaderEnv: map[string]string{"A": "B"}, BearerEnv: "T"}); err != nil {
			t.Fatal(err)
		}
		if err := r.AddServer(&Server{Name: "ok2", Command: "x", Args: []string{"a"}, Cwd: "/", Env: map[string]string{"A": "B"},
			EnvFrom: map[string]string{"A": "B"}}); err != nil {
			t.Fatal(err)
		}
	})
}

// spec: L6
func TestFalseAndZeroQualify(t *testing.T) {
	for _, wq := range []string{"false", "0"} {
		f := newFixture(t, []string{"org", "me"}, map[string]string{
			"org/mcp-servers.json": `{"servers": {"q": {"command": "q", "workerQualification": ` + wq + `}}}`,
			"me/mcp-servers.json":  `{"servers": {"q": {"command": "over"}}}`,
		})
		r, _ := f.load()
		before := f.tree()
		contains(t, r.RemoveServer("q"), `server "q" cannot be removed`, "workerQualification", f.path("org/mcp-servers.json"))
		f.sameTree(before)
	}
}
