package policy

import (
	"encoding/json"
	"slices"
	"testing"
)

// CheckEntry reads every string of a client entry as its file has it, whatever its
// shape, and names what it finds by member path, never by value.
//
// spec: K5 K6 P11
func TestCheckEntry(t *testing.T) {
	const gh = "ghp_0123456789abcdefghijklmnopqrstuvwxyz"
	for _, c := range []struct {
		name     string
		entry    string
		examined []string
		want     []string
		forms    []string
	}{
		{"an odd args list beside env", `{"command": "x", "args": [1], "env": {"GITHUB_TOKEN": "` + gh + `", "LOG_LEVEL": "debug"}}`, nil,
			[]string{"env.GITHUB_TOKEN"}, nil},
		{"an unknown transport with a Bearer header", `{"type": "ws", "url": "wss://h", "headers": {"Authorization": "Bearer abc123abc123"}}`, nil,
			[]string{"headers.Authorization"}, nil},
		{"Zed's nested command object", `{"command": {"path": "npx", "args": ["-k", "` + gh + `"], "env": {"API_KEY": "sk-live-x"}}}`, nil,
			[]string{"command.args ghp_… token", "command.env.API_KEY"}, nil},
		{"Codex's command = 5 and its variable names", `{"command": 5, "env_vars": ["GITHUB_TOKEN"], "env_http_headers": {"Authorization": "GITHUB_TOKEN"}, "bearer_token_env_var": "TOKEN_VAR"}`, nil,
			nil, nil},
		{"a credential name anywhere, a type kept", `{"type": "builtin", "settings": {"api_key": "k-1234", "type": "token"}}`, nil,
			[]string{"settings.api_key"}, nil},
		{"free text and URLs", `{"description": "run with Bearer abcdefgh1234", "url": "https://u:p@h.example/?api_key=zzz"}`, nil,
			[]string{"description Bearer", "url url userinfo", "url url query api_key"}, nil},
		{"references pass", `{"env": {"API_KEY": "${API_KEY}"}, "headers": {"Authorization": "Bearer ${TOKEN}"}, "args": ["--token=${T}"]}`, nil,
			nil, nil},
		{"a command line", `{"command": "srv --api-key sk-live-x ` + gh + `"}`, nil,
			[]string{"command --api-key", "command ghp_… token"}, nil},
		{"strings checked already are left to the caller", `{"command": "x", "args": ["` + gh + `"], "env": {"API_KEY": "sk-live-x"}, "apiKey": "sk-live-y"}`,
			[]string{"x", gh, "sk-live-x"}, []string{"apiKey"}, nil},
		{"an entry that is a string", `"` + gh + `"`, nil, []string{"entry ghp_… token"}, nil},
		// spec: T1 — Gemini CLI resolves a bare $VAR in env: a reference there, not a
		// credential; a client that does not resolve it holds a literal
		{"a bare $VAR where the client resolves it", `{"env": {"GITHUB_TOKEN": "$GITHUB_TOKEN"}}`, nil, nil,
			[]string{StyleDollar, StyleBareDollar}},
		{"a bare $VAR where the client does not", `{"env": {"GITHUB_TOKEN": "$GITHUB_TOKEN"}}`, nil, []string{"env.GITHUB_TOKEN"},
			[]string{StyleDollar}},
	} {
		var v any
		if err := json.Unmarshal([]byte(c.entry), &v); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, x := range CheckEntry("s", v, c.examined, c.forms) {
			if x.Server != "s" {
				t.Errorf("%s: server %q", c.name, x.Server)
			}
			got = append(got, x.Field)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
