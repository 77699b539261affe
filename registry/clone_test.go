package registry

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

// cloneCases are servers whose every field and odd value Clone must copy as the JSON
// round trip does.
func cloneCases() []*Server {
	on := true
	return []*Server{
		{},
		{Name: "a", Command: "x", Args: []string{"-y", "p"}, Env: map[string]string{"A": "b"}},
		{Name: "empty", Args: []string{}, Env: map[string]string{}, Headers: map[string]string{}, Auth: map[string]any{},
			Inputs: []Input{}, Extra: map[string]json.RawMessage{}, PlainEnv: []string{}},
		{Name: "full", Type: HTTP, URL: "https://h/<mcp>?a&b", Headers: map[string]string{"X": "<y>"},
			Command: "c", Args: []string{"<a>"}, Env: map[string]string{"E": "<v>"}, PlainEnv: []string{"E"},
			PlainHeaders: []string{"X"}, HeaderEnv: map[string]string{"H": "V"}, BearerEnv: "T", EnvInput: map[string]string{"E": "i"},
			HeaderInput: map[string]string{"H2": "j"}, BearerInput: "k", Cwd: "/w", Enabled: &on, Description: "d & e",
			EnvSecret: map[string]string{"S": "op://v/i/f"}, HeaderSecret: map[string]string{"X-S": "pass:x"}, BearerSecret: "keyring:s/a",
			InjectedProviders: []string{"cursor"}, AddedAt: "t1", UpdatedAt: "t2", EnvFrom: map[string]string{"K": "VAR"},
			Inputs:  []Input{{ID: "i", Description: "<pw>", Password: true, Extra: map[string]json.RawMessage{"type": json.RawMessage(` "promptString" `)}}, {ID: "j"}},
			Timeout: json.RawMessage(" {\"a\": [1, 2] , \"b\":\"<&>\"} "), WorkerQualification: json.RawMessage(`"x"`),
			Auth:  map[string]any{"n": 1.5, "s": "<s>", "b": true, "z": nil, "l": []any{"a", 2.0, nil, map[string]any{}}, "m": map[string]any{"k": []any{}}},
			OAuth: map[string]any{"nil map": map[string]any(nil), "nil list": []any(nil), "neg": math.Copysign(0, -1)},
			Extra: map[string]json.RawMessage{"zz": json.RawMessage(" [1, {\"a\" : \"<b>\u2028\"}] "), "nul": json.RawMessage("null")}},
		{Name: "null raw", Timeout: json.RawMessage("null"), WorkerQualification: json.RawMessage(" null ")},
		// what only the JSON round trip gives (cloneFields steps aside)
		{Name: "bad \xff utf-8", Command: "x\xfe"},
		{Name: "int", Auth: map[string]any{"n": 3, "l": []string{"a"}}},
		{Name: "field", Extra: map[string]json.RawMessage{"command": json.RawMessage(`"other"`)}},
		{Name: "input field", Inputs: []Input{{ID: "i", Extra: map[string]json.RawMessage{"id": json.RawMessage(`"j"`)}}}},
	}
}

// Clone gives what the JSON round trip gives (its definition), without it where it can
// (K7).
func TestCloneIsTheJSONRoundTrip(t *testing.T) {
	fast := 0
	for _, s := range cloneCases() {
		want := s.cloneJSON()
		if got := s.Clone(); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: Clone\n%#v\nJSON round trip\n%#v", s.Name, got, want)
		}
		if _, ok := s.cloneFields(); ok {
			fast++
		}
	}
	if fast != 5 {
		t.Errorf("%d of the servers cloned field by field, want 5", fast)
	}
}

// The full case sets every field of a server, so that Clone is checked on a field
// added later: cloneFields copies each by name, and one it does not name is lost.
func TestCloneCasesSetEveryField(t *testing.T) {
	full := reflect.ValueOf(*cloneCases()[3])
	for i := range full.NumField() {
		if full.Field(i).IsZero() {
			t.Errorf("the full clone case leaves %s unset: set it, and copy it in cloneFields", full.Type().Field(i).Name)
		}
	}
}

// A clone shares nothing with its server.
func TestCloneIsDeep(t *testing.T) {
	s := cloneCases()[3]
	c := s.Clone()
	c.Args = append(c.Args, "x")
	c.Headers["X"] = "changed"
	c.Inputs[0].Extra["type"] = nil
	c.Auth["m"].(map[string]any)["k"] = "changed"
	c.Auth["l"].([]any)[0] = "changed"
	*c.Enabled = false
	c.Timeout[1] = ' '
	if !reflect.DeepEqual(s.cloneJSON(), cloneCases()[3].cloneJSON()) {
		t.Errorf("changing the clone changed the server")
	}
}

// FuzzCloneMatchesJSON: Clone of any server a layer file can hold gives what the JSON
// round trip gives.
func FuzzCloneMatchesJSON(f *testing.F) {
	for _, s := range cloneCases()[:5] {
		b, _ := json.Marshal(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Server
		if json.Unmarshal(b, &s) != nil {
			return
		}
		if _, err := json.Marshal(&s); err != nil {
			return // Clone panics as the round trip does
		}
		if got, want := s.Clone(), s.cloneJSON(); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: Clone %#v, JSON round trip %#v", b, got, want)
		}
	})
}

// A server's entry is what the encoder writes of it, byte for byte.
func TestEntryJSONOfServer(t *testing.T) {
	for _, s := range cloneCases()[:5] {
		want, err := jsonc.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := entryJSON(s); string(got) != string(want) {
			t.Errorf("%q: %s, want %s", s.Name, got, want)
		}
	}
}

// spec: K7
// Clone copies a server field by field: a handful of allocations, not the dozens of a
// JSON round trip (an import of 200,000 servers cloned each twice that way).
func TestCloneAllocations(t *testing.T) {
	s := &Server{Name: "gh", Type: Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
		Env: map[string]string{"LOG": "info"}, EnvFrom: map[string]string{"GITHUB_TOKEN": "GH_TOKEN"}}
	fields := testing.AllocsPerRun(100, func() { s.Clone() })
	viaJSON := testing.AllocsPerRun(100, func() { s.cloneJSON() })
	t.Logf("Clone: %.0f allocations; through JSON: %.0f", fields, viaJSON)
	if fields > 8 {
		t.Errorf("Clone made %.0f allocations, at most 8", fields)
	}
}
