package dialect

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
	"github.com/mcpwire/mcpwire/render/format"
)

// ProjectVar is the placeholder for the project directory in args, env values and cwd
// (R10).
const ProjectVar = "${project}"

// Values are one server's launch values spelled for one client: references in the
// client's syntax (V4) and ${project} replaced (R10).
type Values struct {
	Command string
	Args    []string
	Cwd     string
	Env     format.Object
	URL     string
	Headers format.Object
	// References by name (NamedRefs): the variables passed under their own names, the
	// headers taken from variables, and the bearer token's variable.
	EnvVars        []string
	EnvHTTPHeaders format.Object
	BearerVar      string
}

// Problem is one reason a server cannot be rendered: server and field, never a value.
type Problem struct {
	Server, Field, Reason string
}

func (p Problem) String() string { return fmt.Sprintf("%s (%s): %s", p.Server, p.Field, p.Reason) }

// Target says where entries are being rendered.
type Target struct {
	P       *providers.Provider
	Scope   providers.Scope
	Project string
	// Ephemeral output starts servers from wherever the client runs: ${project} is
	// the absolute project directory.
	Ephemeral bool
}

// ProjectValue is what ${project} becomes for this target (R10): the client's
// workspace variable in its project file, else the absolute project directory, with
// forward slashes on Windows (C:/Users/me/repo): the registry's values continue it
// with "/" (${project}/docs), which a backslash before would make a mixed spelling,
// and every Windows program takes forward slashes.
func (t Target) ProjectValue() string {
	if t.Scope == providers.Project && !t.Ephemeral && t.P.WorkspaceVar != "" {
		return t.P.WorkspaceVar
	}
	return filepath.ToSlash(t.Project)
}

func (t Target) subst(s string) string {
	if !strings.Contains(s, ProjectVar) {
		return s
	}
	return strings.ReplaceAll(s, ProjectVar, t.ProjectValue())
}

// TakesRefs reports whether the client can take references to variables at all.
func TakesRefs(p *providers.Provider, d Dialect) bool {
	return refsByName(d) || p.Refs.Spell("VAR") != ""
}

// refsByName reports whether the dialect takes references by name.
func refsByName(d Dialect) bool {
	_, byName := d.(NamedRefs)
	return byName
}

// speller spells the references of one server, collecting its problems.
type speller struct {
	t      Target
	byName bool
	server string
	probs  []Problem
}

func (sp *speller) bad(field, reason string) {
	sp.probs = append(sp.probs, Problem{sp.server, field, reason})
}

// ref spells a reference to variable vr in field; "" with a problem when the client
// has no placeholder for it, or cannot take one there.
func (sp *speller) ref(field, vr string) string {
	if why := sp.t.refused(field); why != "" {
		sp.bad(field, why)
		return ""
	}
	s := sp.t.P.Refs.Spell(vr)
	if s == "" {
		sp.bad(field, sp.t.P.Display+" documents no environment-variable interpolation in its config, so a reference cannot be rendered; use a literal value in a private file, or another client")
	}
	return s
}

// Spell computes the values of s for t in dialect d, with the problems that stop it.
func Spell(t Target, d Dialect, s *registry.Server) (Values, []Problem) {
	sp := &speller{t: t, byName: refsByName(d), server: s.Name}
	var v Values
	if !s.Remote() {
		sp.launch(s, &v)
	} else {
		sp.remote(s, &v)
	}
	sp.literalRefs(s)
	p := t.P
	switch {
	case s.Remote() && !p.Remote.Takes(registry.HTTP):
		sp.bad("type", p.Display+" takes only stdio servers (a remote "+s.Type+" server needs a stdio bridge such as mcp-remote)")
	case s.Remote() && !p.Remote.Takes(s.Type):
		sp.bad("type", p.Display+" takes streamable HTTP remote servers, not SSE")
	}
	if rf, ok := d.(Refuser); ok {
		sp.probs = append(sp.probs, rf.Refuse(s, &v)...)
	}
	return v, sp.probs
}

// refused says why the client cannot take a reference in field of this target's file,
// "" when it can: the file is skipped whole when it holds one (Kilo's project files),
// or the client sends headers as written (auggie).
func (t Target) refused(field string) string {
	if d := t.P.Dest(t.Scope); d != nil && d.NoRefs && !t.Ephemeral {
		return fmt.Sprintf("%s skips a whole %s-scope file that holds a reference to an environment variable; write this server with --scope user, or without references", t.P.Display, t.Scope)
	}
	if t.P.LiteralHeaders && (strings.HasPrefix(field, "headerEnv.") || field == "bearerEnv" || strings.HasPrefix(field, "headers.")) {
		return t.P.Display + " sends header values as written, without expanding references; use a literal value in a private file (--scope user), or another client"
	}
	return ""
}

// literalRefs refuses literal values that hold a placeholder of the client's spelling
// where the client cannot take one (refused).
func (sp *speller) literalRefs(s *registry.Server) {
	open := sp.t.P.Refs.Open()
	if open == "" {
		return
	}
	check := func(field, v string) {
		if strings.Contains(v, open) {
			if why := sp.t.refused(field); why != "" {
				sp.bad(field, why)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		check("headers."+k, s.Headers[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		check("env."+k, s.Env[k])
	}
	for i, a := range s.Args {
		check(fmt.Sprintf("args[%d]", i), a)
	}
	check("url", s.URL)
	check("command", s.Command)
}

// launch computes a stdio server's command, arguments, cwd and environment.
func (sp *speller) launch(s *registry.Server, v *Values) {
	t := sp.t
	v.Command = t.subst(s.Command)
	for _, a := range s.Args {
		v.Args = append(v.Args, t.subst(a))
	}
	v.Cwd = t.subst(s.Cwd)
	env := map[string]string{}
	for k, val := range s.Env {
		env[k] = t.subst(val)
	}
	for _, k := range slices.Sorted(maps.Keys(s.EnvFrom)) {
		vr := s.EnvFrom[k]
		switch {
		case sp.byName && k != vr:
			sp.bad("envFrom."+k, t.P.Display+" passes a variable only under its own name; use --env-from "+vr+"="+vr)
		case sp.byName:
			v.EnvVars = append(v.EnvVars, vr)
		default:
			if ref := sp.ref("envFrom."+k, vr); ref != "" {
				env[k] = ref
			}
		}
	}
	if len(env) > 0 {
		v.Env = format.Sorted(env)
	}
}

// remote computes a remote server's URL and headers.
func (sp *speller) remote(s *registry.Server, v *Values) {
	p := sp.t.P
	v.URL = s.URL
	headers := map[string]string{}
	for k, val := range s.Headers {
		headers[k] = val
	}
	reserved := func(field, vr string) {
		if slices.Contains(p.ReservedRefs, vr) {
			sp.bad(field, p.Display+" reads "+vr+" as empty in a remote server's URL and headers; reference another variable")
		}
	}
	for _, h := range slices.Sorted(maps.Keys(s.HeaderEnv)) {
		vr := s.HeaderEnv[h]
		reserved("headerEnv."+h, vr)
		if sp.byName {
			v.EnvHTTPHeaders = append(v.EnvHTTPHeaders, format.Member{Key: h, Value: vr})
		} else if ref := sp.ref("headerEnv."+h, vr); ref != "" {
			headers[h] = ref
		}
	}
	if s.BearerEnv != "" {
		reserved("bearerEnv", s.BearerEnv)
		if sp.byName {
			v.BearerVar = s.BearerEnv
		} else if ref := sp.ref("bearerEnv", s.BearerEnv); ref != "" {
			headers["Authorization"] = bearerHeader(ref)
		}
	}
	for _, vr := range p.ReservedRefs {
		if p.Refs.RefersTo(s.URL, vr) {
			sp.bad("url", p.Display+" reads "+vr+" as empty in a remote server's URL and headers; reference another variable")
		}
		for _, h := range slices.Sorted(maps.Keys(s.Headers)) {
			if p.Refs.RefersTo(s.Headers[h], vr) {
				sp.bad("headers."+h, p.Display+" reads "+vr+" as empty in a remote server's URL and headers; reference another variable")
			}
		}
	}
	if len(headers) > 0 {
		v.Headers = format.Sorted(headers)
	}
}
