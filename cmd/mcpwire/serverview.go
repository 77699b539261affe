package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/policy/redact"
	"github.com/mcpwire/mcpwire/registry"
)

// serverView is what mcpwire shows of a server: names of env/header values, never the
// values, and URLs without userinfo (R8).
type serverView struct {
	Name              string            `json:"name"`
	Type              string            `json:"type"`
	Command           string            `json:"command,omitempty"`
	Args              []string          `json:"args,omitempty"`
	EnvKeys           []string          `json:"envKeys,omitempty"`
	PlainEnvKeys      []string          `json:"plainEnvKeys,omitempty"`
	EnvFrom           map[string]string `json:"envFrom,omitempty"`
	URL               string            `json:"url,omitempty"`
	HeaderKeys        []string          `json:"headerKeys,omitempty"`
	PlainHeaderKeys   []string          `json:"plainHeaderKeys,omitempty"`
	HeaderEnv         map[string]string `json:"headerEnv,omitempty"`
	BearerEnv         string            `json:"bearerEnv,omitempty"`
	Cwd               string            `json:"cwd,omitempty"`
	Enabled           *bool             `json:"enabled,omitempty"`
	AuthKeys          []string          `json:"authKeys,omitempty"`
	OAuthKeys         []string          `json:"oauthKeys,omitempty"`
	Qualified         bool              `json:"workerQualification,omitempty"`
	Description       string            `json:"description,omitempty"`
	InjectedProviders []string          `json:"injectedProviders,omitempty"`
	Layer             string            `json:"layer"`
}

func viewServer(s *registry.Server, origin string) serverView {
	command, args := redact.Launch(s.Command, s.Args)
	return serverView{
		Name:              s.Name,
		Type:              s.Type,
		Command:           command,
		Args:              args,
		EnvKeys:           s.EnvKeys(),
		PlainEnvKeys:      slices.Sorted(maps.Keys(s.PlainEnvKeys())),
		EnvFrom:           shownNames(s.EnvFrom),
		URL:               policy.RedactURL(s.URL),
		HeaderKeys:        s.HeaderKeys(),
		PlainHeaderKeys:   slices.Sorted(maps.Keys(s.PlainHeaderKeys())),
		HeaderEnv:         shownNames(s.HeaderEnv),
		BearerEnv:         policy.ShowName(s.BearerEnv),
		Cwd:               s.Cwd,
		Enabled:           s.Enabled,
		AuthKeys:          slices.Sorted(maps.Keys(s.Auth)),
		OAuthKeys:         slices.Sorted(maps.Keys(s.OAuth)),
		Qualified:         s.Qualified(),
		Description:       s.Description,
		InjectedProviders: s.InjectedProviders,
		Layer:             origin,
	}
}

// markPlain lists keys, those declared plain marked "(plain)".
func markPlain(keys, plain []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		if slices.Contains(plain, k) {
			k += " (plain)"
		}
		out[i] = k
	}
	return strings.Join(out, ", ")
}

// shownNames are references' variable names as shown: one that looks like a
// credential (T4: a registry written before names were checked) is REDACTED.
func shownNames(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = policy.ShowName(v)
	}
	return out
}

// serverTarget is the target of a stored server, with credentials redacted (R8).
func serverTarget(url, command string, args []string) string {
	if url != "" {
		return policy.RedactURL(url)
	}
	command, shown := redact.Launch(command, args)
	return joinTarget("", command, shown)
}

// joinTarget joins already redacted parts.
func joinTarget(url, command string, args []string) string {
	if url != "" {
		return url
	}
	if len(args) == 0 {
		return command
	}
	return command + " " + strings.Join(quoteArgs(args), " ")
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = fmt.Sprintf("%q", a)
		}
		out[i] = a
	}
	return out
}

// write prints the view as "key: value" lines.
func (v serverView) write(w io.Writer) {
	line := func(k, val string) {
		if val != "" {
			printf(w, "%-12s %s\n", k+":", val)
		}
	}
	line("name", v.Name)
	line("type", v.Type)
	line("command", v.Command)
	if len(v.Args) > 0 {
		line("args", strings.Join(quoteArgs(v.Args), " "))
	}
	line("cwd", v.Cwd)
	line("url", v.URL)
	if len(v.EnvKeys) > 0 {
		line("env", markPlain(v.EnvKeys, v.PlainEnvKeys)+" (values hidden)")
	}
	line("envFrom", arrows(v.EnvFrom))
	if len(v.HeaderKeys) > 0 {
		line("headers", markPlain(v.HeaderKeys, v.PlainHeaderKeys)+" (values hidden)")
	}
	line("headerEnv", arrows(v.HeaderEnv))
	if v.BearerEnv != "" {
		line("bearerEnv", "Authorization ← Bearer $"+v.BearerEnv)
	}
	if v.Enabled != nil {
		line("enabled", fmt.Sprint(*v.Enabled))
	}
	if len(v.AuthKeys) > 0 {
		line("auth", strings.Join(v.AuthKeys, ", ")+" (values hidden)")
	}
	if len(v.OAuthKeys) > 0 {
		line("oauth", strings.Join(v.OAuthKeys, ", ")+" (values hidden)")
	}
	if v.Qualified {
		line("qualified", "yes (workerQualification)")
	}
	line("description", v.Description)
	line("injected", strings.Join(v.InjectedProviders, ", "))
	line("layer", v.Layer)
}

// arrows renders a reference map as "KEY ← VAR, …".
func arrows(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " ← " + m[k]
	}
	return strings.Join(parts, ", ")
}
