package providers

import (
	"testing"

	"github.com/mcpwire/mcpwire/policy"
)

// spec: V4 — every client's reference spelling is known to policy's checks, which
// spell it.
func TestRefStylesAreSpellings(t *testing.T) {
	for _, p := range All() {
		if got, ok := policy.SpellingOf(p.Refs.Style); !ok || got != p.Refs {
			t.Errorf("%s: reference style %q is not known to policy", p.Name, p.Refs.Style)
		}
	}
	for _, tt := range []struct {
		style policy.Spelling
		want  string
	}{{refDollar, "${T}"}, {refDollarEnv, "${env:T}"}, {refBraceEnv, "{env:T}"}, {refNames, ""}, {refNone, ""}} {
		if got := tt.style.Spell("T"); got != tt.want {
			t.Errorf("%s.Spell = %q, want %q", tt.style.Style, got, tt.want)
		}
	}
	if !refDollar.RefersTo("x ${T:-d}", "T") || refBraceEnv.RefersTo("${T}", "T") || refNone.RefersTo("${T}", "T") {
		t.Error("RefersTo follows the style")
	}
}
