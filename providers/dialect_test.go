package providers

import (
	"testing"
)

// TestEveryShapeHasADialect: every provider's shape has its own dialect file, and the
// table's ownership mode agrees with the dialect (OwnerMarkers needs frame lines).
//
// spec: V1 C6
func TestEveryShapeHasADialect(t *testing.T) {
	for _, p := range All() {
		if shapes(p.Shape) == nil {
			t.Errorf("%s: no dialect for shape %q", p.Name, p.Shape)
			continue
		}
		d := For(p)
		if _, framed := d.(Framer); framed != (p.Owner == OwnerMarkers) {
			t.Errorf("%s: ownership mode %q, and the dialect frames entries: %v", p.Name, p.Owner, framed)
		}
	}
}
