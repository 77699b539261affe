package registry

import (
	"fmt"

	"github.com/mcpwire/mcpwire/policy"
)

// CheckRefNames refuses a reference whose variable name is a credential (T4): the
// current value of a variable of environ (KEY=VALUE; nil to skip that check), or a
// name shaped like a token or a long random string. It names the field and the key
// (envFrom.KEY), never the value. A name that is no name at all is Validate's.
func (s *Server) CheckRefNames(environ []string) error {
	check := func(field, name string) error {
		if by := policy.ExpandedFrom(name, environ); by != "" {
			return fmt.Errorf("%s: the current value of the variable %s, not a variable name", field, by)
		}
		if !policy.IsVarName(name) {
			return nil
		}
		if why := policy.NameProblem(name); why != "" {
			return fmt.Errorf("%s: %s", field, why)
		}
		return nil
	}
	for _, k := range sortedKeys(s.EnvFrom) {
		if err := check("envFrom."+k, s.EnvFrom[k]); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(s.HeaderEnv) {
		if err := check("headerEnv."+k, s.HeaderEnv[k]); err != nil {
			return err
		}
	}
	if s.BearerEnv != "" {
		return check("bearerEnv", s.BearerEnv)
	}
	return nil
}
