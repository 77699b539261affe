package policy

import (
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/internal/secretref"
)

// This file finds credential values inside strings: arguments, URLs and free text
// (error messages, a server's stderr, lines of a client file). Checks name what they
// find (P1, P7); redaction replaces it with REDACTED (R8).

// Redacted replaces every credential value that is shown.
const Redacted = "REDACTED"

// finding is one credential value inside a string: its bounds and what names it
// (a flag, a variable or header name, "Bearer", "url userinfo", "url query NAME").
type finding struct {
	name       string
	start, end int
	prio       int // at the same start, the lower wins
}

var (
	urlUserinfoRE = lazyRegexp(`[A-Za-z][A-Za-z0-9+.-]*://([^/?#\s"'<>]*)@`)
	urlQueryRE    = lazyRegexp(`[?&;]([A-Za-z0-9_.\-\[\]]+)=([^&;#\s"'<>]*)`)
	bearerRE      = lazyRegexp(`(?i)\bbearer\s+([^\s"'<>]+)`)
	kvRE          = lazyRegexp(`(-{0,2}[A-Za-z_][A-Za-z0-9_.\-]*)["']?[ \t]*([:=])[ \t]*`)
	flagSpaceRE   = lazyRegexp(`(?:^|\s)(-{1,2}[A-Za-z][A-Za-z0-9_.\-]*)[ \t]+([^\s"'<>-][^\s"'<>]*)`)
	envNameRE     = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)
	headerNameRE  = lazyRegexp(`^[A-Za-z][A-Za-z0-9_\-]*$`)
	schemeRE      = lazyRegexp(`(?i)^(?:bearer|basic|token|digest|apikey|api-key)[ \t]+`)
)

// urlFindings finds URL userinfo and credential query parameters anywhere in s.
// refused decides which query values count (literal ones, or any non-empty one).
func urlFindings(s string, refused func(string) bool) []finding {
	var out []finding
	if strings.Contains(s, "@") && strings.Contains(s, "://") {
		for _, m := range urlUserinfoRE().FindAllStringSubmatchIndex(s, -1) {
			if m[3] > m[2] {
				out = append(out, finding{"url userinfo", m[2], m[3], 1})
			}
		}
	}
	if strings.Contains(s, "=") && strings.ContainsAny(s, "?&;") {
		for _, m := range urlQueryRE().FindAllStringSubmatchIndex(s, -1) {
			name, value := s[m[2]:m[3]], s[m[4]:m[5]]
			if n := referenceLen(s[m[4]:]); n > 0 {
				value = s[m[4] : m[4]+n] // the whole placeholder, blanks and all
			}
			if SecretName(name) && refused(value) {
				out = append(out, finding{"url query " + name, m[4], m[5], 1})
			}
		}
	}
	return out
}

// bearerFindings finds "Bearer <value>" anywhere in s.
func bearerFindings(s string) []finding {
	if len(s) < 7 || !strings.Contains(strings.ToLower(s), "bearer") {
		return nil
	}
	var out []finding
	for _, m := range bearerRE().FindAllStringSubmatchIndex(s, -1) {
		if referenceLen(s[m[2]:]) == 0 && literal(s[m[2]:m[3]]) {
			out = append(out, finding{"Bearer", m[2], m[3], 0})
		}
	}
	return out
}

// referenceLen is the length of the whole placeholder s starts with, in a spelling
// of the table, 0 when it starts with none: the word a pattern stops at (a blank, a
// quote) may lie inside one, as in Continue's "${{ secrets.TOKEN }}", which is one
// reference, not a literal "${{".
func referenceLen(s string) int {
	if n, ok := referenceAt(s); ok && n > 0 && IsReference(s[:n]) {
		return n
	}
	return 0
}

// argFindings finds the credential values inside one argument: the value of
// --token=VALUE, NAME=VALUE with a credential name (GITHUB_TOKEN=…), a header-shaped
// argument (Authorization: token VALUE, X-Api-Key: VALUE), Bearer VALUE, URL
// userinfo and credential query parameters, and token-shaped values wherever they
// stand (K6: a positional sk-ant-…, the value of -k ghp_…, a PEM block).
func argFindings(a string) []finding {
	if p, ok := KnownToken(a); ok {
		return []finding{{tokenName(p), 0, len(a), 2}}
	}
	out := prefixFindings(a, 0)
	out = append(out, bearerFindings(a)...)
	out = append(out, urlFindings(a, literal)...)
	out = append(out, tokenFindings(a)...)
	return settle(out)
}

// prefixFindings finds the shapes that start at the beginning of s (an argument,
// or the value of a --flag= argument), at offset off of the argument.
func prefixFindings(s string, off int) []finding {
	if strings.HasPrefix(s, "-") {
		name, value, ok := strings.Cut(s, "=")
		if !ok {
			return nil
		}
		at := off + len(name) + 1
		if SecretName(name) {
			if literalArg(value) {
				return []finding{{name, at, off + len(s), 2}}
			}
			return nil
		}
		return prefixFindings(value, at)
	}
	if name, value, ok := strings.Cut(s, "="); ok && envNameRE().MatchString(name) {
		if SecretName(name) && literalArg(value) {
			return []finding{{name, off + len(name) + 1, off + len(s), 2}}
		}
		return nil
	}
	if name, value, ok := strings.Cut(s, ":"); ok && headerNameRE().MatchString(strings.TrimRight(name, " \t")) && !strings.HasPrefix(value, "//") {
		name = strings.TrimRight(name, " \t")
		if !SecretName(name) {
			return nil
		}
		start := len(s) - len(strings.TrimLeft(value, " \t"))
		if m := schemeRE().FindStringIndex(s[start:]); m != nil {
			start += m[1]
		}
		v := strings.TrimRight(s[start:], " \t")
		if literal(v) && !IsReference(strings.TrimSpace(value)) {
			return []finding{{name, off + start, off + start + len(v), 2}}
		}
	}
	return nil
}

// literalArg reports whether the value of a credential flag or NAME=VALUE argument
// is a literal credential: not empty, not a reference, and not the name of a
// variable (CLIENT_TOKEN: upper-case letters with an underscore, no digit), which
// a tool reads itself.
// A NAME=REF value (mcpwire exec's --env-secret K=REF) names a secret store's
// reference, not a credential either.
func literalArg(v string) bool {
	if name, ref, ok := strings.Cut(v, "="); ok && envNameRE().MatchString(name) && secretref.Is(ref) {
		return false
	}
	return literal(v) && !varNameShaped(v)
}

func varNameShaped(v string) bool {
	if !strings.Contains(v, "_") {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// textFindings finds credential values in free text: everything argFindings finds
// in an argument, anywhere in the text, plus "NAME: VALUE", "NAME=VALUE",
// "\"NAME\": \"VALUE\"" and "--flag VALUE" with a credential name, and token-shaped
// words (K6).
func textFindings(s string) []finding {
	out := bearerFindings(s)
	out = append(out, urlFindings(s, literal)...)
	out = append(out, tokenFindings(s)...)
	if strings.ContainsAny(s, ":=") {
		for _, m := range kvRE().FindAllStringSubmatchIndex(s, -1) {
			name := s[m[2]:m[3]]
			if !SecretName(name) || refAt(s[m[2]:]) {
				continue
			}
			if f, ok := textValue(s, m[1], name); ok {
				out = append(out, f)
			}
		}
	}
	if strings.Contains(s, "-") {
		for _, m := range flagSpaceRE().FindAllStringSubmatchIndex(s, -1) {
			if SecretName(s[m[2]:m[3]]) && literalArg(s[m[4]:m[5]]) {
				out = append(out, finding{s[m[2]:m[3]], m[4], m[5], 2})
			}
		}
	}
	return settle(out)
}

// refAt reports whether s starts with a secret store's reference (pass:NAME reads
// like a credential's name and value).
func refAt(s string) bool {
	if _, ok := secretref.StoreOf(s); !ok {
		return false
	}
	end := strings.IndexAny(s, " \t\r\n\"'<>,;&)}]")
	if end < 0 {
		end = len(s)
	}
	return secretref.Is(s[:end])
}

// textValue reads the value that starts at s[i] after "NAME:" or "NAME=": quoted or
// a bare word, after an optional authorization scheme word.
func textValue(s string, i int, name string) (finding, bool) {
	if i >= len(s) {
		return finding{}, false
	}
	var quote byte
	if c := s[i]; c == '"' || c == '\'' {
		quote = c
		i++
	}
	if m := schemeRE().FindStringIndex(s[i:]); m != nil {
		i += m[1]
	}
	if quote == 0 && i < len(s) && (s[i] == '{' || s[i] == '[') {
		return finding{}, false // an object or array follows a name: the name is a key
	}
	end := i
	if quote != 0 {
		for end < len(s) && s[end] != quote {
			if s[end] == '\\' && quote == '"' && end+1 < len(s) {
				end++
			}
			end++
		}
	} else if n, ok := referenceAt(s[i:]); ok {
		end = i + n // a reference: kept
	} else {
		for end < len(s) && !strings.ContainsRune(" \t\r\n\"'<>,;&)}]", rune(s[end])) {
			end++
		}
	}
	v := s[i:end]
	if v == "" || !literalArg(v) || v == "true" || v == "false" || v == "null" {
		return finding{}, false
	}
	return finding{name, i, end, 2}, true
}

// settle sorts findings and drops those that overlap an earlier (or, at the same
// start, a preferred) one.
func settle(fs []finding) []finding {
	if len(fs) < 2 {
		return fs
	}
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].start != fs[j].start {
			return fs[i].start < fs[j].start
		}
		return fs[i].prio < fs[j].prio
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		if f.start >= out[len(out)-1].end {
			out = append(out, f)
		}
	}
	return out
}

// replace returns s with every finding replaced by REDACTED.
func replace(s string, fs []finding) string {
	if len(fs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, f := range fs {
		b.WriteString(s[last:f.start])
		b.WriteString(Redacted)
		last = f.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// values returns the found substrings.
func values(s string, fs []finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = s[f.start:f.end]
	}
	return out
}

// RedactText hides credential values anywhere in free text (an error message, a
// server's stderr line, a line of a client file): URL userinfo and credential query
// parameters, Bearer tokens, "NAME: VALUE" / "NAME=VALUE" / --flag VALUE with a
// credential name (token, password, api_key, Authorization, …). References such as
// ${TOKEN} are kept. Run it before shortening a text, so that no prefix of a secret
// is left.
func RedactText(s string) string {
	return replace(s, textFindings(s))
}

// TextSecrets returns the credential values RedactText would hide in s.
func TextSecrets(s string) []string {
	return values(s, textFindings(s))
}

// argScan walks args and calls fn for each credential value: the index of the
// argument, the finding inside it (a --flag VALUE pair covers the whole value).
func argScan(args []string, fn func(i int, f finding)) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && SecretName(a) &&
			i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			if literalArg(args[i+1]) {
				fn(i+1, finding{a, 0, len(args[i+1]), 2})
			}
			i++
			continue
		}
		for _, f := range argFindings(a) {
			fn(i, f)
		}
	}
}

// ArgSecrets returns the credential values inside args (the parts RedactArgs hides).
func ArgSecrets(args []string) []string {
	var out []string
	argScan(args, func(i int, f finding) { out = append(out, args[i][f.start:f.end]) })
	return out
}
