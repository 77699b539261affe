package registry

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpwire/mcpwire/policy"
)

// PlainError refuses env keys declared plain (P11) whose name or value looks like a
// credential. It names the server and keys, never a value.
type PlainError struct {
	Server string
	// Problems are "KEY: reason", sorted.
	Problems []string
	// Keys are the refused keys, sorted.
	Keys []string
}

func (e *PlainError) Error() string {
	return fmt.Sprintf("server %q: cannot declare plain (written as it is into committed files): %s", e.Server, strings.Join(e.Problems, "; "))
}

// Hints says where a credential goes instead.
func (e *PlainError) Hints() []string {
	k := e.Keys[0]
	return []string{fmt.Sprintf("pass a credential from the client's environment instead: --env-from %s=VAR (or --env %s=VALUE for a literal kept out of project files)", k, k)}
}

// checkPlain refuses plain declarations (P11) that look like credentials: every key
// of s.PlainEnv that s.Env holds, unless cur (the entry an update starts from)
// already declared it plain with the same value, so that an entry edited by hand
// does not block unrelated updates (inject still refuses it, policy.Fields).
func checkPlain(s, cur *Server) error {
	var problems, keys []string
	for k := range s.PlainEnvKeys() {
		v := s.Env[k]
		if cur != nil && cur.PlainEnvKeys()[k] && cur.Env[k] == v {
			continue
		}
		if why := policy.PlainEnvProblem(k, v); why != "" {
			problems = append(problems, k+": "+why)
			keys = append(keys, k)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	sort.Strings(keys)
	return &PlainError{Server: s.Name, Problems: problems, Keys: keys}
}
