package policy

import (
	"strings"
	"testing"
)

// spec: T4
// TestNameProblem: a variable name is a name; a token, a long random string or
// something that is no name at all is refused, and the reason never holds the value.
func TestNameProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		bad  bool
	}{
		{"GITHUB_PERSONAL_ACCESS_TOKEN", false},
		{"AWS_SECRET_ACCESS_KEY", false},
		{"githubToken2", false},
		{"OPENAI_API_KEY_PROJECT_2024", false},
		{"TOKEN_20240101_BACKUP", false},
		{"npm_config_registry", false}, // npm sets it
		{"hf_home", false},
		{"abcdefghijklmnopqrstuvwxyz", false},
		{"_", false},
		{"ghp_16C7e42F292c6912E7710c838347Ae178B4a", true},
		{"github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJ", true},
		{"AKIAIOSFODNN7EXAMPLE", true},
		{"npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", true},
		{"a94a8fe5ccb19ba61c4c0873d391e987982fbbd3", true}, // 40 hex digits
		{"Xk9fQ2mZ7pL4vR8sT1nB6wC3", true},
		{"sk-live-abc", true}, // not a name at all
		{"2FA_TOKEN", true},   // starts with a digit
		{"MY-TOKEN", true},    // a dash
		{"", true},
	} {
		why := NameProblem(tc.name)
		if (why != "") != tc.bad {
			t.Errorf("NameProblem(%q) = %q, want a problem: %v", tc.name, why, tc.bad)
		}
		if len(tc.name) > 4 && why != "" && strings.Contains(why, tc.name[4:]) {
			t.Errorf("NameProblem(%q) = %q: shows the value", tc.name, why)
		}
	}
}

// spec: T4
func TestExpandedFrom(t *testing.T) {
	environ := []string{"HOME=/home/me", "TICKETS_TOKEN=tk-9f8e7d", "LANG=C", "C=1", "EMPTY="}
	for v, want := range map[string]string{
		"tk-9f8e7d": "TICKETS_TOKEN", // the shell expanded $TICKETS_TOKEN
		"/home/me":  "HOME",
		"C":         "", // LANG's value, but also the name of a set variable
		"HOME":      "",
		"OTHER":     "",
		"":          "",
	} {
		if got := ExpandedFrom(v, environ); got != want {
			t.Errorf("ExpandedFrom(%q) = %q, want %q", v, got, want)
		}
	}
}

// spec: T4 H9
// TestTokenShaped: a word standing alone is a token when it starts like one and has a
// token's body, or is a long random string; paths, packages and words are not.
func TestTokenShaped(t *testing.T) {
	for w, want := range map[string]bool{
		"sk-live-H9SECRETabcdefghijklmnop":         true,
		"ghp_16C7e42F292c6912E7710c838347Ae178B4a": true,
		"Xk9fQ2mZ7pL4vR8sT1nB6wC3":                 true,
		"@modelcontextprotocol/server-filesystem":  false,
		"npm_config_registry":                      false,
		"sk-":                                      false,
		".":                                        false,
		"https://example.com/mcp":                  false,
	} {
		if got := TokenShaped(w); got != want {
			t.Errorf("TokenShaped(%q) = %v, want %v", w, got, want)
		}
	}
}
