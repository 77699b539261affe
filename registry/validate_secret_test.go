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
