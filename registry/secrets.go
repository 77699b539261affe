package registry

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/policy"
)

// SecretUse is one reference to a secret store a server holds: the registry field
// naming it (envSecret.K, headerSecret.H, bearerSecret) and the reference.
type SecretUse struct {
	Field string
	Ref   string
}

// Secrets lists the server's references to secret stores (S1), in field order: env
// keys, headers, then the bearer token, each sorted.
func (s *Server) Secrets() []SecretUse {
	var out []SecretUse
	for _, k := range sortedKeys(s.EnvSecret) {
		out = append(out, SecretUse{"envSecret." + k, s.EnvSecret[k]})
	}
	for _, h := range sortedKeys(s.HeaderSecret) {
		out = append(out, SecretUse{"headerSecret." + h, s.HeaderSecret[h]})
	}
	if s.BearerSecret != "" {
		out = append(out, SecretUse{"bearerSecret", s.BearerSecret})
	}
	return out
}

// HasSecrets reports whether the server takes a value from a secret store.
func (s *Server) HasSecrets() bool {
	return len(s.EnvSecret) > 0 || len(s.HeaderSecret) > 0 || s.BearerSecret != ""
}

// validateSecrets checks the secret fields (S1): keys are variable or header names,
// every reference parses, and a key takes its value from one place only. Errors name
// the field and key, never the reference (a credential may have been pasted where its
// reference belongs).
func (s *Server) validateSecrets() error {
	if err := s.firstProblem(s.EnvSecret, (*Server).envSecretProblem); err != nil {
		return err
	}
	if err := s.firstProblem(s.HeaderSecret, (*Server).headerSecretProblem); err != nil {
		return err
	}
	if s.BearerSecret != "" {
		if _, err := secretref.Parse(s.BearerSecret); err != nil {
			return fmt.Errorf("bearerSecret: %w", err)
		}
		if s.BearerEnv != "" || s.BearerInput != "" {
			return fmt.Errorf("bearerSecret: the bearer token comes from bearerEnv or bearerInput already")
		}
		for k := range s.Headers {
			if strings.EqualFold(k, "Authorization") {
				return fmt.Errorf("bearerSecret: the Authorization header has a value in headers already")
			}
		}
	}
	return nil
}

// firstProblem is check's error for the first key of m, in sorted order, that has
// one. The keys are sorted only when one has a problem, so that the error names the
// same key every run: loading 10,000 servers sorts no keys (issue 31).
func (s *Server) firstProblem(m map[string]string, check func(*Server, string) error) error {
	for k := range m {
		if check(s, k) == nil {
			continue
		}
		for _, k := range sortedKeys(m) {
			if err := check(s, k); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Server) envSecretProblem(k string) error {
	if !ValidVarName(k) {
		return fmt.Errorf("envSecret: a key is not a valid variable name")
	}
	if _, err := secretref.Parse(s.EnvSecret[k]); err != nil {
		return fmt.Errorf("envSecret.%s: %w", k, err)
	}
	_, lit := s.Env[k]
	_, ref := s.EnvFrom[k]
	if _, in := s.EnvInput[k]; lit || ref || in {
		return fmt.Errorf("envSecret.%s: the key has a value in env, envFrom or envInput already", k)
	}
	return nil
}

func (s *Server) headerSecretProblem(h string) error {
	if !validHeaderName(h) {
		return fmt.Errorf("headerSecret: a key is not a valid header name")
	}
	if _, err := secretref.Parse(s.HeaderSecret[h]); err != nil {
		return fmt.Errorf("headerSecret.%s: %w", h, err)
	}
	for _, m := range []map[string]string{s.Headers, s.HeaderEnv, s.HeaderInput} {
		for k := range m {
			if strings.EqualFold(k, h) {
				return fmt.Errorf("headerSecret.%s: the header has a value in headers, headerEnv or headerInput already", h)
			}
		}
	}
	if strings.EqualFold(h, "Authorization") && (s.BearerEnv != "" || s.BearerInput != "" || s.BearerSecret != "") {
		return fmt.Errorf("headerSecret.%s: the bearer token gives the Authorization header already", h)
	}
	return nil
}

// Literal is a literal credential of a server that a secret store can hold instead
// (S5): an env value, a header, or the token of "Authorization: Bearer …".
type Literal struct {
	// Field is env.K, headers.H, or bearer.
	Field string
	// Key is the env key or header name (Authorization for the bearer token).
	Key string
	// Value is the credential (the token alone for the bearer).
	Value string
}

// FieldBearer is the Field of a bearer token's Literal.
const FieldBearer = "bearer"

// Literals are the literal credentials of s that can move into a secret store, in
// field order: env values and headers that are not references, not declared plain,
// and whose name or value looks like a credential (P11's test: a value that could be
// declared plain stays). Credentials in arguments are not among them: a server reads
// those from its command line, which a store cannot give it.
func (s *Server) Literals() []Literal {
	var out []Literal
	credential := func(k, v string, plain bool) bool {
		return v != "" && !plain && !policy.IsReference(v) && !secretref.Is(v) && policy.PlainEnvProblem(k, v) != ""
	}
	plainEnv := s.PlainEnvKeys()
	for _, k := range sortedKeys(s.Env) {
		if credential(k, s.Env[k], plainEnv[k]) {
			out = append(out, Literal{"env." + k, k, s.Env[k]})
		}
	}
	plainHeaders := s.PlainHeaderKeys()
	for _, h := range sortedKeys(s.Headers) {
		v := s.Headers[h]
		if !credential(h, v, plainHeaders[h]) {
			continue
		}
		if tok, ok := strings.CutPrefix(v, policy.BearerScheme); ok && strings.EqualFold(h, "Authorization") && tok != "" && !strings.ContainsAny(tok, " \t") {
			out = append(out, Literal{FieldBearer, h, tok})
			continue
		}
		out = append(out, Literal{"headers." + h, h, v})
	}
	return out
}

// UseSecret replaces a literal of s with a reference to where a store holds it.
func (s *Server) UseSecret(l Literal, ref string) {
	switch {
	case strings.HasPrefix(l.Field, "env."):
		delete(s.Env, l.Key)
		s.EnvSecret = setSecret(s.EnvSecret, l.Key, ref)
		if len(s.Env) == 0 {
			s.Env = nil
		}
	case l.Field == FieldBearer:
		delete(s.Headers, l.Key)
		s.BearerSecret = ref
	default:
		delete(s.Headers, l.Key)
		s.HeaderSecret = setSecret(s.HeaderSecret, l.Key, ref)
	}
	if len(s.Headers) == 0 {
		s.Headers = nil
	}
}

func setSecret(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}
