package policy

import (
	"math"
	"strings"
)

// A variable name is a name (T4): where mcpwire takes the name of a variable that
// holds a credential (envFrom, headerEnv, bearerEnv), a value that is the credential
// itself — a shell that expanded $TICKETS_TOKEN before mcpwire saw it, a token pasted
// where its variable's name belongs — is refused, and never shown.

// TokenPrefix returns the well-known token prefix v starts with (ghp_, sk-, xoxb-, …),
// or "".
func TokenPrefix(v string) string {
	v = strings.TrimSpace(v)
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(v, p) {
			return p
		}
	}
	return ""
}

// NameProblem says why name cannot be the name of a variable, or "" when it can: it
// is not [A-Za-z_][A-Za-z0-9_]*, it starts like a well-known token, or it is a long
// random string (a credential, not a name). The reason never holds the value; it
// may name a well-known prefix.
func NameProblem(name string) string {
	if p := tokenWithBody(name); p != "" {
		return "it starts like a well-known token (" + p + "…), not a variable name"
	}
	if !IsVarName(name) {
		return "not a valid variable name ([A-Za-z_][A-Za-z0-9_]*)"
	}
	if randomLooking(name) {
		return "it looks like a credential (a long random string), not a variable name"
	}
	return ""
}

// tokenWithBody returns the well-known prefix v starts with when a token's body
// follows it (KnownToken: npm_config_registry, which npm sets, is a name); ""
// otherwise.
func tokenWithBody(v string) string {
	p, _ := KnownToken(strings.TrimSpace(v))
	return p
}

// TokenShaped reports whether a word standing alone (an argument, a value) is shaped
// like a credential: a well-known token prefix and a token's body, or a long random
// string.
func TokenShaped(v string) bool {
	return tokenWithBody(v) != "" || randomLooking(v)
}

// ExpandedFrom returns the name of a variable of environ (KEY=VALUE entries) whose
// value is v, when v is not itself the name of a variable set there: the shell
// expanded $NAME where the name was meant. "" when there is none.
func ExpandedFrom(v string, environ []string) string {
	if v == "" {
		return ""
	}
	found := ""
	for _, kv := range environ {
		k, val, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if k == v {
			return "" // the name of a set variable: a name as meant
		}
		if val == v && found == "" {
			found = k
		}
	}
	return found
}

// randomLooking reports whether a string that passes as a variable name is more
// likely a credential: at least 20 characters without a word separator (_), about
// 3.5 bits of entropy a character or more, and either a fifth of it digits or lower
// and upper case mixed with digits. Names are words: API_KEY,
// GITHUB_PERSONAL_ACCESS_TOKEN, TOKEN_20240101_BACKUP, githubToken2 stay names.
func randomLooking(s string) bool {
	if len(s) < 20 || strings.Contains(s, "_") || entropy(s) < 3.5 {
		return false
	}
	var lower, upper, digits int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isLower(c):
			lower++
		case isUpper(c):
			upper++
		case c >= '0' && c <= '9':
			digits++
		}
	}
	if digits*5 >= len(s) {
		return true
	}
	return lower > 0 && upper > 0 && digits >= 2
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// ShowName is a variable's name as printed: Redacted when it looks like a credential
// (a registry or client file written before T4 may hold one where a name belongs).
func ShowName(name string) string {
	if IsVarName(name) && NameProblem(name) != "" || TokenPrefix(name) != "" {
		return Redacted
	}
	return name
}

// CheckNames returns the reference fields of f whose variable name is no name
// (NameProblem): a credential stored where its variable's name belongs (T4), as an
// older registry or a hand-written client file may hold it ("${ghp_…}"). audit
// reports them; the violation names the field, never the value.
func CheckNames(f Fields) []Violation {
	var out []Violation
	for _, part := range []struct {
		name string
		m    map[string]string
	}{{"envFrom", f.EnvFrom}, {"headerEnv", f.HeaderEnv}} {
		for _, k := range sortedKeys(part.m) {
			if NameProblem(part.m[k]) != "" {
				out = append(out, Violation{f.Server, part.name + "." + k})
			}
		}
	}
	if f.BearerEnv != "" && NameProblem(f.BearerEnv) != "" {
		out = append(out, Violation{f.Server, "bearerEnv"})
	}
	return out
}
