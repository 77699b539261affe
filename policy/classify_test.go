package policy

import (
	"slices"
	"strings"
	"testing"
)

// spec: R8 — the members whose whole content is credentials, however a client spells
// them; maps of variable names are not.
func TestCredentialMap(t *testing.T) {
	for name, want := range map[string]bool{
		"env": true, "ENV": true, "envs": true, "environment": true, "headers": true, "http_headers": true,
		"httpHeaders": true, "HTTPHeaders": true, "http-headers": true, "requestHeaders": true,
		"auth": true, "oauth": true, "OAuth": true, "o_auth": true,
		"env_http_headers": false, "envHttpHeaders": false, "headerEnv": false, "header_env": false,
		"bearer_token_env_var": false, "env_vars": false, "envFrom": false, "tokenEnv": false, "apiKeyEnv": false, "plainEnv": false, "plainHeaders": false,
		"bearerEnv": false, "header": false, "command": false, "args": false, "pw": false, "": false, "--": false,
	} {
		if got := CredentialMap(name); got != want {
			t.Errorf("CredentialMap(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	for name, want := range map[string][]string{
		"envHttpHeaders": {"env", "http", "headers"}, "HTTPHeaders": {"http", "headers"},
		"bearer_token_env_var": {"bearer", "token", "env", "var"}, "OAuth": {"o", "auth"}, "x.y-Z": {"x", "y", "z"},
		"mcpServers": {"mcp", "servers"}, "": nil, "ABc": {"a", "bc"}, "XHeaders": {"x", "headers"}, "a1B2": {"a1b2"},
	} {
		if got := words(name); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", name, got, want)
		}
		if len(want) > 0 && strings.ToLower(lastWord(strings.TrimRight(name, ".-_"))) != want[len(want)-1] {
			t.Errorf("lastWord(%q) = %q", name, lastWord(name))
		}
	}
}

// spec: R8 — values hidden wherever they appear, not only where they stand whole.
func TestSecretShaped(t *testing.T) {
	for v, want := range map[string]bool{
		"sk-live-1": true, "abcdefgh": true, "ab1c": true, "a-bc": true, "12345678": true,
		"true": false, "info": false, "8080": false, "abc": false, "": false,
	} {
		if got := SecretShaped(v); got != want {
			t.Errorf("SecretShaped(%q) = %v, want %v", v, got, want)
		}
	}
}
