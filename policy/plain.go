package policy

import (
	"fmt"
	"strings"
)

// Plain env values (P11): a server may declare env keys whose literal values are not
// credentials (a path, a flag, a port). P1 and P7 let exactly those keys through,
// unless the key's name or value looks like a credential, which no declaration can
// make plain.

// plainNameWords mark an env key that cannot be declared plain (P11), compared with
// the upper-cased name as a substring.
var plainNameWords = []string{"TOKEN", "KEY", "SECRET", "PASSWORD", "AUTH", "COOKIE", "SESSION"}

// tokenPrefixes start well-known credential formats: GitHub, GitLab, OpenAI and
// Anthropic, Stripe, Slack, AWS, Google, npm, PyPI, Hugging Face, DigitalOcean,
// Shopify, SendGrid, JWTs and PEM private keys.
var tokenPrefixes = []string{
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "gldt-", "glptt-",
	"sk-", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_",
	"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-",
	"AKIA", "ASIA", "AIza", "ya29.", "npm_", "pypi-", "hf_", "dop_v1_", "shpat_", "shpss_", "SG.",
	"eyJ", "-----BEGIN",
}

// PlainEnvProblem says why an env key and value cannot be declared plain (P11), or ""
// when they can: a name that marks a credential (TOKEN, KEY, SECRET, PASSWORD, AUTH,
// COOKIE, SESSION, or what SecretName finds), or a value with a well-known token
// prefix, URL userinfo, a credential query parameter or another credential shape
// that CredentialArgs finds. The reason never holds the value.
func PlainEnvProblem(key, value string) string {
	upper := strings.ToUpper(key)
	for _, w := range plainNameWords {
		if strings.Contains(upper, w) {
			return fmt.Sprintf("the name %s contains %s, which marks a credential", key, w)
		}
	}
	if SecretName(key) {
		return fmt.Sprintf("the name %s marks a credential", key)
	}
	v := strings.TrimSpace(value)
	if p := TokenPrefix(v); p != "" {
		return "its value starts like a well-known token (" + p + "…)"
	}
	if HasUserinfo(v) {
		return "its value is a URL with userinfo"
	}
	if found := CredentialArgs([]string{v}); len(found) > 0 {
		return "its value carries a credential (" + found[0] + ")"
	}
	return ""
}

// exemptEnv reports whether the env key k of f is not checked as a credential: P8's
// exempt key, or a key declared plain whose name and value pass PlainEnvProblem.
func (f Fields) exemptEnv(k string) bool {
	if f.ExemptEnv[k] {
		return true
	}
	return f.PlainEnv[k] && PlainEnvProblem(k, f.Env[k]) == ""
}

// envField names a refused env key: a key declared plain that looks like a
// credential says so, so that the person knows why the declaration did not count.
func (f Fields) envField(k string) string {
	if f.PlainEnv[k] {
		return "env." + k + " declared plain, but " + PlainEnvProblem(k, f.Env[k])
	}
	return "env." + k
}

// exemptHeader reports whether the header k of f is declared plain (H10) and its
// name and value pass PlainEnvProblem.
func (f Fields) exemptHeader(k string) bool {
	return f.PlainHeaders[k] && PlainEnvProblem(k, f.Headers[k]) == ""
}

// headerField names a refused header, as envField does an env key.
func (f Fields) headerField(k string) string {
	if f.PlainHeaders[k] {
		return "headers." + k + " declared plain, but " + PlainEnvProblem(k, f.Headers[k])
	}
	return "headers." + k
}

// PlainHint returns the advice for a refusal whose violations include a literal env
// value that could be declared plain (P11): the first such server and key, as a
// command. It is nil when no env key of vs could be plain by its name.
func PlainHint(vs []Violation) []string {
	for _, v := range vs {
		k, ok := strings.CutPrefix(v.Field, "env.")
		if !ok || strings.Contains(k, " ") || PlainEnvProblem(k, "") != "" {
			continue
		}
		return []string{fmt.Sprintf("for a value that is no secret (a path, a port, a flag), declare it plain: mcpwire server update %s --env-plain %s=VALUE", v.Server, k)}
	}
	return nil
}
