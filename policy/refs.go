package policy

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Spelling is one way a client file writes a reference to an environment variable
// (V4). Each client declares its own (package providers, in the client's file) and
// hands it over with Declare as the program starts; the registry's own forms, ${VAR}
// and ${input:ID}, are policy's. The checks read every spelling declared
// (IsReference), the client spells its references with its own, and rendering asks
// it whether a value refers to a variable (RefersTo).
type Spelling struct {
	// Style names the spelling, as `mcpwire providers` shows it.
	Style string
	// Open and Close surround the variable's name: "${" and "}". Both are empty when
	// the client has no placeholder: it takes variable names in fields of their own,
	// or no reference at all.
	Open, Close string
	// Default, when set, separates a default value inside the placeholder (":-" in
	// ${VAR:-default}). Only an empty default leaves the value a reference: a
	// non-empty one is a literal the client uses.
	Default string
	// Prompt: the placeholder names a value the client asks the person for and keeps
	// in its own secret store (VS Code's ${input:ID}), not an environment variable. It
	// is a reference, not a literal (P1, P7), but no variable reads back from it.
	Prompt bool
	// ByName: the client has no placeholder but takes variables by name, in members of
	// their own (Codex's env_vars, bearer_token_env_var).
	ByName bool
}

// The registry's own forms: a reference to a variable, and an input (T3).
const (
	StyleDollar = "${VAR}"
	StyleInput  = "${input:ID}"
)

// own are the registry's spellings; clients gives the clients' (UseSpellings).
var (
	own = []Spelling{
		{Style: StyleDollar, Open: "${", Close: "}", Default: ":-"},
		{Style: StyleInput, Open: "${input:", Close: "}", Prompt: true},
	}
	clients func() []Spelling
	// spellings are both, each style once, read when the first check needs them.
	spellings = sync.OnceValue(func() []Spelling {
		out := slices.Clip(own)
		if clients == nil {
			return out
		}
		for _, s := range clients() {
			i := slices.IndexFunc(out, func(o Spelling) bool { return o.Style == s.Style })
			switch {
			case i < 0:
				out = append(out, s)
			case out[i] != s:
				panic("policy: two spellings of style " + s.Style)
			}
		}
		return out
	})
)

// UseSpellings says where the clients' spellings come from: the client list (package
// providers) hands over its own as the program starts, and the checks read it once,
// when the first of them runs. A style must be spelt the same by every client.
func UseSpellings(list func() []Spelling) { clients = list }

// Spellings returns every spelling: the registry's own and the clients'.
func Spellings() []Spelling { return slices.Clone(spellings()) }

// SpellingOf returns the spelling with the given style.
func SpellingOf(style string) (Spelling, bool) {
	for _, s := range spellings() {
		if s.Style == style {
			return s, true
		}
	}
	return Spelling{}, false
}

// Spell writes a reference to variable v, or "" when the spelling has no placeholder
// for variables.
func (s Spelling) Spell(v string) string {
	if s.Open == "" || s.Prompt {
		return ""
	}
	return s.Open + v + s.Close
}

// RefersTo reports whether text holds a reference to variable v in this spelling,
// with or without a default (${VAR} or ${VAR:-x}); ${VAR_OTHER} is another variable.
func (s Spelling) RefersTo(text, v string) bool {
	if s.Open == "" {
		return false
	}
	return strings.Contains(text, s.Open+v+s.Close) || s.Default != "" && strings.Contains(text, s.Open+v+s.Default)
}

// Variable is the inverse of Spell (issue 14: import reads a client's file back): the
// variable a value refers to when the whole value is one reference in this spelling,
// without a default ("${TOKEN}" → TOKEN). Anything else — text around the
// placeholder, a default, another spelling, an invalid name — is not a reference
// this spelling wrote, and stays a literal value.
func (s Spelling) Variable(text string) (string, bool) {
	if s.Open == "" || s.Prompt {
		return "", false
	}
	name, ok := strings.CutPrefix(text, s.Open)
	if !ok {
		return "", false
	}
	if name, ok = strings.CutSuffix(name, s.Close); !ok || !IsVarName(name) {
		return "", false
	}
	return name, true
}

// AnyVariable is Variable in every spelling: for a snippet whose client is not known
// (server add-json).
func AnyVariable(text string) (string, bool) {
	for _, s := range spellings() {
		if v, ok := s.Variable(text); ok {
			return v, true
		}
	}
	return "", false
}

// BearerScheme starts the Authorization header that carries a bearer token from a
// variable (bearerEnv): "Bearer " and the reference.
const BearerScheme = "Bearer "

// IsVarName reports whether s is a variable name: [A-Za-z_][A-Za-z0-9_]*.
func IsVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// referenceAt reports whether s starts with a placeholder of some spelling (the
// longest opening that matches), and the length of the placeholder through its
// closing (0 when it is not closed).
func referenceAt(s string) (n int, ok bool) { return referenceIn(spellings(), s) }

// referenceIn is referenceAt over a table.
func referenceIn(table []Spelling, s string) (n int, ok bool) {
	var best Spelling
	for _, sp := range table {
		if sp.Open != "" && len(sp.Open) > len(best.Open) && strings.HasPrefix(s, sp.Open) {
			best = sp
		}
	}
	if best.Open == "" {
		return 0, false
	}
	if i := strings.Index(s[len(best.Open):], best.Close); i >= 0 {
		return len(best.Open) + i + len(best.Close), true
	}
	return 0, true
}

// referenceRE matches a value that only refers to a variable, in any spelling of the
// table, with an empty default at most, optionally after a scheme word.
var referenceRE = sync.OnceValue(func() *regexp.Regexp { return referenceRegexp(spellings()) })

// referenceRegexp builds referenceRE from a table.
func referenceRegexp(table []Spelling) *regexp.Regexp {
	var alts []string
	for _, sp := range table {
		if sp.Open == "" {
			continue
		}
		name := `[A-Za-z_][A-Za-z0-9_]*`
		if sp.Prompt {
			name = `[^}\s]+` // a prompt's id, which VS Code does not restrict
		}
		alt := regexp.QuoteMeta(sp.Open) + name
		if sp.Default != "" {
			alt += "(?:" + regexp.QuoteMeta(sp.Default) + ")?"
		}
		alts = append(alts, alt+regexp.QuoteMeta(sp.Close))
	}
	return regexp.MustCompile(`^(?:(?i:bearer|basic|token)\s+)?(?:` + strings.Join(alts, "|") + `)$`)
}
