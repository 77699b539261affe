package registry

import (
	"fmt"
	"slices"
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
	// the declarations walked as they are, no set of them built (K7: an import
	// checks 200,000 servers)
	var e *PlainError
	for i, k := range s.PlainEnv {
		if why := plainProblem(s.PlainEnv, i, s.Env, cur.plainEnv()); why != "" {
			if e == nil {
				e = &PlainError{Server: s.Name}
			}
			e.Problems = append(e.Problems, k+": "+why)
			e.Keys = append(e.Keys, k)
		}
	}
	for i, h := range s.PlainHeaders {
		if why := plainProblem(s.PlainHeaders, i, s.Headers, cur.plainHeaders()); why != "" {
			if e == nil {
				e = &PlainError{Server: s.Name}
			}
			e.Problems = append(e.Problems, "header "+h+": "+why)
			e.Headers = append(e.Headers, h)
		}
	}
	if e == nil {
		return nil
	}
	sort.Strings(e.Problems)
	sort.Strings(e.Keys)
	sort.Strings(e.Headers)
	return e
}

// plainDecl is a server's plain declarations of one kind and the values they are of.
type plainDecl struct {
	declared []string
	values   map[string]string
}

func (s *Server) plainEnv() plainDecl {
	if s == nil {
		return plainDecl{}
	}
	return plainDecl{s.PlainEnv, s.Env}
}

func (s *Server) plainHeaders() plainDecl {
	if s == nil {
		return plainDecl{}
	}
	return plainDecl{s.PlainHeaders, s.Headers}
}

// plainProblem is why the declaration declared[i] of a value of values looks like a
// credential; "" when it does not, when values does not hold it, when it was declared
// before, or when cur declared it plain with the same value.
func plainProblem(declared []string, i int, values map[string]string, cur plainDecl) string {
	k := declared[i]
	v, ok := values[k]
	if !ok || slices.Contains(declared[:i], k) {
		return ""
	}
	if cv, had := cur.values[k]; had && cv == v && slices.Contains(cur.declared, k) {
		return ""
	}
	return policy.PlainEnvProblem(k, v)
}
