package secretref

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The command lines that deliver secrets (S2): a stdio server's entry starts
//
//	mcpwire exec --env-secret K=REF … -- COMMAND ARG…
//
// and Claude Code's headersHelper runs
//
//	mcpwire headers --header-secret H=REF … --bearer-secret REF
//
// Both hold references only. The same spelling is written (render), read back from a
// client's file (import, status) and parsed by the commands themselves.
const (
	ExecCommand    = "exec"
	HeadersCommand = "headers"
	EnvFlag        = "--env-secret"
	HeaderFlag     = "--header-secret"
	BearerFlag     = "--bearer-secret"
)

// ExecArgs are the arguments of mcpwire for a stdio server whose env keys come from
// references: exec, --env-secret K=REF for each key in order, --, then the server's
// own command line.
func ExecArgs(env map[string]string, command string, args []string) []string {
	out := []string{ExecCommand}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out = append(out, EnvFlag, k+"="+env[k])
	}
	out = append(out, "--", command)
	return append(out, args...)
}

// Exec is a parsed exec command line.
type Exec struct {
	// Env maps each variable to its reference.
	Env map[string]string
	// Command is the program and its arguments, after "--".
	Command []string
}

// ParseExec reads exec's arguments (after the word exec): --env-secret K=REF or
// --env-secret=K=REF any number of times, then "--" and the command. Its errors name
// the flag and the key, never a value.
func ParseExec(args []string) (Exec, error) {
	x := Exec{Env: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			x.Command = args[i+1:]
			if len(x.Command) == 0 || x.Command[0] == "" {
				return Exec{}, errors.New("nothing after --: give the command to start")
			}
			return x, nil
		}
		v, ok := flagValue(args, &i, EnvFlag)
		if !ok && !strings.HasPrefix(a, "-") {
			return Exec{}, errors.New("no -- before the command: mcpwire exec " + EnvFlag + " K=REF -- COMMAND ARG…")
		}
		if !ok {
			return Exec{}, fmt.Errorf("unknown argument %s: exec takes %s K=REF and the command after --", quoteFlag(a), EnvFlag)
		}
		k, ref, err := pair(EnvFlag, v, isVarName)
		if err != nil {
			return Exec{}, err
		}
		if _, dup := x.Env[k]; dup {
			return Exec{}, fmt.Errorf("%s %s is given twice", EnvFlag, k)
		}
		x.Env[k] = ref
	}
	return Exec{}, errors.New("no -- before the command: mcpwire exec " + EnvFlag + " K=REF -- COMMAND ARG…")
}

// HeadersArgs are the arguments of mcpwire for a remote server's headers helper:
// headers, --header-secret H=REF for each header in order, --bearer-secret REF.
func HeadersArgs(headers map[string]string, bearer string) []string {
	out := []string{HeadersCommand}
	for _, h := range slices.Sorted(maps.Keys(headers)) {
		out = append(out, HeaderFlag, h+"="+headers[h])
	}
	if bearer != "" {
		out = append(out, BearerFlag, bearer)
	}
	return out
}

// Headers is a parsed headers command line.
type Headers struct {
	// Headers maps each header to its reference.
	Headers map[string]string
	// Bearer is the reference of the bearer token ("" for none).
	Bearer string
}

// ParseHeaders reads the headers command's arguments (after the word headers).
func ParseHeaders(args []string) (Headers, error) {
	h := Headers{Headers: map[string]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, ok := flagValue(args, &i, HeaderFlag); ok {
			name, ref, err := pair(HeaderFlag, v, isHeaderName)
			if err != nil {
				return Headers{}, err
			}
			for k := range h.Headers {
				if strings.EqualFold(k, name) {
					return Headers{}, fmt.Errorf("%s %s is given twice", HeaderFlag, name)
				}
			}
			h.Headers[name] = ref
			continue
		}
		if v, ok := flagValue(args, &i, BearerFlag); ok {
			if h.Bearer != "" {
				return Headers{}, fmt.Errorf("%s is given twice", BearerFlag)
			}
			if _, err := Parse(v); err != nil {
				return Headers{}, fmt.Errorf("%s: %w", BearerFlag, err)
			}
			h.Bearer = v
			continue
		}
		return Headers{}, fmt.Errorf("unknown argument %s: headers takes %s H=REF and %s REF", quoteFlag(a), HeaderFlag, BearerFlag)
	}
	if len(h.Headers) == 0 && h.Bearer == "" {
		return Headers{}, fmt.Errorf("no header: give %s H=REF or %s REF", HeaderFlag, BearerFlag)
	}
	for k := range h.Headers {
		if h.Bearer != "" && strings.EqualFold(k, "Authorization") {
			return Headers{}, fmt.Errorf("%s Authorization and %s: the bearer token is the Authorization header; give one", HeaderFlag, BearerFlag)
		}
	}
	return h, nil
}

// flagValue reads the value of flag at args[*i], as "--flag VALUE" or "--flag=VALUE",
// moving *i past it; false when args[*i] is not that flag or it has no value.
func flagValue(args []string, i *int, flag string) (string, bool) {
	a := args[*i]
	if v, ok := strings.CutPrefix(a, flag+"="); ok {
		return v, true
	}
	if a == flag && *i+1 < len(args) {
		*i++
		return args[*i], true
	}
	return "", false
}

// quoteFlag shows an argument that is no flag of the command: a flag's name as it is,
// anything else as "a value" (it may be a credential typed in the wrong place).
func quoteFlag(a string) string {
	if strings.HasPrefix(a, "--") && isFlagName(strings.TrimPrefix(a, "--")) {
		return a
	}
	return "(a value)"
}

func isFlagName(s string) bool {
	return allBytes(s, func(c byte) bool { return c >= 'a' && c <= 'z' || c == '-' })
}

// pair splits NAME=REF and checks both: the name with ok, the reference with Parse.
// Errors name the flag and, once it is valid, the name; never the reference.
func pair(flag, v string, ok func(string) bool) (string, string, error) {
	name, ref, found := strings.Cut(v, "=")
	if !found || !ok(name) {
		return "", "", fmt.Errorf("%s: want NAME=REF with a valid name", flag)
	}
	if _, err := Parse(ref); err != nil {
		return "", "", fmt.Errorf("%s %s: %w", flag, name, err)
	}
	return name, ref, nil
}

// isVarName: [A-Za-z_][A-Za-z0-9_]*.
func isVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	return allBytes(s, func(c byte) bool { return alnum(c) || c == '_' })
}

// isHeaderName: an RFC 9110 token.
func isHeaderName(s string) bool {
	return allBytes(s, func(c byte) bool { return alnum(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 })
}
