package suggest

import (
	"slices"
	"strings"
	"testing"
)

// spec: U1
func TestClosest(t *testing.T) {
	cmds := []string{"server", "profile", "inject", "uninject", "layers", "providers", "probe"}
	for _, tt := range []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"injcet", cmds, []string{"inject"}},
		{"provder", []string{"provider", "project", "profile"}, []string{"provider"}},
		{"cluade", []string{"claude-code", "claude", "codex"}, []string{"claude"}},
		{"dialy", []string{"daily", "dev"}, []string{"daily"}},
		{"notse", []string{"notes", "tickets"}, []string{"notes"}},
		{"Notes", []string{"notes"}, []string{"notes"}},
		{"prob", cmds, []string{"probe"}},
		{"zzz", cmds, nil},
		{"x", []string{"y", "z"}, []string{"y", "z"}},
	} {
		if got := Closest(tt.name, tt.candidates); !slices.Equal(got, tt.want) {
			t.Errorf("Closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// spec: U1 — no close name: the list, at most 20, and how many more.
func TestHint(t *testing.T) {
	if got := Hint("notse", []string{"notes"}, "%q"); got != `did you mean "notes"?` {
		t.Error(got)
	}
	if got := Hint("zzz", []string{"a1", "b1"}, "%q"); got != "one of: a1, b1" {
		t.Error(got)
	}
	var many []string
	for i := range 25 {
		many = append(many, strings.Repeat("n", i+5))
	}
	got := Hint("zzz", many, "%q")
	if !strings.HasSuffix(got, " (and 5 more)") || strings.Count(got, ",") != 19 {
		t.Error(got)
	}
	if Hint("x", nil, "%q") != "" {
		t.Error("no candidates")
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"ab", "ba", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}, {"héllo", "hello", 1}} {
		if d := distance(tt.a, tt.b); d != tt.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, d, tt.d)
		}
	}
}
