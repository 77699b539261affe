package write

import (
	"slices"

	"github.com/mcpwire/mcpwire/internal/secretref"
	"github.com/mcpwire/mcpwire/providers"
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
		how := "start it through mcpwire, which sets them from their references: " + SecretLaunch(p, providers.Launch{Binary: binary}, s.Vars).String()
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
func SecretLaunch(p *providers.Provider, l providers.Launch, vars []string) providers.Launch {
	if len(vars) == 0 {
		return l
	}
	l = SecretArgs(p, l, vars)
	args := []string{secretref.ExecCommand}
	for _, v := range vars {
		args = append(args, secretref.EnvFlag, v)
	}
	args = append(append(args, "--", l.Binary), l.Args...)
	return providers.Launch{Env: l.Env, Binary: "mcpwire", Args: args, Exact: l.Exact}
}

// SecretArgs is l with the arguments that keep p's client from writing its
// environment to disk (providers.Provider.SecretEnvArgs) first, when vars put secrets
// there (S3).
func SecretArgs(p *providers.Provider, l providers.Launch, vars []string) providers.Launch {
	if len(vars) == 0 || len(p.SecretEnvArgs) == 0 {
		return l
	}
	l.Args = append(slices.Clone(p.SecretEnvArgs), l.Args...)
	return l
}
