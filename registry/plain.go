package registry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
)

// PlainError refuses env keys or headers declared plain (P11, H10) whose name or
// value looks like a credential. It names the server and keys, never a value.
type PlainError struct {
	Server string
	// Problems are "KEY: reason" (env) and "header NAME: reason", sorted.
	Problems []string
	// Keys are the refused env keys, sorted; Headers the refused headers.
	Keys, Headers []string
}

func (e *PlainError) Error() string {
	return fmt.Sprintf("server %q: cannot declare plain (written as it is into committed files): %s", e.Server, strings.Join(e.Problems, "; "))
}

// Hints says where a credential goes instead.
func (e *PlainError) Hints() []string {
	var out []string
	if len(e.Keys) > 0 {
		k := e.Keys[0]
		out = append(out, fmt.Sprintf("pass a credential from the client's environment instead: --env-from %s=VAR (or --env %s=VALUE for a literal kept out of project files)", k, k))
	}
	if len(e.Headers) > 0 {
		h := e.Headers[0]
		out = append(out, fmt.Sprintf("send a credential from the client's environment instead: --header-env %s=VAR (or --header %s=VALUE for a literal kept out of project files)", h, h))
	}
	return out
}

// checkPlain refuses plain declarations (P11, H10) that look like credentials: every
// key of s.PlainEnv that s.Env holds and every header of s.PlainHeaders that
// s.Headers holds, unless cur (the entry an update starts from)
// already declared it plain with the same value, so that an entry edited by hand
// does not block unrelated updates (inject still refuses it, policy.Fields).
func checkPlain(s, cur *Server) error {
	e := &PlainError{Server: s.Name}
	for k := range s.PlainEnvKeys() {
		v := s.Env[k]
		if cur != nil && cur.PlainEnvKeys()[k] && cur.Env[k] == v {
			continue
		}
		if why := policy.PlainEnvProblem(k, v); why != "" {
			e.Problems = append(e.Problems, k+": "+why)
			e.Keys = append(e.Keys, k)
		}
	}
	for h := range s.PlainHeaderKeys() {
		v := s.Headers[h]
		if cur != nil && cur.PlainHeaderKeys()[h] && cur.Headers[h] == v {
			continue
		}
		if why := policy.PlainEnvProblem(h, v); why != "" {
			e.Problems = append(e.Problems, "header "+h+": "+why)
			e.Headers = append(e.Headers, h)
		}
	}
	if len(e.Problems) == 0 {
		return nil
	}
	sort.Strings(e.Problems)
	sort.Strings(e.Keys)
	sort.Strings(e.Headers)
	return e
}
