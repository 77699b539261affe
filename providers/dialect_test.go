package providers

import (
	"testing"
)

// TestEveryClientHasADialect: every client's entry builds its dialect, and its
// ownership mode agrees with it (OwnerMarkers needs frame lines; a runtime home is
// started, not launched on a file).
//
// spec: V1 C6
func TestEveryClientHasADialect(t *testing.T) {
	for _, p := range All() {
		if p.dialect == nil {
			t.Errorf("%s: no dialect", p.Name)
			continue
		}
		if framed := p.Frame != nil; framed != (p.Owner == OwnerMarkers) {
			t.Errorf("%s: ownership mode %q, and the dialect frames entries: %v", p.Name, p.Owner, framed)
		}
		if _, launched := p.Dialect().Launch("", ""); launched && p.RuntimeHome != nil {
			t.Errorf("%s: a runtime home and a launch on a file", p.Name)
		}
	}
}
