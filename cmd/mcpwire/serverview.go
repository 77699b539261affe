package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/termtext"
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
	EnvInput          map[string]string `json:"envInput,omitempty"`
	HeaderInput       map[string]string `json:"headerInput,omitempty"`
	BearerInput       string            `json:"bearerInput,omitempty"`
	EnvSecret         map[string]string `json:"envSecret,omitempty"`
	HeaderSecret      map[string]string `json:"headerSecret,omitempty"`
	BearerSecret      string            `json:"bearerSecret,omitempty"`
	Inputs            []registry.Input  `json:"inputs,omitempty"`
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
		EnvInput:          s.EnvInput,
		HeaderInput:       s.HeaderInput,
		BearerInput:       s.BearerInput,
		EnvSecret:         s.EnvSecret,
		HeaderSecret:      s.HeaderSecret,
		BearerSecret:      s.BearerSecret,
		Inputs:            s.Inputs,
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

// markPlain lists keys (quoted where a file's text needs it, K4), those declared
// plain marked "(plain)".
func markPlain(keys, plain []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = termtext.Quote(k)
		if slices.Contains(plain, k) {
			out[i] += " (plain)"
		}
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

// joinTarget joins already redacted parts, each quoted when it is not plain (K4).
func joinTarget(url, command string, args []string) string {
	if url != "" {
		return termtext.Quote(url)
	}
	if len(args) == 0 {
		return termtext.Quote(command)
	}
	return termtext.Quote(command) + " " + strings.Join(quoteArgs(args), " ")
}

// quoteArgs quotes each argument that is empty, holds a blank or a quote, or is not
// plain text (termtext.Plain: a control character, an invisible one), as a Go string.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'") || !termtext.Plain(a) {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return out
}

// write prints the view as "key: value" lines; a value from a layer file is quoted
// when it is not plain text (K4).
func (v serverView) write(w io.Writer) {
	line := func(k, val string) {
		if val != "" {
			printf(w, "%-12s %s\n", k+":", val)
		}
	}
	q := termtext.Quote
	line("name", q(v.Name))
	line("type", q(v.Type))
	line("command", q(v.Command))
	if len(v.Args) > 0 {
		line("args", strings.Join(quoteArgs(v.Args), " "))
	}
	line("cwd", q(v.Cwd))
	line("url", q(v.URL))
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
	line("envInput", arrows(v.EnvInput))
	line("headerInput", arrows(v.HeaderInput))
	if v.BearerInput != "" {
		line("bearerInput", "Authorization ← Bearer input "+v.BearerInput)
	}
	line("envSecret", arrows(v.EnvSecret))
	line("headerSecret", arrows(v.HeaderSecret))
	if v.BearerSecret != "" {
		line("bearerSecret", "Authorization ← Bearer "+termtext.Quote(v.BearerSecret))
	}
	if len(v.Inputs) > 0 {
		ids := make([]string, len(v.Inputs))
		for i, in := range v.Inputs {
			ids[i] = in.ID
			if in.Password {
				ids[i] += " (secret)"
			}
		}
		line("inputs", strings.Join(ids, ", "))
	}
	if v.Enabled != nil {
		line("enabled", fmt.Sprint(*v.Enabled))
	}
	if len(v.AuthKeys) > 0 {
		line("auth", termtext.Join(v.AuthKeys, ", ")+" (values hidden)")
	}
	if len(v.OAuthKeys) > 0 {
		line("oauth", termtext.Join(v.OAuthKeys, ", ")+" (values hidden)")
	}
	if v.Qualified {
		line("qualified", "yes (workerQualification)")
	}
	line("description", q(v.Description))
	line("injected", termtext.Join(v.InjectedProviders, ", "))
	line("layer", q(v.Layer))
}

// arrows renders a reference map as "KEY ← VAR, …".
func arrows(m map[string]string) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = termtext.Quote(k) + " ← " + termtext.Quote(m[k])
	}
	return strings.Join(parts, ", ")
}
