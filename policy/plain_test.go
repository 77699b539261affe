package policy

import (
	"slices"
	"strings"
	"testing"
)

// spec: P11 — which env keys and values can be declared plain.
func TestPlainEnvProblem(t *testing.T) {
	for _, tt := range []struct{ key, value, want string }{
		{"MEMORY_FILE_PATH", "/data/memory.json", ""},
		{"PORT", "8080", ""},
		{"LOG_LEVEL", "debug", ""},
		{"API_URL", "https://api.example/v1", ""},
		{"GITHUB_TOKEN", "x", "contains TOKEN"},
		{"OPENAI_API_KEY", "x", "contains KEY"},
		{"client_secret", "x", "contains SECRET"},
		{"DB_PASSWORD", "x", "contains PASSWORD"},
		{"OAUTH_CLIENT", "x", "contains AUTH"},
		{"COOKIE_JAR", "x", "contains COOKIE"},
		{"SESSION_ID", "x", "contains SESSION"},
		{"DB_PASS", "x", "marks a credential"},
		{"GH_PAT", "x", "marks a credential"},
		{"X", "ghp_abcdef0123456789", "well-known token (ghp_…)"},
		{"X", " sk-ant-api03-xyz", "well-known token (sk-…)"},
		{"X", "xoxb-1-2", "xoxb-"},
		{"X", "AKIAIOSFODNN7EXAMPLE", "AKIA"},
		{"X", "eyJhbGciOiJIUzI1NiJ9.e30.x", "eyJ"},
		{"DSN", "postgres://me:pw@db/x", "URL with userinfo"},
		{"CONN", "host=db dsn=https://u:p@h/x", "url userinfo"},
		{"ENDPOINT", "https://h/x?api_key=abc123", "url query api_key"},
		{"HDR", "Bearer abc123", "Bearer"},
	} {
		got := PlainEnvProblem(tt.key, tt.value)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("PlainEnvProblem(%s) = %q, want %q", tt.key, got, tt.want)
		}
		if tt.value != "x" && len(tt.value) > 4 && strings.Contains(got, strings.TrimSpace(tt.value)) {
			t.Errorf("the reason %q holds the value", got)
		}
	}
}

// spec: P11 P1 P7 — keys declared plain pass P1 at every level and P7; a declared
// key whose name or value looks like a credential is refused as any literal, saying
// why; keys not declared are unaffected.
func TestPlainEnvExempt(t *testing.T) {
	f := Fields{Server: "mem", Env: map[string]string{
		"MEMORY_FILE_PATH": "/data/m.json", "API_TOKEN": "sk-1", "X": "ghp_abc", "OTHER": "/tmp",
	}, PlainEnv: map[string]bool{"MEMORY_FILE_PATH": true, "API_TOKEN": true, "X": true}}
	want := []Violation{
		{"mem", "env.API_TOKEN declared plain, but the name API_TOKEN contains TOKEN, which marks a credential"},
		{"mem", "env.OTHER"},
		{"mem", "env.X declared plain, but its value starts like a well-known token (ghp_…)"},
	}
	for _, got := range [][]Violation{Check(References, f), Check(None, f), CheckProject(f)} {
		if !slices.Equal(got, want) {
			t.Errorf("got %v\nwant %v", got, want)
		}
	}
	if got := Check(Literal, f); len(got) != 0 {
		t.Errorf("literal: %v", got)
	}
	if h := PlainHint(want); len(h) != 1 || !strings.Contains(h[0], "server update mem --env-plain OTHER=VALUE") {
		t.Errorf("PlainHint %q", h)
	}
	if h := PlainHint([]Violation{{"a", "env.API_KEY"}, {"a", "headers.X"}}); h != nil {
		t.Errorf("a credential-named key is no plain candidate: %q", h)
	}
}

// spec: H10 P11 P1 P7 — headers declared plain pass as plain env keys do; a declared
// header whose name or value looks like a credential is refused as any literal,
// saying why; headers not declared are unaffected.
func TestPlainHeadersExempt(t *testing.T) {
	f := Fields{Server: "api", Headers: map[string]string{
		"X-Team": "platform", "X-Api-Key": "k1", "X-Note": "Bearer abc123", "X-Other": "o",
	}, PlainHeaders: map[string]bool{"X-Team": true, "X-Api-Key": true, "X-Note": true}}
	want := []Violation{
		{"api", "headers.X-Api-Key declared plain, but the name X-Api-Key contains KEY, which marks a credential"},
		{"api", "headers.X-Note declared plain, but its value carries a credential (Bearer)"},
		{"api", "headers.X-Other"},
	}
	for _, got := range [][]Violation{Check(References, f), Check(None, f), CheckProject(f)} {
		if !slices.Equal(got, want) {
			t.Errorf("got %v\nwant %v", got, want)
		}
	}
}
