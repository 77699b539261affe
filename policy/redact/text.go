package redact

import (
	"net/url"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
)

// Values are the values of one server that are never printed, wherever they appear
// in a message (an error, a line of a server's stderr): env and header values,
// credential-bearing arguments, URL userinfo and credential query parameters. The
// zero Values hides what policy.RedactText finds.
type Values struct {
	url     string
	secrets []string // longest first
}

// Add hides each value wherever it appears. Values shorter than policy.MinSecret
// are settings ("1", "on") and are not hidden.
func (v *Values) Add(vals ...string) {
	for _, s := range vals {
		if len(s) >= policy.MinSecret {
			v.secrets = append(v.secrets, s)
		}
	}
	sort.SliceStable(v.secrets, func(i, j int) bool { return len(v.secrets[i]) > len(v.secrets[j]) })
}

// AddArgs hides the arguments that carry a credential (policy.RedactArgs): the whole
// argument and, for NAME=VALUE or --flag=VALUE, the value.
func (v *Values) AddArgs(args []string) {
	red := policy.RedactArgs(args)
	for i, a := range args {
		if red[i] != a {
			v.Add(a)
			if _, val, ok := strings.Cut(a, "="); ok {
				v.Add(val)
			}
		}
	}
}

// AddURL shows the URL as policy.RedactURL does, and hides its userinfo and the
// values of its credential query parameters, decoded and encoded: messages quote
// URLs in other forms (net/http shows the password as "***" but keeps the query).
func (v *Values) AddURL(raw string) {
	v.url = raw
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	if u.User != nil {
		v.Add(u.User.String(), u.User.Username())
		if pw, ok := u.User.Password(); ok {
			v.Add(pw)
		}
	}
	red, err := url.Parse(policy.RedactURL(raw))
	if err != nil {
		return
	}
	rq := red.Query()
	for k, vs := range u.Query() {
		for i, val := range vs {
			if i >= len(rq[k]) || rq[k][i] != val {
				v.Add(val, url.QueryEscape(val))
			}
		}
	}
}

// Text hides the values in a message, then every credential-shaped value
// (policy.RedactText). Redact a message whole before shortening it: a cut could
// leave a prefix of a secret that nothing recognises.
func (v *Values) Text(msg string) string {
	if v.url != "" {
		msg = strings.ReplaceAll(msg, v.url, policy.RedactURL(v.url))
	}
	for _, s := range v.secrets {
		if strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, policy.Redacted)
		}
	}
	return policy.RedactText(msg)
}

// Launch returns a command and its arguments as they may be shown: credential
// arguments (policy.RedactArgs) and credential-shaped text in any of them
// (policy.RedactText) hidden.
func Launch(command string, args []string) (string, []string) {
	shown := policy.RedactArgs(args)
	for i, a := range shown {
		shown[i] = policy.RedactText(a)
	}
	return policy.RedactText(command), shown
}
