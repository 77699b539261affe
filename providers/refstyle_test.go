package providers

import (
	"testing"

	"github.com/mcpwire/mcpwire/policy"
)

// spec: V4 — every client's reference style is a spelling declared to policy, which
// spells it.
func TestRefStylesAreSpellings(t *testing.T) {
	for _, p := range All() {
		if _, ok := policy.SpellingOf(string(p.Refs)); !ok {
			t.Errorf("%s: reference style %q is not declared to policy", p.Name, p.Refs)
		}
	}
	for style, want := range map[RefStyle]string{RefDollar: "${T}", RefDollarEnv: "${env:T}", RefBraceEnv: "{env:T}", RefNames: "", RefNone: ""} {
		if got := style.Spell("T"); got != want {
			t.Errorf("%s.Spell = %q, want %q", style, got, want)
		}
	}
	if !RefDollar.RefersTo("x ${T:-d}", "T") || RefBraceEnv.RefersTo("${T}", "T") || RefNone.RefersTo("${T}", "T") {
		t.Error("RefersTo follows the style")
	}
}
