package registry

import (
	"encoding/json"
	"testing"
)

// spec: R3 L4 L5 — profile edit's filter semantics: deny and allow patterns are unioned
// into the provider key's lists (order kept, no duplicates; an allow list stays unset
// when only deny patterns are given); an alias names the provider's key; clearing drops
// that key only, before the edit's own patterns are added; a lower-layer profile is
// copied into the write layer and the lower file is left as it was. The result is the
// same after reopening the files.
func TestEditProfileFilters(t *testing.T) {
	const org = `{"profiles": {"p": {"servers": ["a"], "providerOverrides": {
		"*": {"toolDeny": ["a__x"]},
		"claude": {"toolDeny": ["a__c"]},
		"codex": {"toolDeny": ["a__k"], "toolAllow": ["a__ok"]}
	}}}}`
	files := map[string]string{
		"org/mcp-servers.json":  `{"servers": {"a": {"command": "a-mcp"}}}`,
		"org/mcp-profiles.json": org,
	}
	type want map[string]Filters
	tests := []struct {
		name  string
		edits []ProfileEdit
		want  want
	}{
		{"deny is unioned into *", []ProfileEdit{
			{ToolDeny: []string{"a__y"}},
			{ToolDeny: []string{"a__z", "a__x", "a__y"}},
		}, want{"*": {ToolDeny: []string{"a__x", "a__y", "a__z"}}, "claude-code": {ToolDeny: []string{"a__c"}}, "codex": {ToolDeny: []string{"a__k"}, ToolAllow: []string{"a__ok"}}}},
		{"allow is unioned and leaves deny alone", []ProfileEdit{
			{Provider: "codex", ToolAllow: []string{"a__r"}},
			{Provider: "codex", ToolAllow: []string{"a__ok", "a__s"}},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "claude-code": {ToolDeny: []string{"a__c"}}, "codex": {ToolDeny: []string{"a__k"}, ToolAllow: []string{"a__ok", "a__r", "a__s"}}}},
		{"an alias names the provider's key", []ProfileEdit{
			{Provider: "claude", ToolDeny: []string{"a__d"}},
			{Provider: "openai", ToolDeny: []string{"a__k2"}},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "claude-code": {ToolDeny: []string{"a__c", "a__d"}}, "codex": {ToolDeny: []string{"a__k", "a__k2"}, ToolAllow: []string{"a__ok"}}}},
		{"a new key", []ProfileEdit{
			{Provider: "opencode", ToolDeny: []string{"a__o"}},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "claude-code": {ToolDeny: []string{"a__c"}}, "codex": {ToolDeny: []string{"a__k"}, ToolAllow: []string{"a__ok"}}, "opencode": {ToolDeny: []string{"a__o"}}}},
		{"clear drops that key only", []ProfileEdit{
			{Provider: "codex", ClearToolFilters: true},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "claude-code": {ToolDeny: []string{"a__c"}}}},
		{"clear * drops * only", []ProfileEdit{
			{ClearToolFilters: true},
		}, want{"claude-code": {ToolDeny: []string{"a__c"}}, "codex": {ToolDeny: []string{"a__k"}, ToolAllow: []string{"a__ok"}}}},
		{"clear by an alias", []ProfileEdit{
			{Provider: "claude", ClearToolFilters: true},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "codex": {ToolDeny: []string{"a__k"}, ToolAllow: []string{"a__ok"}}}},
		{"clear, then the edit's patterns", []ProfileEdit{
			{Provider: "codex", ClearToolFilters: true, ToolDeny: []string{"a__n"}},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "claude-code": {ToolDeny: []string{"a__c"}}, "codex": {ToolDeny: []string{"a__n"}}}},
		{"clear a key the profile lacks", []ProfileEdit{
			{Provider: "gemini-cli", ClearToolFilters: true},
		}, want{"*": {ToolDeny: []string{"a__x"}}, "claude-code": {ToolDeny: []string{"a__c"}}, "codex": {ToolDeny: []string{"a__k"}, ToolAllow: []string{"a__ok"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, []string{"org", "me"}, files)
			r, _ := f.load()
			for _, e := range tt.edits {
				if err := r.EditProfile("p", e); err != nil {
					t.Fatal(err)
				}
			}
			wantJSON := mustJSON(t, tt.want)
			p, _ := r.Profile("p")
			if got := mustJSON(t, p.ProviderOverrides); got != wantJSON {
				t.Errorf("in memory:\n got %s\nwant %s", got, wantJSON)
			}
			if o := r.ProfileOrigin("p"); o != f.path("me/mcp-profiles.json") {
				t.Errorf("origin %s: the edit is not copied into the write layer", o)
			}
			if f.read("org/mcp-profiles.json") != org {
				t.Error("the lower layer's file changed")
			}
			r2, _ := f.load()
			p2, _ := r2.Profile("p")
			if got := mustJSON(t, p2.ProviderOverrides); got != wantJSON {
				t.Errorf("reopened:\n got %s\nwant %s", got, wantJSON)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
