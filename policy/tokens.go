package policy

import "strings"

// Token-shaped values (K6): a value in a well-known token format is a credential
// wherever it stands — a positional argument (sk-ant-…), the value of a flag whose
// name says nothing (-k ghp_…), a word of free text — not only where a name marks it.
// The prefixes are those P11 refuses to declare plain (tokenPrefixes, plain.go); a
// prefix alone is not enough here, since "sk-learn" or "ASIA/Tokyo" are no tokens:
// what follows it must look like a token too.

// minTokenBody is the least number of characters after a prefix that makes a token:
// the shortest common format (GitLab's glpat-, 20) with room for older ones.
const minTokenBody = 16

// KnownToken reports whether v is a token of a well-known format, and its prefix:
// a prefix of tokenPrefixes followed by at least 16 characters of a token's alphabet
// (letters, digits, '-', '_', '.', '+', '/', '=' at the end) with a digit or both
// cases among them, as random keys have and words do not. An AWS key id (AKIA,
// ASIA) has exactly 16 upper-case letters and digits after its prefix; a JWT (eyJ)
// three dot-separated parts; a PEM block (-----BEGIN) is one whatever follows.
func KnownToken(v string) (prefix string, ok bool) {
	if len(v) < len("-----BEGIN") { // the shortest token: every other needs 16 after its prefix
		return "", false
	}
	p := ""
	for _, tp := range prefixesFrom[v[0]] { // K7: every argument of 200,000 servers
		if strings.HasPrefix(v, tp) {
			p = tp
			break
		}
	}
	if p == "" {
		return "", false
	}
	body := v[len(p):]
	switch p {
	case "-----BEGIN":
		return p, true
	case "AKIA", "ASIA":
		if len(body) != 16 {
			return "", false
		}
		for i := 0; i < len(body); i++ {
			if c := body[i]; !isUpper(c) && !isDigit(c) {
				return "", false
			}
		}
		return p, true
	}
	trimmed := strings.TrimRight(body, "=")
	if len(body) < minTokenBody || (p == "eyJ" && strings.Count(body, ".") != 2) {
		return "", false
	}
	var digit, upper, lower bool
	for i := 0; i < len(trimmed); i++ {
		c := trimmed[i]
		switch {
		case isDigit(c):
			digit = true
		case isUpper(c):
			upper = true
		case isLower(c):
			lower = true
		case c == '-' || c == '_' || c == '.' || c == '+' || c == '/':
		default:
			return "", false
		}
	}
	return p, digit || upper && lower
}

// prefixesFrom are tokenPrefixes by their first byte, in their order.
var prefixesFrom = func() (by [256][]string) {
	for _, p := range tokenPrefixes {
		by[p[0]] = append(by[p[0]], p)
	}
	return by
}()

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// tokenName names a token-shaped value by its prefix only: "ghp_… token".
func tokenName(prefix string) string { return prefix + "… token" }

// tokenWordByte reports whether c may be part of a token in free text: '=' is not
// (it separates a name from its value), but ends a base64 token as padding.
func tokenWordByte(c byte) bool {
	return isUpper(c) || isLower(c) || isDigit(c) || c == '-' || c == '_' || c == '.' || c == '+' || c == '/'
}

// tokenFindings finds the token-shaped words of free text: runs of a token's
// characters (with their '=' padding) that KnownToken accepts, each named by its
// prefix. One pass over s, no allocation when there is none.
func tokenFindings(s string) []finding {
	var out []finding
	for i := 0; i < len(s); {
		if !tokenWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && tokenWordByte(s[j]) {
			j++
		}
		for j < len(s) && s[j] == '=' {
			j++
		}
		if j-i > minTokenBody {
			if p, ok := KnownToken(strings.TrimRight(s[i:j], ".")); ok {
				out = append(out, finding{tokenName(p), i, i + len(strings.TrimRight(s[i:j], ".")), 3})
			}
		}
		i = j
	}
	return out
}
