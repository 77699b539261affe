package registry

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestInputsRoundTrip: a server's inputs (T3) decode and encode again as they were,
// a declaration's other members (VS Code's type, default, options) kept in order.
//
// spec: T3
func TestInputsRoundTrip(t *testing.T) {
	in := `{"name":"px","type":"stdio","command":"px-mcp","envInput":{"PERPLEXITY_API_KEY":"perplexity-key"},` +
		`"inputs":[{"id":"perplexity-key","description":"Perplexity API key","password":true,"default":"","type":"promptString"}]}`
	var s Server
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if s.EnvInput["PERPLEXITY_API_KEY"] != "perplexity-key" || len(s.Inputs) != 1 || !s.Inputs[0].Password || s.Inputs[0].Extra["type"] == nil {
		t.Fatalf("decoded %+v", s)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"px","type":"stdio","command":"px-mcp","envInput":{"PERPLEXITY_API_KEY":"perplexity-key"},` +
		`"inputs":[{"id":"perplexity-key","description":"Perplexity API key","password":true,"default":"","type":"promptString"}]}`
	if string(out) != want {
		t.Errorf("encoded\n%s\nwant\n%s", out, want)
	}
	if err := s.Validate(); err != nil {
		t.Errorf("valid server refused: %v", err)
	}
}

// TestInputsValidate: keys, ids and where inputs may go are checked, naming the field.
//
// spec: T3
func TestInputsValidate(t *testing.T) {
	for _, c := range []struct {
		s    Server
		want string
	}{
		{Server{Name: "a", Command: "x", EnvInput: map[string]string{"1BAD": "id"}}, "envInput: a key is not a valid variable name"},
		{Server{Name: "a", Command: "x", EnvInput: map[string]string{"K": "has space"}}, "envInput.K: not a valid input id"},
		{Server{Name: "a", Type: HTTP, URL: "https://h/", HeaderInput: map[string]string{"X-K": "a}b"}}, "headerInput.X-K: not a valid input id"},
		{Server{Name: "a", Command: "x", BearerInput: "tk"}, "bearerInput: only http and sse servers send headers"},
		{Server{Name: "a", Type: HTTP, URL: "https://h/", BearerInput: "tk", BearerEnv: "T"}, "bearerInput: the bearer token comes from bearerEnv already"},
		{Server{Name: "a", Command: "x", Inputs: []Input{{ID: "a"}, {ID: "a"}}}, "inputs: input a is declared twice"},
		{Server{Name: "a", Command: "x", EnvInput: map[string]string{"K": "id"}, EnvFrom: map[string]string{"K": "V"}}, "envInput.K: the key has a value in env or envFrom already"},
	} {
		err := c.s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// TestInputVariable: the documented derivation (docs/inject.md).
//
// spec: T3
func TestInputVariable(t *testing.T) {
	for id, want := range map[string]string{"perplexity-key": "MCP_INPUT_PERPLEXITY_KEY", "tk": "MCP_INPUT_TK", "a.b c": "MCP_INPUT_A_B_C", "Ümlaut": "MCP_INPUT__MLAUT"} {
		if got := InputVariable(id); got != want {
			t.Errorf("InputVariable(%q) = %q, want %q", id, got, want)
		}
	}
}
