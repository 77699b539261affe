package dialect

import (
	"testing"

	"github.com/mcpwire/mcpwire/providers"
)

// TestEveryShapeHasADialect: every provider's shape has its own dialect file, and the
// table's ownership mode agrees with the dialect (OwnerMarkers needs frame lines).
//
// spec: V1 C6
func TestEveryShapeHasADialect(t *testing.T) {
	for _, p := range providers.All() {
		d := For(p)
		if _, ok := d.(legacy); ok {
			t.Logf("%s: shape %s still renders through the legacy adapter", p.Name, p.Shape)
			continue
		}
		if _, framed := d.(Framer); framed != (p.Owner == providers.OwnerMarkers) {
			t.Errorf("%s: ownership mode %q, and the dialect frames entries: %v", p.Name, p.Owner, framed)
		}
	}
}
