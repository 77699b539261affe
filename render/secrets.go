package render

import (
	"strings"

	"github.com/mcpwire/mcpwire/registry"
)

// SecretCheck reports whether a reference to a secret store resolves, without its
// value (S4: status, audit); its error names the reference and the store's error.
type SecretCheck func(ref string) error

// SecretChecks checks each reference of a run once.
type SecretChecks struct {
	check SecretCheck
	done  map[string]error
}

func NewSecretChecks(check SecretCheck) *SecretChecks {
	return &SecretChecks{check: check, done: map[string]error{}}
}

// unresolved are the references of s that do not resolve, as "FIELD: ERROR" (the
// error names the reference and what its store said, never a value).
func (c *SecretChecks) Unresolved(s *registry.Server) []string {
	if c == nil || c.check == nil {
		return nil
	}
	var out []string
	for _, u := range s.Secrets() {
		err, ok := c.done[u.Ref]
		if !ok {
			err = c.check(u.Ref)
			c.done[u.Ref] = err
		}
		if err != nil {
			out = append(out, u.Field+": "+err.Error())
		}
	}
	return out
}

// LaunchVariable reports whether a variable is one mcpwire sets where the client
// starts (providers.SecretVariable): status and explain do not look for it in their
// own environment; status checks the references instead.
func LaunchVariable(v string) bool { return strings.HasPrefix(v, "MCPWIRE_SECRET_") }

// UnresolvedSecrets are the secret references of s that do not resolve with check (S4:
// explain), as "FIELD: ERROR"; nil with no check.
func UnresolvedSecrets(check SecretCheck, s *registry.Server) []string {
	return NewSecretChecks(check).Unresolved(s)
}
