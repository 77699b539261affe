package write

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// target says where and how entries are being rendered.
type target struct {
	providers.Target
	d providers.Dialect
	// off, when set, collects the disabled servers the client cannot switch off, for
	// the caller to remove (a client file); otherwise plan warns they are not written.
	off *[]string
}

// Secrets says how the servers a client file gets start with their secrets (S2).
type Secrets struct {
	// Vars are the variables standing for remote servers' secrets, each "VAR=REF"
	// (providers.SecretVariable): the client reads them where it starts, so it must be
	// started with them set (mcpwire session, mcpwire exec --env-secret VAR=REF --
	// CLIENT).
	Vars []string
	// ExecByName: an entry starts mcpwire by name (a committed project file names no
	// path of this machine), so mcpwire must be on the client's PATH.
	ExecByName bool
}

// secretsOf is what the entries need for their secrets, each variable once.
func secretsOf(entries []namedEntry) Secrets {
	var out Secrets
	for _, ne := range entries {
		out.Vars = providers.AppendNew(out.Vars, ne.secrets.Vars)
		out.ExecByName = out.ExecByName || ne.secrets.ExecByName
	}
	return out
}

func newTarget(p *providers.Provider, scope providers.Scope, project string, ephemeral bool) target {
	return target{Target: providers.Target{P: p, Scope: scope, Project: project, Ephemeral: ephemeral}, d: p.Dialect()}
}

// absoluteProject reports whether ${project} becomes the absolute project directory
// in a project-scope client file (no workspace variable, R10).
func (t target) absoluteProject() bool {
	return t.Scope == providers.Project && !t.Ephemeral && t.P.WorkspaceVar == ""
}

// projectFields names the written launch fields of s that hold ${project}.
func (t target) projectFields(s *registry.Server) []string {
	if s.Remote() {
		return nil
	}
	var out []string
	if strings.Contains(s.Command, providers.ProjectVar) {
		out = append(out, "command")
	}
	if slices.ContainsFunc(s.Args, func(a string) bool { return strings.Contains(a, providers.ProjectVar) }) {
		out = append(out, "args")
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		if strings.Contains(s.Env[k], providers.ProjectVar) {
			out = append(out, "env."+k)
		}
	}
	if t.P.CwdKey != "" && strings.Contains(s.Cwd, providers.ProjectVar) {
		out = append(out, "cwd")
	}
	return out
}

// ignoredFields names the fields of s its transport has no use for: a stdio server's
// URL and headers, a remote server's command, arguments, environment and cwd. They
// are not rendered (registry validation should have refused them).
func ignoredFields(s *registry.Server) []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	if s.Remote() {
		add(s.Command != "", "command")
		add(len(s.Args) > 0, "args")
		add(s.Cwd != "", "cwd")
		add(len(s.Env) > 0, "env")
		add(len(s.EnvFrom) > 0, "envFrom")
		add(len(s.EnvSecret) > 0, "envSecret")
		return out
	}
	add(s.URL != "", "url")
	add(len(s.Headers) > 0, "headers")
	add(len(s.HeaderEnv) > 0, "headerEnv")
	add(s.BearerEnv != "", "bearerEnv")
	add(len(s.HeaderSecret) > 0, "headerSecret")
	add(s.BearerSecret != "", "bearerSecret")
	return out
}

func ignoredWarning(p *providers.Provider, s *registry.Server, fields []string) string {
	if s.Remote() {
		return fmt.Sprintf("%s: %s is a remote (%s) server; ignored %s, which only stdio servers use (not written)", p.Name, s.Name, s.Type, strings.Join(fields, ", "))
	}
	return fmt.Sprintf("%s: %s is a stdio server; ignored %s, which only remote (http, sse) servers use (not written)", p.Name, s.Name, strings.Join(fields, ", "))
}

func offWarning(p *providers.Provider, name string) string {
	return fmt.Sprintf("%s: %s is disabled (enabled: false) and %s has no per-server switch", p.Name, name, p.Display)
}
