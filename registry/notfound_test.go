package registry

import (
	"errors"
	"slices"
	"testing"
)

// Lookup gives the servers in the order asked, takes a name no layer defines from
// extra, and refuses every missing name at once with a suggestion (U1).
//
// spec: U1 R7
func TestLookup(t *testing.T) {
	f := newFixture(t, []string{"me"}, map[string]string{
		"me/mcp-servers.json": `{"servers": {"fetch": {"command": "uvx"}, "tickets": {"url": "https://t.example/mcp"}}}`,
	})
	r, _ := f.load()
	got, err := r.Lookup([]string{"tickets", "aiwg", "fetch"}, "", []*Server{{Name: "aiwg", Command: "aiwg"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"tickets", "aiwg", "fetch"}) {
		t.Errorf("servers %v", names)
	}
	_, err = r.Lookup([]string{"fetch", "tickest", "ghost"}, "dev", nil)
	var nf *NotFoundError
	if !errors.As(err, &nf) || err.Error() != `profile "dev" names servers not defined in any configuration layer: tickest, ghost` {
		t.Fatalf("err = %v", err)
	}
	if h := nf.Hints(); len(h) != 2 || h[0] != `"tickest": did you mean "tickets"?` {
		t.Errorf("hints %q", h)
	}
}
