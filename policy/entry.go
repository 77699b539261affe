package policy

import (
	"strings"
)

// CheckEntry finds the literal credentials of one client entry as the client's file
// holds it, decoded from JSON, TOML or YAML (Decoded), whatever its shape: every
// string of it, at any depth, whether or not mcpwire can read the entry as a server
// (K5: an entry with args: [1], type "ws", Goose's builtin or Zed's nested command
// object is checked too). A string is a credential when
//
//   - its member has a credential name (SecretName: api_key, token, password …) and
//     is not a type, or it sits in a map of credentials (CredentialMap: env, headers,
//     auth, oauth …) — but an env value that could be declared plain (P11,
//     PlainEnvProblem) is not one;
//   - it is in a launch member (args, command, cmd): the credential arguments of the
//     list or command line (CredentialArgs);
//   - anywhere else: what free text holds (Bearer tokens, URL userinfo, credential
//     query parameters, NAME=VALUE with a credential name, token-shaped words).
//
// A violation names the member path (command.env.GITHUB_TOKEN) and, inside a string,
// what was found (args ghp_… token), never a value. A credential whose value lies
// within one of examined is left out: the caller has checked those strings already,
// as the fields of the server it read the entry as. forms are the reference forms the
// client resolves (T1, providers' Forms): a value that is one reference in one of them
// ("$GITHUB_TOKEN" in Gemini CLI's env) names a variable, not a credential.
func CheckEntry(server string, entry any, examined, forms []string) []Violation {
	c := entryCheck{server: server, examined: examined, forms: forms}
	Walk[any](Decoded{}, entry, c.visit)
	return dedupe(c.out)
}

// entryCheck is one CheckEntry walk.
type entryCheck struct {
	server   string
	examined []string
	forms    []string
	out      []Violation
}

// launchNames are the normalised names of members that hold a command line or an
// argument list.
var launchNames = map[string]bool{"args": true, "arguments": true, "command": true, "cmd": true}

func (c *entryCheck) visit(names []string, inList bool, v any) bool {
	key := ""
	if len(names) > 0 {
		key = names[len(names)-1]
	}
	cred, envMap := c.credentialPath(names)
	switch x := v.(type) {
	case []any:
		if cred || !launchNames[NormName(key)] {
			return true
		}
		var args []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				args = append(args, s)
			}
		}
		argScan(args, func(i int, f finding) { c.add(names, f.name, args[i][f.start:f.end]) })
		return true
	case string:
		switch {
		case cred:
			// a variable's name (GITHUB_TOKEN: Codex's env_http_headers) is no credential
			if !literalArg(x) || NormName(key) == "type" || envMap && !inList && PlainEnvProblem(key, x) == "" || c.reference(x) {
				return true
			}
			c.add(names, "", x)
		case launchNames[NormName(key)]:
			if inList {
				return true // with its list
			}
			args := strings.Fields(x)
			argScan(args, func(i int, f finding) { c.add(names, f.name, args[i][f.start:f.end]) })
		default:
			for _, f := range textFindings(x) {
				c.add(names, f.name, x[f.start:f.end])
			}
		}
	}
	return true
}

// reference reports whether v is one reference in a form the client resolves.
func (c *entryCheck) reference(v string) bool {
	if len(c.forms) == 0 {
		return false
	}
	_, whole := Scan(v, c.forms).Whole()
	return whole
}

// credentialPath reports whether a value at names holds credentials (a member on
// the way has a credential name or holds a map of credentials), and whether its own
// member sits directly in a map of environment variables (env, envs, environment).
func (c *entryCheck) credentialPath(names []string) (cred, envMap bool) {
	for i, n := range names {
		if NormName(n) == "type" && i == len(names)-1 {
			continue
		}
		if SecretName(n) || CredentialMap(n) {
			cred = true
		}
	}
	if len(names) >= 2 {
		parent := strings.ToLower(lastWord(names[len(names)-2]))
		envMap = CredentialMap(names[len(names)-2]) && (parent == "env" || parent == "envs" || parent == "environment")
	}
	return cred, envMap
}

// add records a credential at names (what, inside a string, "" for the whole) unless
// its value was examined already.
func (c *entryCheck) add(names []string, what, value string) {
	for _, e := range c.examined {
		if strings.Contains(e, value) {
			return
		}
	}
	field := strings.Join(names, ".")
	if field == "" {
		field = "entry"
	}
	if what != "" {
		field += " " + what
	}
	c.out = append(c.out, Violation{c.server, field})
}
