package providers

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/format"
	"github.com/mcpwire/mcpwire/policy"
	"github.com/mcpwire/mcpwire/registry"
)

// ProjectVar is the placeholder for the project directory in args, env values and cwd
// (R10).
const ProjectVar = "${project}"

// Values are one server's launch values spelled for one client: references in the
// client's syntax (V4), placeholders inside values in the client's forms or refused
// (T1, T2), inputs as the client can take them (T3), and ${project} replaced (R10).
type Values struct {
	Command string
	Args    []string
	Cwd     string
	Env     format.Object
	URL     string
	Headers format.Object
	// References by name (Refs.ByName): the variables passed under their own names, the
	// headers taken from variables, and the bearer token's variable.
	EnvVars        []string
	EnvHTTPHeaders format.Object
	BearerVar      string
	// Inputs are the inputs the entry asks for, for a client that prompts (T3): the
	// client declares them beside its entries (VS Code's inputs).
	Inputs []registry.Input
	// InputVars are the variables standing for inputs a client that cannot prompt
	// reads instead (T3), each as "VAR (input ID)": inject says them once.
	InputVars []string
	// HeadersHelper is the command line a client with a headers helper runs for a
	// remote server's secret headers (S2: mcpwire headers and the references).
	HeadersHelper string
	// SecretVars are the variables standing for a remote server's secrets in a client
	// without a headers helper, each "VAR=REF": the client must start with them set
	// (mcpwire session, or mcpwire exec --env-secret VAR=REF -- CLIENT).
	SecretVars []string
	// ExecByName: the entry starts mcpwire by name (a project file), which must then be
	// on the client's PATH.
	ExecByName bool
}

// Problem is one reason a server cannot be rendered: server and field, never a value.
// Reason says what the client cannot do; Hint, when set, is the change that lets the
// same command write the server with the same meaning (T5), as a command to run.
type Problem struct {
	Server, Field, Reason, Hint string
}

func (p Problem) String() string { return fmt.Sprintf("%s (%s): %s", p.Server, p.Field, p.Reason) }

// Target says where entries are being rendered.
type Target struct {
	P       *Provider
	Scope   Scope
	Project string
	// Home is the home directory, for ${userHome} in a client without a placeholder
	// for it.
	Home string
	// Ephemeral output starts servers from wherever the client runs: ${project} is
	// the absolute project directory.
	Ephemeral bool
	// Exec is the mcpwire binary a private file names (providers.PathEnv.Exec); GOOS
	// the system whose shell runs a headers helper.
	Exec, GOOS string
}

// ProjectValue is what ${project} becomes for this target (R10): the client's
// workspace variable in its project file, else the absolute project directory, with
// forward slashes on Windows (C:/Users/me/repo): the registry's values continue it
// with "/" (${project}/docs), which a backslash before would make a mixed spelling,
// and every Windows program takes forward slashes.
func (t Target) ProjectValue() string {
	if t.Scope == Project && !t.Ephemeral && t.P.WorkspaceVar != "" {
		return t.P.WorkspaceVar
	}
	return filepath.ToSlash(t.Project)
}

// workspaceValue is what ${workspaceFolder} (the folder the client has open) becomes:
// the client's workspace variable in any of its files, else the absolute project
// directory.
func (t Target) workspaceValue() string {
	if !t.Ephemeral && t.P.WorkspaceVar != "" {
		return t.P.WorkspaceVar
	}
	return t.Project
}

// TakesRefs reports whether the client can take references to variables at all.
func (p *Provider) TakesRefs() bool {
	return p.Refs.ByName || p.Refs.Spell("VAR") != ""
}

// registryForms are the forms the registry reads in a value (policy.RegistryForms).
var registryForms = sync.OnceValue(policy.RegistryForms)

// speller spells the references of one server, collecting its problems.
type speller struct {
	t      Target
	d      Dialect
	byName bool
	server string
	probs  []Problem
	// inputs are the ids of the inputs asked for (a client that prompts); inputVars
	// the variables standing for inputs (one that does not); headerVars the variables
	// a byName client reads inside header values (Goose's env_keys).
	inputs, inputVars, headerVars []string
	// origin names the registry field of a reference field normalise filled.
	origin map[string]string
}

func (sp *speller) bad(field, reason string) {
	sp.probs = append(sp.probs, Problem{Server: sp.server, Field: sp.fieldOf(field), Reason: reason})
}

// refuse is a problem of refused: where the client takes the reference in its user
// file (Kilo's project files do not), the hint says so (T5).
func (sp *speller) refuse(field, why string) {
	p := Problem{Server: sp.server, Field: sp.fieldOf(field), Reason: why}
	if d := sp.t.P.Dest(sp.t.Scope); d != nil && d.NoRefs && !sp.t.Ephemeral && sp.t.P.User != nil && !sp.t.P.User.NoRefs {
		p.Hint = "add --scope user: " + sp.t.P.Display + " reads references in its user file"
	}
	sp.probs = append(sp.probs, p)
}

// fieldOf is the registry's name of a field: a value normalise moved into a reference
// field is named where the registry holds it.
func (sp *speller) fieldOf(field string) string {
	if f, ok := sp.origin[field]; ok {
		return f
	}
	return field
}

// noInterpolation is the reason of a client without any placeholder for variables.
func noInterpolation(p *Provider) string {
	return p.Display + " documents no environment-variable interpolation in its config, so a reference cannot be written there"
}

// ref spells a reference to variable vr in field; "" with a problem when the client
// has no placeholder for it, or cannot take one there.
func (sp *speller) ref(field, vr string) string {
	if why := sp.t.refused(field); why != "" {
		sp.refuse(field, why)
		return ""
	}
	s := sp.t.P.Refs.Spell(vr)
	if s == "" {
		sp.bad(field, noInterpolation(sp.t.P))
	}
	return s
}

// Spell computes the values of s for t in dialect d, with the problems that stop it.
func Spell(t Target, d Dialect, s *registry.Server) (Values, []Problem) {
	sp := &speller{t: t, d: d, byName: t.P.Refs.ByName, server: s.Name}
	s = sp.normalise(s)
	var v Values
	s = sp.secrets(s, &v)
	if !s.Remote() {
		sp.launch(s, &v)
		sp.wrapExec(s, &v)
	} else {
		sp.remote(s, &v)
	}
	p := t.P
	switch {
	case s.Remote() && !p.Remote.Takes(registry.HTTP):
		sp.bad("type", p.Display+" takes only stdio servers (a remote "+s.Type+" server needs a stdio bridge such as mcp-remote)")
	case s.Remote() && !p.Remote.Takes(s.Type):
		sp.bad("type", p.Display+" takes streamable HTTP remote servers, not SSE")
	}
	sp.probs = append(sp.probs, d.refuse(s, &v)...)
	for _, id := range sp.inputs {
		in, ok := s.Input(id)
		if !ok {
			in = registry.Input{ID: id, Password: true} // undeclared: asked for as a secret
		}
		v.Inputs = append(v.Inputs, in)
	}
	v.InputVars = sp.inputVars
	if sp.byName {
		v.EnvVars = AppendNew(v.EnvVars, sp.headerVars)
	}
	return v, sp.probs
}

// normalise returns s with every value that is one reference whole in its reference
// field (an env value "${VAR}" is envFrom, a header headerEnv, "Bearer ${VAR}" in
// Authorization bearerEnv, and so for inputs), so that every client gets its own
// spelling of it, and, for a client that cannot ask for inputs, each input as the
// variable standing for it (T3). s itself is not changed.
func (sp *speller) normalise(s *registry.Server) *registry.Server {
	whole := func(v string) bool {
		_, ok := policy.Scan(strings.TrimPrefix(v, policy.BearerScheme), registryForms()).Whole()
		return ok
	}
	need := len(s.EnvInput) > 0 || len(s.HeaderInput) > 0 || s.BearerInput != ""
	for _, v := range s.Env {
		need = need || whole(v) || opWhole(v)
	}
	for _, v := range s.Headers {
		need = need || whole(v) || opWhole(strings.TrimPrefix(v, policy.BearerScheme))
	}
	if !need {
		return s
	}
	c := s.Clone()
	sp.origin = map[string]string{}
	sp.readStoreRefs(c)
	readWhole(c, registryForms())
	for k := range s.Env {
		if _, ok := c.Env[k]; !ok {
			sp.origin["envFrom."+k], sp.origin["envInput."+k] = "env."+k, "env."+k
		}
	}
	for h := range s.Headers {
		if _, ok := c.Headers[h]; !ok {
			sp.origin["headerEnv."+h], sp.origin["headerInput."+h] = "headers."+h, "headers."+h
			if c.BearerEnv != s.BearerEnv || c.BearerInput != s.BearerInput {
				sp.origin["bearerEnv"], sp.origin["bearerInput"] = "headers."+h, "headers."+h
			}
		}
	}
	if sp.t.P.Prompts {
		return c
	}
	for _, k := range slices.Sorted(maps.Keys(c.EnvInput)) {
		// the variable the server reads: its own env key
		c.EnvFrom = setKey(c.EnvFrom, k, k)
		sp.inputVars = AppendNew(sp.inputVars, []string{k + " (input " + c.EnvInput[k] + ")"})
	}
	for _, h := range slices.Sorted(maps.Keys(c.HeaderInput)) {
		c.HeaderEnv = setKey(c.HeaderEnv, h, sp.inputVar(c.HeaderInput[h]))
	}
	if c.BearerInput != "" {
		c.BearerEnv = sp.inputVar(c.BearerInput)
	}
	c.EnvInput, c.HeaderInput, c.BearerInput = nil, nil, ""
	return c
}

// inputVar is the variable standing for an input in a client that cannot ask for it.
func (sp *speller) inputVar(id string) string {
	vr := registry.InputVariable(id)
	sp.inputVars = AppendNew(sp.inputVars, []string{vr + " (input " + id + ")"})
	return vr
}

func setKey(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// refused says why the client cannot take a reference in field of this target's file,
// "" when it can: the file is skipped whole when it holds one (Kilo's project files),
// or the client sends headers as written (auggie).
func (t Target) refused(field string) string {
	if d := t.P.Dest(t.Scope); d != nil && d.NoRefs && !t.Ephemeral {
		return fmt.Sprintf("%s skips a whole %s-scope file that holds a reference to an environment variable", t.P.Display, t.Scope)
	}
	if t.P.LiteralHeaders && (strings.HasPrefix(field, "headerEnv.") || field == "bearerEnv" || strings.HasPrefix(field, "headers.")) {
		return t.P.Display + " sends header values as written, without expanding references"
	}
	return ""
}

// value writes one value of field in the client's forms (T1, T2): every placeholder
// of the registry's forms inside it in the client's own, or a problem where the client
// has none; text stays as it is.
func (sp *speller) value(field, text string) string {
	if !strings.ContainsAny(text, "${") {
		return text // no reference (policy.Scan's own first look), nothing allocated
	}
	tpl := policy.Scan(text, registryForms())
	if len(tpl) < 2 && (len(tpl) == 0 || tpl[0].Ref == nil) {
		return text
	}
	var b strings.Builder
	for _, part := range tpl {
		if part.Ref == nil {
			b.WriteString(part.Text)
			continue
		}
		out, ok := sp.placeholder(field, part.Ref)
		if !ok {
			return text // refused: the problem says so, nothing is written
		}
		b.WriteString(out)
	}
	return b.String()
}

// placeholder writes one placeholder of field in the client's forms.
func (sp *speller) placeholder(field string, ph *policy.Placeholder) (string, bool) {
	t := sp.t
	switch ph.Kind {
	case policy.KindPath:
		switch ph.Name {
		case policy.PathProject:
			return t.ProjectValue(), true
		case policy.PathWorkspace:
			return t.workspaceValue(), true
		}
		if t.P.HomeVar != "" {
			return t.P.HomeVar, true
		}
		if t.Home == "" {
			sp.bad(field, t.P.Display+" has no placeholder for the home directory")
			return "", false
		}
		return t.Home, true
	case policy.KindInput:
		if t.P.Prompts {
			sp.inputs = AppendNew(sp.inputs, []string{ph.Name})
			return ph.Spell(policy.StyleInput)
		}
		ph = &policy.Placeholder{Kind: policy.KindVariable, Name: sp.inputVar(ph.Name)}
	}
	if why := t.refused(field); why != "" {
		sp.refuse(field, why)
		return "", false
	}
	if t.remoteField(field) && slices.Contains(t.P.ReservedRefs, ph.Name) {
		sp.bad(field, reservedReason(t.P, ph.Name))
		return "", false
	}
	style := t.P.Refs.Style
	if sp.byName {
		forms := sp.d.fieldForms(field)
		if len(forms) == 0 {
			sp.bad(field, t.P.Display+" expands no reference inside a value in "+fieldKind(field)+"; it takes variables only by name")
			return "", false
		}
		style = forms[0]
		sp.headerVars = AppendNew(sp.headerVars, []string{ph.Name})
	}
	out, ok := ph.Spell(style)
	switch {
	case ok:
		return out, true
	case t.P.Refs.Open == "":
		sp.bad(field, noInterpolation(t.P))
	default:
		sp.bad(field, t.P.Display+" has no default value in a reference (${VAR:-default})")
	}
	return "", false
}

// remoteField reports whether field is a remote server's URL or a header.
func (Target) remoteField(field string) bool {
	return field == "url" || strings.HasPrefix(field, "headers.") || strings.HasPrefix(field, "headerEnv.") || field == "bearerEnv"
}

// fieldKind names the member a field is in: args for args[2], env for env.K.
func fieldKind(field string) string {
	if i := strings.IndexAny(field, ".["); i > 0 {
		return field[:i]
	}
	return field
}

func reservedReason(p *Provider, vr string) string {
	return p.Display + " reads " + vr + " as empty in a remote server's URL and headers"
}

// launch computes a stdio server's command, arguments, cwd and environment.
func (sp *speller) launch(s *registry.Server, v *Values) {
	t := sp.t
	v.Command = sp.value("command", s.Command)
	if len(s.Args) > 0 {
		v.Args = make([]string, 0, len(s.Args))
	}
	for i, a := range s.Args {
		field := "" // named only where a reference may be refused (value)
		if strings.ContainsAny(a, "${") {
			field = fmt.Sprintf("args[%d]", i)
		}
		v.Args = append(v.Args, sp.value(field, a))
	}
	v.Cwd = sp.value("cwd", s.Cwd)
	env := make(map[string]string, len(s.Env)+len(s.EnvFrom)+len(s.EnvInput))
	for _, k := range sortedKeys(s.Env) {
		env[k] = sp.value("env."+k, s.Env[k])
	}
	for _, k := range sortedKeys(s.EnvFrom) {
		vr := s.EnvFrom[k]
		switch {
		case sp.byName && k != vr && !sp.d.passesNoVariables():
			sp.probs = append(sp.probs, Problem{Server: s.Name, Field: sp.fieldOf("envFrom." + k),
				Reason: t.P.Display + " passes a variable to a server only under its own name",
				Hint:   fmt.Sprintf("mcpwire server update %s --env-from %s=%s (then set %s, the variable the server reads, where %s starts)", s.Name, k, k, k, t.P.Display)})
		case sp.byName:
			v.EnvVars = append(v.EnvVars, vr)
		default:
			if ref := sp.ref("envFrom."+k, vr); ref != "" {
				env[k] = ref
			}
		}
	}
	for _, k := range sortedKeys(s.EnvInput) {
		sp.inputs = AppendNew(sp.inputs, []string{s.EnvInput[k]})
		env[k], _ = (&policy.Placeholder{Kind: policy.KindInput, Name: s.EnvInput[k]}).Spell(policy.StyleInput)
	}
	if len(env) > 0 {
		v.Env = format.Sorted(env)
	}
}

// remote computes a remote server's URL and headers.
func (sp *speller) remote(s *registry.Server, v *Values) {
	p := sp.t.P
	headers := map[string]string{}
	reserved := func(field, vr string) {
		if slices.Contains(p.ReservedRefs, vr) {
			sp.bad(field, reservedReason(p, vr))
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
	input := func(id string) string {
		sp.inputs = AppendNew(sp.inputs, []string{id})
		out, _ := (&policy.Placeholder{Kind: policy.KindInput, Name: id}).Spell(policy.StyleInput)
		return out
	}
	for _, h := range slices.Sorted(maps.Keys(s.HeaderInput)) {
		headers[h] = input(s.HeaderInput[h])
	}
	if s.BearerInput != "" {
		headers["Authorization"] = bearerHeader(input(s.BearerInput))
	}
	v.URL = sp.value("url", s.URL)
	for _, h := range slices.Sorted(maps.Keys(s.Headers)) {
		headers[h] = sp.value("headers."+h, s.Headers[h])
	}
	if len(headers) > 0 {
		v.Headers = format.Sorted(headers)
	}
}

// sortedKeys are the keys of m in order; nothing is allocated for an empty map.
func sortedKeys(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}
