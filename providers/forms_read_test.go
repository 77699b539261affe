package providers

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/registry"
)

// TestReadBackForms: each client's forms read back into the registry's fields and
// forms (T1); a form the client does not resolve stays as it is and is named (T2).
//
// spec: T1 T2 T3
func TestReadBackForms(t *testing.T) {
	for _, c := range []struct {
		provider, entry string
		want            registry.Server
		unresolved      []Unresolved
	}{
		{"gemini-cli", `{"command":"gh","args":["--cache=$HOME/x"],"env":{"T":"$GITHUB_TOKEN","P":"pa$word"}}`,
			registry.Server{Type: "stdio", Command: "gh", Args: []string{"--cache=${HOME}/x"}, Env: map[string]string{"P": "pa${word}"}, EnvFrom: map[string]string{"T": "GITHUB_TOKEN"}}, nil},
		{"claude-code", `{"command":"gh","env":{"T":"$GITHUB_TOKEN","K":"${input:k}","E":"${env:E}","P":"pa$word"}}`,
			registry.Server{Type: "stdio", Command: "gh", Env: map[string]string{"T": "$GITHUB_TOKEN", "K": "${input:k}", "E": "${env:E}", "P": "pa$word"}},
			[]Unresolved{{"env.E", "${env:VAR}"}, {"env.K", "${input:ID}"}, {"env.T", "$VAR"}}},
		{"vscode", `{"type":"http","url":"https://h/mcp","headers":{"Authorization":"Bearer ${input:tk}","X-Team":"${env:TEAM}","X-Home":"${userHome}/a"}}`,
			registry.Server{Type: "http", URL: "https://h/mcp", Headers: map[string]string{"X-Home": "${userHome}/a"}, HeaderEnv: map[string]string{"X-Team": "TEAM"}, BearerInput: "tk"}, nil},
		{"codex", `{"command":"gh","args":["${HOME}"],"env_vars":["GH"]}`,
			registry.Server{Type: "stdio", Command: "gh", Args: []string{"${HOME}"}, EnvFrom: map[string]string{"GH": "GH"}},
			[]Unresolved{{"args[0]", "${VAR}"}}},
		{"goose", `{"type":"streamable_http","uri":"https://h/mcp","headers":{"A":"$TOK","B":"x-${TOK2}"},"env_keys":["TOK","TOK2"]}`,
			registry.Server{Type: "http", URL: "https://h/mcp", Headers: map[string]string{"B": "x-${TOK2}"}, HeaderEnv: map[string]string{"A": "TOK"}}, nil},
	} {
		p, _ := Get(c.provider)
		im, err := ReadBack(Target{P: p, Scope: User}, p.Dialect(), json.RawMessage(c.entry))
		if err != nil {
			t.Errorf("%s: %v", c.provider, err)
			continue
		}
		got, _ := json.Marshal(im.Server)
		want, _ := json.Marshal(&c.want)
		if string(got) != string(want) {
			t.Errorf("%s: read\n got %s\nwant %s", c.provider, got, want)
		}
		if !reflect.DeepEqual(im.Unresolved, c.unresolved) {
			t.Errorf("%s: unresolved %v, want %v", c.provider, im.Unresolved, c.unresolved)
		}
	}
}

// TestReadSnippetForms: a pasted entry's references in any client's form are read,
// a bare $VAR only as a whole value (inside a value of an unknown client it is text).
//
// spec: T1 B3
func TestReadSnippetForms(t *testing.T) {
	p, _ := Get("claude-code")
	im, err := ReadSnippet(p, json.RawMessage(`{"command":"x","env":{"A":"$A_TOKEN","B":"pa$word","C":"{env:C}","D":"${input:d}"}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := im.Server
	if !reflect.DeepEqual(s.EnvFrom, map[string]string{"A": "A_TOKEN", "C": "C"}) || !reflect.DeepEqual(s.Env, map[string]string{"B": "pa$word"}) ||
		!reflect.DeepEqual(s.EnvInput, map[string]string{"D": "d"}) {
		t.Errorf("read %+v", s)
	}
}
