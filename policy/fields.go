package policy

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Fields are the credential-bearing parts of one server as the checks see them.
type Fields struct {
	Server    string
	URL       string
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
}

// Violation names one refused field of one server. It never holds a value.
type Violation struct {
	Server string
	Field  string
}

func (v Violation) String() string { return v.Server + " (" + v.Field + ")" }

var (
	userinfoRE  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s]*)@`)
	referenceRE = regexp.MustCompile(`^(?:(?i:bearer|basic|token)\s+)?(?:\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}|\$\{env:[A-Za-z_][A-Za-z0-9_]*\}|\{env:[A-Za-z_][A-Za-z0-9_]*\})$`)
	bearerArgRE = regexp.MustCompile(`(?i)\bbearer\s+(\S+)`)
)

// secretWords are the parts of a flag or parameter name that mark its value as a
// credential (case-insensitive): token, api[-_]?key, secret, passw(or)?d, bearer,
// credential, access[-_]?key, private[-_]?key. A substring check, not a regular
// expression: it runs for every argument of every server that is listed.
var secretWords = []string{
	"token", "apikey", "api-key", "api_key", "secret", "passwd", "password", "bearer", "credential",
	"accesskey", "access-key", "access_key", "privatekey", "private-key", "private_key",
}

// secretName reports whether a flag or parameter name marks a credential.
func secretName(name string) bool {
	lower := strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// bearerArg finds "Bearer <value>" in an argument and returns the value's bounds.
func bearerArg(a string) (start, end int, ok bool) {
	if len(a) < 7 || !strings.Contains(strings.ToLower(a), "bearer") {
		return 0, 0, false
	}
	m := bearerArgRE.FindStringSubmatchIndex(a)
	if m == nil {
		return 0, 0, false
	}
	return m[2], m[3], true
}

// HasUserinfo reports whether a URL carries userinfo (user:password@). It also finds
// userinfo in URLs that do not parse.
func HasUserinfo(u string) bool {
	return strings.Contains(u, "@") && userinfoRE.MatchString(strings.TrimSpace(u))
}

// RedactURL replaces a URL's userinfo with "REDACTED", and the values of query
// parameters whose names mark a credential (token=, api_key=, …) unless they are
// references (R8). Everything else is kept as written.
func RedactURL(u string) string {
	if strings.Contains(u, "@") {
		if m := userinfoRE.FindStringSubmatchIndex(u); m != nil {
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
		if ok && secretName(k) && literal(v) {
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
// ${VAR}, ${VAR:-default}, ${env:VAR} or {env:VAR}, optionally after an
// authorization scheme word such as "Bearer ".
func IsReference(v string) bool { return referenceRE.MatchString(strings.TrimSpace(v)) }

// literal reports whether a value is a literal credential: non-empty and not a reference.
func literal(v string) bool { return v != "" && !IsReference(v) }

// Check returns every field of f that level refuses (P1). References passes
// references and refuses literal env/header values, URL userinfo (also in auth/oauth
// URLs) and OAuth client secrets; None refuses every credential-bearing field,
// references included: any non-empty env/header value, headerEnv, bearerEnv,
// envFrom, auth and oauth. Empty strings are not credentials.
func Check(level Level, f Fields) []Violation {
	if level == Literal {
		return nil
	}
	var out []Violation
	add := func(field string) { out = append(out, Violation{f.Server, field}) }
	refused := literal
	if level >= None {
		refused = func(v string) bool { return v != "" }
	}
	for _, k := range sortedKeys(f.Env) {
		if refused(f.Env[k]) && !f.ExemptEnv[k] {
			add("env." + k)
		}
	}
	for _, k := range sortedKeys(f.Headers) {
		if refused(f.Headers[k]) {
			add("headers." + k)
		}
	}
	if HasUserinfo(f.URL) {
		add("url userinfo")
	}
	for _, part := range []struct {
		name string
		m    map[string]any
	}{{"auth", f.Auth}, {"oauth", f.OAuth}} {
		for _, k := range sortedKeys(part.m) {
			s, _ := part.m[k].(string)
			if HasUserinfo(s) {
				add(part.name + "." + k + " userinfo")
			}
			if strings.EqualFold(k, "clientSecret") && s != "" {
				add(part.name + "." + k)
			}
		}
	}
	if level < None {
		return out
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

// CheckProject returns every field that may not be written to a committed
// project-scope file, whatever the policy (P7): literal env/header values, populated
// auth/oauth fields (all but type), credential-bearing argument values and URL
// userinfo.
func CheckProject(f Fields) []Violation {
	var out []Violation
	add := func(field string) { out = append(out, Violation{f.Server, field}) }
	for _, k := range sortedKeys(f.Env) {
		if literal(f.Env[k]) && !f.ExemptEnv[k] {
			add("env." + k)
		}
	}
	for _, k := range sortedKeys(f.Headers) {
		if literal(f.Headers[k]) {
			add("headers." + k)
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
	for _, flag := range CredentialArgs(f.Args) {
		add("args " + flag)
	}
	if HasUserinfo(f.URL) {
		add("url userinfo")
	}
	return out
}

// CredentialArgs names the arguments that carry a credential value: flags such as
// --token=…, --api-key … and "Bearer …" values. It returns flag names only.
func CredentialArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if vs, ve, ok := bearerArg(a); ok && !IsReference("Bearer "+a[vs:ve]) {
			out = append(out, "Bearer")
			continue
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !secretName(strings.TrimLeft(name, "-")) {
			continue
		}
		if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			value, hasValue = args[i+1], true
			i++
		}
		if hasValue && literal(value) {
			out = append(out, name)
		}
	}
	return out
}

// RedactArgs returns args with credential values replaced by REDACTED, for display.
func RedactArgs(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if vs, ve, ok := bearerArg(a); ok && !IsReference("Bearer "+a[vs:ve]) {
			out[i] = a[:vs] + "REDACTED" + a[ve:]
			continue
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !secretName(strings.TrimLeft(name, "-")) {
			continue
		}
		if hasValue {
			if literal(value) {
				out[i] = name + "=REDACTED"
			}
		} else if i+1 < len(out) && !strings.HasPrefix(out[i+1], "-") {
			if literal(out[i+1]) {
				out[i+1] = "REDACTED"
			}
			i++
		}
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
	if e.Hint == "" {
		return nil
	}
	return []string{e.Hint}
}
