package registry

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// spec: S1 R1 — the secret fields are read, written back and copied; AIWG keeps them
// as unknown members.
func TestSecretFieldsRoundTrip(t *testing.T) {
	in := `{"name":"gh","command":"npx","envSecret":{"GITHUB_TOKEN":"op://Private/GitHub/token"},"x-other":1}`
	var s Server
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if s.EnvSecret["GITHUB_TOKEN"] != "op://Private/GitHub/token" || s.Extra["envSecret"] != nil {
		t.Fatalf("decoded %+v", s)
	}
	r := Server{Name: "n", URL: "https://h.example/mcp", HeaderSecret: map[string]string{"X-Key": "keyring:svc/acc"}, BearerSecret: "pass:notes/token"}
	c := r.Clone()
	if !reflect.DeepEqual(c.HeaderSecret, r.HeaderSecret) || c.BearerSecret != r.BearerSecret {
		t.Fatalf("clone %+v", c)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"headerSecret":{"X-Key":"keyring:svc/acc"},"bearerSecret":"pass:notes/token"`) {
		t.Errorf("encoded %s", b)
	}
	if uses := r.Secrets(); len(uses) != 2 || uses[0].Field != "headerSecret.X-Key" || uses[1].Field != "bearerSecret" || !r.HasSecrets() {
		t.Errorf("Secrets = %+v", uses)
	}
}

// spec: S1 R8 — a malformed reference, a bad key, or a key given two sources is refused
// naming the field and key, never the value.
func TestSecretFieldsValidate(t *testing.T) {
	const secret = "ghp_SECRETVALUE0123456789abcdefABCDEF0123"
	for _, tc := range []struct {
		s    Server
		want string
	}{
		{Server{Name: "a", Command: "x", EnvSecret: map[string]string{"TOKEN": secret}}, "envSecret.TOKEN: not a secret reference"},
		{Server{Name: "a", Command: "x", EnvSecret: map[string]string{"TOKEN": "pass:../x"}}, "envSecret.TOKEN: a pass: reference"},
		{Server{Name: "a", Command: "x", EnvSecret: map[string]string{"1T": "pass:x"}}, "envSecret: a key is not a valid variable name"},
		{Server{Name: "a", Command: "x", EnvSecret: map[string]string{"T": "pass:x"}, Env: map[string]string{"T": "v"}}, "envSecret.T: the key has a value"},
		{Server{Name: "a", Command: "x", EnvSecret: map[string]string{"T": "pass:x"}, EnvFrom: map[string]string{"T": "V"}}, "envSecret.T: the key has a value"},
		{Server{Name: "a", URL: "https://h", HeaderSecret: map[string]string{"X Y": "pass:x"}}, "headerSecret: a key is not a valid header name"},
		{Server{Name: "a", URL: "https://h", HeaderSecret: map[string]string{"X-Key": secret}}, "headerSecret.X-Key: not a secret reference"},
		{Server{Name: "a", URL: "https://h", HeaderSecret: map[string]string{"x-key": "pass:x"}, Headers: map[string]string{"X-Key": "v"}}, "headerSecret.x-key: the header has a value"},
		{Server{Name: "a", URL: "https://h", HeaderSecret: map[string]string{"authorization": "pass:x"}, BearerSecret: "pass:y"}, "headerSecret.authorization: the bearer token"},
		{Server{Name: "a", URL: "https://h", BearerSecret: "Bearer " + secret}, "bearerSecret: not a secret reference"},
		{Server{Name: "a", URL: "https://h", BearerSecret: "pass:x", BearerEnv: "T"}, "bearerSecret: the bearer token comes from"},
		{Server{Name: "a", URL: "https://h", BearerSecret: "pass:x", Headers: map[string]string{"Authorization": "x"}}, "bearerSecret: the Authorization header"},
	} {
		err := tc.s.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		} else if strings.Contains(err.Error(), "SECRETVALUE") {
			t.Errorf("the error quotes the value: %v", err)
		}
	}
	ok := Server{Name: "a", Command: "x", EnvSecret: map[string]string{"T": "file:/run/secrets/t"}, Env: map[string]string{"U": "v"}}
	if err := ok.Validate(); err != nil {
		t.Error(err)
	}
}

// spec: S1 R2 — secrets of the other transport are refused on add, as every field of
// it is.
func TestSecretFieldsTransport(t *testing.T) {
	for _, tc := range []struct {
		s    Server
		want string
	}{
		{Server{Name: "a", Type: Stdio, Command: "x", BearerSecret: "pass:x"}, "bearerSecret: not used by a stdio server"},
		{Server{Name: "a", Type: Stdio, Command: "x", HeaderSecret: map[string]string{"X": "pass:x"}}, "headerSecret: not used by a stdio server"},
		{Server{Name: "a", Type: HTTP, URL: "https://h", EnvSecret: map[string]string{"X": "pass:x"}}, "envSecret: not used by an http server"},
	} {
		if err := checkTransport(&tc.s, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v", tc.s, err)
		}
	}
}
