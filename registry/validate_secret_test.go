package registry

import (
	"strings"
	"testing"
)

// spec: R8 R2 — a token passed where a variable or header name belongs is refused
// naming the field, never quoting what was passed.
func TestValidateQuotesNoValue(t *testing.T) {
	const secret = "ghp-SECRETVALUE123"
	for _, s := range []Server{
		{Name: "a", URL: "https://h", HeaderEnv: map[string]string{"Authorization": "Bearer " + secret}},
		{Name: "a", URL: "https://h", HeaderEnv: map[string]string{"Bearer " + secret: "T"}},
		{Name: "a", URL: "https://h", Headers: map[string]string{"Bearer " + secret: "v"}},
		{Name: "a", Command: "x", EnvFrom: map[string]string{"A": secret}},
		{Name: "a", Command: "x", EnvFrom: map[string]string{secret: "A"}},
		{Name: "a", Command: "x", Env: map[string]string{"T=" + secret: "v"}},
		{Name: "a", URL: "https://h", BearerEnv: "Bearer " + secret},
	} {
		err := s.Validate()
		if err == nil {
			t.Fatalf("%+v: no error", s)
		}
		if msg := err.Error(); strings.Contains(msg, "SECRETVALUE") || !strings.Contains(msg, "not a valid") {
			t.Errorf("error %q", msg)
		}
	}
}

// TestValidateSecretsFirstKey: of several bad secret keys, the error names the first
// in sorted order, every time, though the keys are looked at in map order first
// (issue 31).
//
// spec: S1
func TestValidateSecretsFirstKey(t *testing.T) {
	s := Server{Name: "a", Command: "x", Env: map[string]string{}, EnvSecret: map[string]string{}}
	for _, k := range []string{"K7", "K3", "K9", "K5", "K1", "K8", "K2"} {
		s.Env[k] = "v"
		s.EnvSecret[k] = "pass:other"
	}
	for range 50 {
		err := s.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), "envSecret.K1:") {
			t.Fatalf("error %v, want envSecret.K1 named", err)
		}
	}
}

// TestValidateSortsNoKeys: validating a server whose secret fields are in order
// allocates nothing, so that loading 10,000 servers sorts no keys (issue 31: two
// sorts of every server were 40% of the objects of `server list`).
//
// spec: S1 H14
func TestValidateSortsNoKeys(t *testing.T) {
	s := Server{Name: "a", Command: "npx", Args: []string{"-y", "srv"},
		Env: map[string]string{"LOG": "info"}, EnvFrom: map[string]string{"API_TOKEN": "EXAMPLE_TOKEN"},
		EnvSecret: map[string]string{"DB_PASSWORD": "file:/run/secrets/db", "OTHER": "file:/run/secrets/other"}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = s.Validate() }); n != 0 {
		t.Errorf("Validate allocated %.0f objects, want none", n)
	}
}
