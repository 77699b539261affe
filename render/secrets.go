package render

import (
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/dialect"
)

// secretNotes are the lines that say what the servers written need for their secrets
// where the client starts (S2): mcpwire on the client's PATH when a committed file
// names it without a path, and the variables a client without a headers helper must
// be started with — each with the command that starts it so.
func secretNotes(p *providers.Provider, path string, s Secrets) []string {
	var out []string
	if s.ExecByName {
		out = append(out, path+" starts mcpwire by name to resolve secrets (a committed file names no path of this machine): mcpwire must be on "+p.Display+"'s PATH")
	}
	if len(s.Vars) > 0 {
		binary := p.Binary
		if binary == "" {
			binary = "CLIENT"
		}
		how := "start it through mcpwire, which sets them from their references: " + SecretLaunch(p, dialect.Launch{Binary: binary}, s.Vars).String()
		if slices.Contains(SessionProviders(), p) {
			how += " (or mcpwire session --provider " + p.Name + " --profile P)"
		}
		out = append(out, p.Display+" reads the secrets of remote servers from variables only it sees: "+how)
	}
	return out
}

// SecretLaunch is l (p's client) started through mcpwire exec with each "VAR=REF" of
// vars set from its reference (S2): only the client's environment holds the values,
// and the client is told to keep them there (SecretArgs).
func SecretLaunch(p *providers.Provider, l dialect.Launch, vars []string) dialect.Launch {
	if len(vars) == 0 {
		return l
	}
	l = SecretArgs(p, l, vars)
	args := []string{secretref.ExecCommand}
	for _, v := range vars {
		args = append(args, secretref.EnvFlag, v)
	}
	args = append(append(args, "--", l.Binary), l.Args...)
	return dialect.Launch{Env: l.Env, Binary: "mcpwire", Args: args, Exact: l.Exact}
}

// SecretArgs is l with the arguments that keep p's client from writing its
// environment to disk (providers.Provider.SecretEnvArgs) first, when vars put secrets
// there (S3).
func SecretArgs(p *providers.Provider, l dialect.Launch, vars []string) dialect.Launch {
	if len(vars) == 0 || len(p.SecretEnvArgs) == 0 {
		return l
	}
	l.Args = append(slices.Clone(p.SecretEnvArgs), l.Args...)
	return l
}

// SecretCheck reports whether a reference to a secret store resolves, without its
// value (S4: status, audit); its error names the reference and the store's error.
type SecretCheck func(ref string) error

// secretChecks checks each reference of a run once.
type secretChecks struct {
	check SecretCheck
	done  map[string]error
}

func newSecretChecks(check SecretCheck) *secretChecks {
	return &secretChecks{check: check, done: map[string]error{}}
}

// unresolved are the references of s that do not resolve, as "FIELD: ERROR" (the
// error names the reference and what its store said, never a value).
func (c *secretChecks) unresolved(s *registry.Server) []string {
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
// starts (dialect.SecretVariable): status and explain do not look for it in their own
// environment; status checks the references instead.
func LaunchVariable(v string) bool { return strings.HasPrefix(v, "MCPWIRE_SECRET_") }

// UnresolvedSecrets are the secret references of s that do not resolve with check (S4:
// explain), as "FIELD: ERROR"; nil with no check.
func UnresolvedSecrets(check SecretCheck, s *registry.Server) []string {
	return newSecretChecks(check).unresolved(s)
}
