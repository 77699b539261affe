package registry

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy/secretref"
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
	for _, k := range slices.Sorted(maps.Keys(s.EnvSecret)) {
		out = append(out, SecretUse{"envSecret." + k, s.EnvSecret[k]})
	}
	for _, h := range slices.Sorted(maps.Keys(s.HeaderSecret)) {
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
	for _, k := range slices.Sorted(maps.Keys(s.EnvSecret)) {
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
	}
	for _, h := range slices.Sorted(maps.Keys(s.HeaderSecret)) {
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
