package registry

import (
	"slices"
	"testing"
)

// spec: K7
// TestEffectiveServers: EffectiveServers is Server of each of ServerNames, in their
// order, a server a higher layer defines again given once, as that layer has it.
func TestEffectiveServers(t *testing.T) {
	f := newFixture(t, []string{"org", "user"}, map[string]string{
		"org/mcp-servers.json":  `{"servers": {"b": {"command": "org-b"}, "a": {"command": "org-a"}, "c": {"command": "c"}}}`,
		"user/mcp-servers.json": `{"servers": {"b": {"command": "user-b"}, "d": {"command": "d"}}}`,
	})
	r, _ := f.load()
	var want []*Server
	for _, n := range r.ServerNames() {
		s, _ := r.Server(n)
		want = append(want, s)
	}
	if len(want) != 4 || want[1].Command != "user-b" {
		t.Fatalf("fixture: %v", want)
	}
	if got := r.EffectiveServers(); !slices.Equal(got, want) {
		t.Errorf("EffectiveServers %v, Server of each name %v", got, want)
	}
}
