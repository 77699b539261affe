package policy

import (
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// Fields are the credential-bearing parts of one server as the checks see them.
type Fields struct {
	Server string
	URL    string
	// Command is a stdio server's command; a command line with a credential in it
	// (a URL with userinfo, --token VALUE) is checked like the arguments.
	Command   string
	Args      []string
	Env       map[string]string
	Headers   map[string]string
	HeaderEnv map[string]string
	EnvFrom   map[string]string
	BearerEnv string
	Auth      map[string]any
	OAuth     map[string]any
	// ExemptEnv names env keys that are paths, not credentials (P8: AIWG_ROOT on the
	// built-in aiwg entry).
	ExemptEnv map[string]bool
	// PlainEnv names the env keys the server declares plain (P11, plainEnv): exempt
	// when their name and value pass PlainEnvProblem.
	PlainEnv map[string]bool
	// PlainHeaders names the headers declared plain (H10, plainHeaders), as PlainEnv.
	PlainHeaders map[string]bool
}

// Violation names one refused field of one server. It never holds a value.
type Violation struct {
	Server string
	Field  string
}

func (v Violation) String() string { return v.Server + " (" + v.Field + ")" }

var (
	userinfoRE = lazyRegexp(`^[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s]*)@`)
)

// HasUserinfo reports whether a URL carries userinfo (user:password@). It also finds
// userinfo in URLs that do not parse.
func HasUserinfo(u string) bool {
	return strings.Contains(u, "@") && userinfoRE().MatchString(strings.TrimSpace(u))
}

// RedactURL replaces a URL's userinfo with "REDACTED", and the values of query
// parameters whose names mark a credential (token=, api_key=, …) unless they are
// references (R8). Everything else is kept as written.
func RedactURL(u string) string {
	if strings.Contains(u, "@") {
		if m := userinfoRE().FindStringSubmatchIndex(u); m != nil {
			u = u[:m[2]] + "REDACTED" + u[m[3]:]
		}
	}
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	query, frag := u[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	params := strings.Split(query, "&")
	changed := false
	for i, p := range params {
		k, v, ok := strings.Cut(p, "=")
		if ok && SecretName(k) && literal(v) {
			params[i] = k + "=REDACTED"
			changed = true
		}
	}
	if !changed {
		return u
	}
	return u[:q+1] + strings.Join(params, "&") + frag
}

// IsReference reports whether a value only refers to an environment variable:
// ${VAR}, ${VAR:-} (an empty default), ${env:VAR} or {env:VAR}, optionally after an
// authorization scheme word such as "Bearer ". ${VAR:-default} with a non-empty
// default is not a reference: the default is a literal that the client uses.
func IsReference(v string) bool { return referenceRE().MatchString(strings.TrimSpace(v)) }

// literal reports whether a value is a literal credential: non-empty, not a reference
// to a variable and not a reference to a secret store (S1: op://…, pass:…, keyring:…,
// file:…, which name where a credential is kept).
func literal(v string) bool { return v != "" && !IsReference(v) && !secretref.Is(v) }

// Check returns every field of f that level refuses (P1). References passes
// references and refuses literal env/header values, URL userinfo and credential
// query parameters (in the url, in arguments and in auth/oauth URLs) and literal
// auth/oauth secrets (client_secret, clientSecret, token, password, … at any depth,
// names compared without case, '_' or '-'); None refuses every credential-bearing
// field, references included: any non-empty env/header value, headerEnv,
// bearerEnv, envFrom, auth and oauth. Empty strings are not credentials.
func Check(level Level, f Fields) []Violation {
	if level == Literal {
		return nil
	}
	// nothing here is captured by a closure that escapes: a check of a plain server
	// allocates nothing but what it finds (K7: an import checks 200,000)
	server := f.Server
	var out []Violation
	add := func(field string) { out = append(out, Violation{server, field}) }
	refused := literal
	if level >= None {
		refused = nonEmpty
	}
	for _, k := range sortedKeys(f.Env) {
		if refused(f.Env[k]) && !f.exemptEnv(k) {
			add(f.envField(k))
		}
	}
	for _, k := range sortedKeys(f.Headers) {
		if refused(f.Headers[k]) && !f.exemptHeader(k) {
			add(f.headerField(k))
		}
	}
	for _, name := range urlCredentials(f.URL, refused) {
		add(name)
	}
	argScan(strings.Fields(f.Command), func(_ int, x finding) {
		if strings.HasPrefix(x.name, "url ") {
			add("command " + x.name)
		}
	})
	argScan(f.Args, func(_ int, x finding) {
		if strings.HasPrefix(x.name, "url ") {
			add("args " + x.name)
		}
	})
	for _, name := range authCredentials("auth", f.Auth, refused) {
		add(name)
	}
	for _, name := range authCredentials("oauth", f.OAuth, refused) {
		add(name)
	}
	if level < None {
		return dedupe(out)
	}
	if len(f.HeaderEnv) > 0 {
		add("headerEnv")
	}
	if f.BearerEnv != "" {
		add("bearerEnv")
	}
	if len(f.EnvFrom) > 0 {
		add("envFrom")
	}
	if populated(f.Auth) {
		add("auth")
	}
	if populated(f.OAuth) {
		add("oauth")
	}
	return dedupe(out)
}

// nonEmpty refuses every value but the empty string (None).
func nonEmpty(v string) bool { return v != "" }

// authCredentials names the fields of an auth or oauth object (part) that refused
// refuses: URL credentials in its strings, and secrets under a credential's name.
func authCredentials(part string, m map[string]any, refused func(string) bool) []string {
	if len(m) == 0 {
		return nil
	}
	var out []string
	walkStrings(part, m, func(path, key, s string) {
		for _, name := range urlCredentials(s, refused) {
			out = append(out, path+" "+strings.TrimPrefix(name, "url "))
		}
		if NormName(key) != "type" && SecretName(key) && refused(s) && !isURL(s) {
			out = append(out, path)
		}
	})
	return out
}

// urlCredentials names the credentials a URL carries: "url userinfo" and
// "url query NAME" for each credential query parameter whose value refused accepts.
func urlCredentials(u string, refused func(string) bool) []string {
	if u == "" {
		return nil
	}
	var out []string
	if HasUserinfo(u) {
		out = append(out, "url userinfo")
	}
	for _, x := range urlFindings(u, refused) {
		if x.name != "url userinfo" {
			out = append(out, x.name)
		}
	}
	return out
}

// isURL reports whether s starts like an absolute URL (scheme://).
func isURL(s string) bool {
	i := strings.Index(s, "://")
	return i > 0 && !strings.ContainsAny(s[:i], " \t/")
}

// CheckProject returns every field that may not be written to a committed
// project-scope file, whatever the policy (P7): literal env/header values, populated
// auth/oauth fields (all but type), credential-bearing argument values (see
// CredentialArgs), URL userinfo and credential query parameters.
func CheckProject(f Fields) []Violation {
	var out []Violation
	add := func(field string) { out = append(out, Violation{f.Server, field}) }
	for _, k := range sortedKeys(f.Env) {
		if literal(f.Env[k]) && !f.exemptEnv(k) {
			add(f.envField(k))
		}
	}
	for _, k := range sortedKeys(f.Headers) {
		if literal(f.Headers[k]) && !f.exemptHeader(k) {
			add(f.headerField(k))
		}
	}
	for _, part := range []struct {
		name string
		m    map[string]any
	}{{"auth", f.Auth}, {"oauth", f.OAuth}} {
		for _, k := range sortedKeys(part.m) {
			if k != "type" && populatedValue(part.m[k]) {
				add(part.name + "." + k)
			}
		}
	}
	for _, flag := range CredentialArgs(strings.Fields(f.Command)) {
		add("command " + flag)
	}
	for _, flag := range CredentialArgs(f.Args) {
		add("args " + flag)
	}
	for _, name := range urlCredentials(f.URL, literal) {
		add(name)
	}
	return dedupe(out)
}

// CredentialArgs names the arguments that carry a credential value: flags such as
// --token=…, --api-key …, --key …, --pat …; NAME=VALUE with a credential name
// (GITHUB_PERSONAL_ACCESS_TOKEN=…); header-shaped arguments (Authorization: token …,
// X-Api-Key: …); "Bearer …" values; URL userinfo ("url userinfo") and credential
// query parameters ("url query api_key") anywhere in an argument. It returns names
// only, never a value.
func CredentialArgs(args []string) []string {
	var out []string
	argScan(args, func(_ int, x finding) { out = append(out, x.name) })
	return out
}

// RedactArgs returns args with credential values (those CredentialArgs names)
// replaced by REDACTED, for display.
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	byArg := map[int][]finding{}
	argScan(args, func(i int, x finding) { byArg[i] = append(byArg[i], x) })
	for i, fs := range byArg {
		out[i] = replace(args[i], fs)
	}
	return out
}

func populated(m map[string]any) bool {
	for _, v := range m {
		if populatedValue(v) {
			return true
		}
	}
	return false
}

func populatedValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	default:
		return true
	}
}

func dedupe(v []Violation) []Violation {
	seen := map[Violation]bool{}
	out := v[:0]
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Error is a refusal: every offending server and field, never a value (P6).
type Error struct {
	// Rule says what refused: a policy level or "project scope".
	Rule       string
	Violations []Violation
	// Hint, when set, says how to resolve it.
	Hint string
	// More are further hint lines (PlainHint).
	More []string
}

func (e *Error) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return fmt.Sprintf("%s refuses %s", e.Rule, strings.Join(parts, ", "))
}

// Hints returns the hint lines of the error.
func (e *Error) Hints() []string {
	var out []string
	if e.Hint != "" {
		out = append(out, e.Hint)
	}
	return append(out, e.More...)
}
