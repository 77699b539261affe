package providers

import (
	"testing"
)

// spec: B7 L14 — only a dialect that records entries of its own (opencode's tools keys)
// reads a record key with its prefix as one of them; every other key is a server,
// ':' or not.
func TestRecordedMember(t *testing.T) {
	for _, tc := range []struct {
		provider, key string
		member        bool
		wantKey       string
	}{
		{"opencode", "tools:github_*", true, "github_*"},
		{"opencode", "npm:pkg", false, ""},
		{"opencode", "github", false, ""},
		{"claude-code", "tools:github_*", false, ""},
		{"codex", "npm:pkg", false, ""},
	} {
		p, ok := Get(tc.provider)
		if !ok {
			t.Fatalf("no provider %s", tc.provider)
		}
		_, key, member := RecordedMember(p.Dialect(), tc.key)
		if member != tc.member || key != tc.wantKey {
			t.Errorf("%s %q: member %v key %q, want %v %q", tc.provider, tc.key, member, key, tc.member, tc.wantKey)
		}
	}
}
