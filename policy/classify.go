package policy

import (
	"strings"
	"unicode"
)

// This file is the credential classifier: which names mark a credential (SecretName),
// which members hold maps of credentials (CredentialMap), and which values are
// distinctive enough to hide wherever they appear (SecretShaped). The checks, the
// findings in text and policy/redact all ask it.

// NormName lowercases a key, flag or parameter name and drops '_', '-', '.' and
// blanks, so that client_secret, clientSecret and CLIENT-SECRET compare equal. A
// name that is normalised already is returned as it is.
func NormName(s string) string {
	i := 0
	for i < len(s) && !normChanges(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var small [64]byte
	b := small[:0]
	if len(s) > len(small) {
		b = make([]byte, 0, len(s))
	}
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c == '-' || c == '.' || c == ' ' || c == '\t':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// normChanges reports whether NormName drops or changes a byte.
func normChanges(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ' ' || c == '\t' || c >= 'A' && c <= 'Z'
}

// secretWords are the parts of a normalised name (see NormName) that mark its
// value as a credential. A substring check, not a regular expression: it runs for
// every argument of every server that is listed.
var secretWords = []string{
	"token", "apikey", "secret", "passwd", "password", "passphrase", "bearer", "credential",
	"accesskey", "privatekey", "authkey", "subscriptionkey", "licensekey", "signingkey",
	"masterkey", "sessionkey", "clientkey", "authorization", "cookie", "signature",
}

// secretWhole are names that mark a credential only as the whole (normalised) name:
// --key, --pat, --pass, --auth, ?key=, ?sig=.
var secretWhole = map[string]bool{"key": true, "pat": true, "pw": true, "pwd": true, "pass": true, "auth": true, "sig": true}

// secretLast are last words (after '-', '_' or '.') that mark a credential:
// GITHUB_PAT, DB_PASS, MYSQL_PWD.
var secretLast = map[string]bool{"pat": true, "pw": true, "pwd": true, "pass": true}

// notSecretSuffixes end names that hold something about a credential rather than
// the credential: a file, a URL, a variable name, a type, a count (token_file,
// tokenUrl, bearer_token_env_var, token_type, max_tokens).
var notSecretSuffixes = []string{
	"file", "files", "path", "dir", "url", "uri", "endpoint", "env", "envvar", "var", "vars", "name",
	"type", "header", "tokens", "tokenizer", "count", "limit", "ttl", "expiry", "expires", "expiresat",
	"expiresin", "length", "size", "helper", "command", "cmd",
}

// SecretName reports whether a key, flag or parameter name marks its value as a
// credential: token, api_key, secret, password, bearer, credential, access/private
// keys, Authorization, Cookie, and the whole names key, pat, pass, pwd, auth, sig.
// Names about a credential (token_file, tokenUrl, token_type, max_tokens,
// bearer_token_env_var) are not.
func SecretName(name string) bool { return SecretNamed(name, NormName(name)) }

// SecretNamed is SecretName of a name whose NormName the caller has made already
// (policy/redact classifies each distinct name of a file: 46,000 of a 50 MB
// ~/.claude.json, K7). A leading dash changes no NormName.
func SecretNamed(name, norm string) bool {
	if norm == "" || !mayBeSecret(norm) {
		return false
	}
	return secretNorm(strings.TrimLeft(name, "-"), norm)
}

// secretNorm is SecretName of a name without its leading dashes (raw) and normalised
// (n, not empty).
func secretNorm(raw, n string) bool {
	if secretWhole[n] {
		return true
	}
	for _, s := range notSecretSuffixes {
		if strings.HasSuffix(n, s) {
			return false
		}
	}
	for _, w := range secretWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	if i := strings.LastIndexAny(raw, "-_."); i >= 0 {
		return secretLast[strings.ToLower(raw[i+1:])]
	}
	return false
}

// secretPairs are pairs of letters one of which every name SecretName accepts holds:
// each of secretWords, secretWhole and secretLast holds one (token, apikey, secret,
// password, bearer, credential, authorization, cookie, signature, pw…).
var secretPairs = func() (t [128][128]bool) {
	for _, p := range []string{"to", "ke", "se", "pa", "be", "cr", "au", "co", "si", "pw"} {
		t[p[0]][p[1]] = true
	}
	return t
}()

// mayBeSecret reports whether a normalised name holds one of secretPairs: most names
// (the 46,000 distinct keys of a 50 MB ~/.claude.json, K7) hold none, and are no
// credential names without the comparisons below.
func mayBeSecret(n string) bool {
	for i := 1; i < len(n); i++ {
		if a, b := n[i-1], n[i]; a < 128 && b < 128 && secretPairs[a][b] {
			return true
		}
	}
	return false
}

// MinSecret is the length of the shortest value hidden wherever it appears: shorter
// values ("1", "on") are settings, and hiding them everywhere would garble what is
// shown. Shorter credential values are still hidden where they stand whole.
const MinSecret = 4

// SecretShaped reports whether a credential value is distinctive enough to hide
// wherever it appears, not only where it stands as a whole: at least 8 bytes, or at
// least MinSecret and not a plain word or number ("true", "info", "8080").
func SecretShaped(v string) bool {
	if len(v) >= 8 {
		return true
	}
	if len(v) < MinSecret {
		return false
	}
	var letters, digits, other bool
	for _, c := range v {
		switch {
		case unicode.IsLetter(c):
			letters = true
		case unicode.IsDigit(c):
			digits = true
		default:
			other = true
		}
	}
	return other || letters && digits
}

// mapWords are the last words of a member name that holds a map of credential
// values: environment variables or HTTP headers.
var mapWords = map[string]bool{"env": true, "envs": true, "environment": true, "headers": true}

// CredentialMap reports whether a member holds credentials as a whole, in whatever
// dialect a client spells it: auth and oauth, and maps of environment variables or
// headers, whose name's last word is env, envs, environment or headers (env,
// environment, http_headers, requestHeaders). A map of variable names is not:
// another env or header word, or a credential word, comes before the last one
// (env_http_headers, headerEnv, tokenEnv); nor is mcpwire's list of the keys declared
// plain (plainEnv, plainHeaders: P11, H10).
func CredentialMap(name string) bool {
	if n := alnumLower(name); n == "auth" || n == "oauth" {
		return true
	}
	// the last word first: most names end otherwise, and need no more work
	i := len(name)
	for i > 0 && !isAlnum(name[i-1]) {
		i--
	}
	if !mapWords[strings.ToLower(lastWord(name[:i]))] {
		return false
	}
	w := words(name)
	for _, x := range w[:len(w)-1] {
		if mapWords[x] || x == "header" || x == "plain" || SecretName(x) {
			return false
		}
	}
	return true
}

// alnumLower returns the letters and digits of a short name, lowercased ("" for a
// name longer than 5 bytes: only auth and oauth are compared with it).
func alnumLower(name string) string {
	if len(name) > 8 {
		return ""
	}
	var b [8]byte
	n := 0
	for i := 0; i < len(name); i++ {
		if c := name[i]; isAlnum(c) {
			if isUpper(c) {
				c += 'a' - 'A'
			}
			b[n] = c
			n++
		}
	}
	return string(b[:n])
}

// lastWord returns the last word of s, which ends with a letter or digit (see words).
func lastWord(s string) string {
	i := len(s)
	for i > 0 && isAlnum(s[i-1]) {
		if isUpper(s[i-1]) && (i < len(s) && isLower(s[i]) || i > 1 && isLower(s[i-2])) {
			return s[i-1:]
		}
		i--
	}
	return s[i:]
}

// words splits a name into lowercase words at every byte that is not a letter or
// digit and at camelCase boundaries: "envHttpHeaders", "HTTPHeaders" and
// "http-headers" hold "http" and "headers".
func words(name string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, strings.ToLower(name[start:end]))
		}
		start = -1
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isAlnum(c) {
			flush(i)
			continue
		}
		if start >= 0 && isUpper(c) && (isLower(name[i-1]) || i+1 < len(name) && isUpper(name[i-1]) && isLower(name[i+1])) {
			flush(i)
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(name))
	return out
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isAlnum(c byte) bool { return isUpper(c) || isLower(c) || c >= '0' && c <= '9' }
