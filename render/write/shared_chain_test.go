package write

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/fsys"
)

// spec: V10 Q4
// TestChainTakesEveryHandoff: two edits of one file in a transaction (Claude Code's
// user and local scopes, both in ~/.claude.json) each stage a record and hand their read
// of the file over; the merged target takes both, so that neither 50 MB read is held
// after planning, and edits from the first.
func TestChainTakesEveryHandoff(t *testing.T) {
	for _, c := range []struct {
		name         string
		hasA, hasB   bool
		okA, okB     bool
		want         string
		wantOK       bool
		wantA, wantB int
	}{
		{"both", true, true, true, true, "a", true, 1, 1},
		{"only the second read", true, true, false, true, "b", true, 1, 1},
		{"none read", true, true, false, false, "", false, 1, 1},
		{"first has none", false, true, false, true, "b", true, 0, 1},
		{"second has none", true, false, true, false, "a", true, 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			takenA, takenB := 0, 0
			var a, b fsys.Target
			if c.hasA {
				a.Handoff = func() (fsys.Snapshot, bool) { takenA++; return fsys.Snapshot{Data: []byte("a")}, c.okA }
			}
			if c.hasB {
				b.Handoff = func() (fsys.Snapshot, bool) { takenB++; return fsys.Snapshot{Data: []byte("b")}, c.okB }
			}
			s, ok := chain(a, b).Handoff()
			if ok != c.wantOK || ok && string(s.Data) != c.want {
				t.Errorf("handoff %q, %v; want %q, %v", s.Data, ok, c.want, c.wantOK)
			}
			if takenA != c.wantA || takenB != c.wantB {
				t.Errorf("taken a %d, b %d times; want %d, %d", takenA, takenB, c.wantA, c.wantB)
			}
		})
	}
}
