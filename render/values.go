package render

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// ProjectVar is the placeholder for the project directory in args, env values and cwd
// (R10).
const ProjectVar = "${project}"

// values are one server's launch values spelled for one provider: references in the
// client's syntax (V4) and ${project} replaced (R10).
type values struct {
	Command string
	Args    []string
	Cwd     string
	Env     format.Object
	URL     string
	Headers format.Object
	// Codex spells references by name.
	EnvVars        []string
	EnvHTTPHeaders format.Object
	BearerVar      string
}

// problem is one reason a server cannot be rendered: server and field, never a value.
type problem struct {
	Server, Field, Reason string
}

func (p problem) String() string { return fmt.Sprintf("%s (%s): %s", p.Server, p.Field, p.Reason) }

// target says where and how entries are being rendered.
type target struct {
	p       *providers.Provider
	scope   providers.Scope
	project string
	// ephemeral output starts servers from wherever the client runs: ${project} is
	// the absolute project directory.
	ephemeral bool
	// off, when set, collects the disabled servers the client cannot switch off, for
	// the caller to remove (a client file); otherwise plan warns they are not written.
	off *[]string
}

// absoluteProject reports whether ${project} becomes the absolute project directory
// in a project-scope client file (no workspace variable, R10).
func (t target) absoluteProject() bool {
	return t.scope == providers.Project && !t.ephemeral && t.p.WorkspaceVar == ""
}

// projectFields names the written launch fields of s that hold ${project}.
func (t target) projectFields(s *registry.Server) []string {
	if s.Remote() {
		return nil
	}
	var out []string
	if strings.Contains(s.Command, ProjectVar) {
		out = append(out, "command")
	}
	if slices.ContainsFunc(s.Args, func(a string) bool { return strings.Contains(a, ProjectVar) }) {
		out = append(out, "args")
	}
	for _, k := range sortedKeys(s.Env) {
		if strings.Contains(s.Env[k], ProjectVar) {
			out = append(out, "env."+k)
		}
	}
	if t.p.CwdKey != "" && strings.Contains(s.Cwd, ProjectVar) {
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
		return out
	}
	add(s.URL != "", "url")
	add(len(s.Headers) > 0, "headers")
	add(len(s.HeaderEnv) > 0, "headerEnv")
	add(s.BearerEnv != "", "bearerEnv")
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

// projectValue is what ${project} becomes for this target (R10).
func (t target) projectValue() string {
	if t.scope == providers.Project && !t.ephemeral && t.p.WorkspaceVar != "" {
		return t.p.WorkspaceVar
	}
	return t.project
}

func (t target) subst(s string) string {
	if !strings.Contains(s, ProjectVar) {
		return s
	}
	return strings.ReplaceAll(s, ProjectVar, t.projectValue())
}

// spell computes the values of s for t, with the problems that stop it.
func (t target) spell(s *registry.Server) (values, []problem) {
	var v values
	var probs []problem
	p := t.p
	bad := func(field, reason string) { probs = append(probs, problem{s.Name, field, reason}) }
	noRefs := func(field string) {
		bad(field, p.Display+" documents no environment-variable interpolation in its config, so a reference cannot be rendered; use a literal value in a private file, or another client")
	}
	if !s.Remote() {
		t.spellLaunch(s, &v, bad, noRefs)
	} else {
		t.spellRemote(s, &v, bad, noRefs)
	}
	switch {
	case s.Remote() && p.Remote == providers.RemoteNone:
		bad("type", p.Display+" takes only stdio servers (a remote "+s.Type+" server needs a stdio bridge such as mcp-remote)")
	case s.Type == registry.SSE && p.Remote == providers.RemoteHTTP:
		bad("type", p.Display+" takes streamable HTTP remote servers, not SSE")
	}
	return v, probs
}

// spellLaunch computes a stdio server's command, arguments, cwd and environment.
func (t target) spellLaunch(s *registry.Server, v *values, bad func(field, reason string), noRefs func(field string)) {
	p := t.p
	v.Command = t.subst(s.Command)
	for _, a := range s.Args {
		v.Args = append(v.Args, t.subst(a))
	}
	v.Cwd = t.subst(s.Cwd)
	env := map[string]string{}
	for k, val := range s.Env {
		env[k] = t.subst(val)
	}
	for _, k := range sortedKeys(s.EnvFrom) {
		vr := s.EnvFrom[k]
		switch p.Refs {
		case providers.RefNone:
			noRefs("envFrom." + k)
		case providers.RefNames:
			if k != vr {
				bad("envFrom."+k, p.Display+" passes a variable only under its own name; use --env-from "+vr+"="+vr)
				continue
			}
			v.EnvVars = append(v.EnvVars, vr)
		default:
			env[k] = p.Refs.Spell(vr)
		}
	}
	if len(env) > 0 {
		v.Env = format.Sorted(env)
	}
}

// spellRemote computes a remote server's URL and headers.
func (t target) spellRemote(s *registry.Server, v *values, bad func(field, reason string), noRefs func(field string)) {
	p := t.p
	v.URL = s.URL
	headers := map[string]string{}
	for k, val := range s.Headers {
		headers[k] = val
	}
	reserved := func(field, vr string) {
		if slices.Contains(p.ReservedRefs, vr) {
			bad(field, p.Display+" reads "+vr+" as empty in a remote server's URL and headers; reference another variable")
		}
	}
	for _, h := range sortedKeys(s.HeaderEnv) {
		vr := s.HeaderEnv[h]
		reserved("headerEnv."+h, vr)
		switch p.Refs {
		case providers.RefNone:
			noRefs("headerEnv." + h)
		case providers.RefNames:
			v.EnvHTTPHeaders = append(v.EnvHTTPHeaders, format.Member{Key: h, Value: vr})
		default:
			headers[h] = p.Refs.Spell(vr)
		}
	}
	if s.BearerEnv != "" {
		reserved("bearerEnv", s.BearerEnv)
		switch p.Refs {
		case providers.RefNone:
			noRefs("bearerEnv")
		case providers.RefNames:
			v.BearerVar = s.BearerEnv
		default:
			headers["Authorization"] = "Bearer " + p.Refs.Spell(s.BearerEnv)
		}
	}
	for _, vr := range p.ReservedRefs {
		if refersTo(s.URL, vr) {
			bad("url", p.Display+" reads "+vr+" as empty in a remote server's URL and headers; reference another variable")
		}
		for _, h := range sortedKeys(s.Headers) {
			if refersTo(s.Headers[h], vr) {
				bad("headers."+h, p.Display+" reads "+vr+" as empty in a remote server's URL and headers; reference another variable")
			}
		}
	}
	if len(headers) > 0 {
		v.Headers = format.Sorted(headers)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// refersTo reports whether s holds the reference ${VAR} (or ${VAR:-default}) to v;
// ${VAR_OTHER} is another variable.
func refersTo(s, v string) bool {
	return strings.Contains(s, "${"+v+"}") || strings.Contains(s, "${"+v+":-")
}
