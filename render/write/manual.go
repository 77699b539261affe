package write

import "github.com/mcpwire/mcpwire/providers"

// ManualStep is one server a person adds by hand.
type ManualStep struct {
	Name    string
	Command string
	Args    []string
}

// ManualSteps renders the request's servers for a client configured by hand
// (ChatGPT Desktop): stdio only, no environment interpolation, ${project} as the
// absolute project directory. The same checks as a file write apply.
func ManualSteps(r Request) ([]ManualStep, error) {
	t, servers, err := r.standalone(false)
	if err != nil {
		return nil, err
	}
	var steps []ManualStep
	var probs []providers.Problem
	for _, s := range servers {
		v, ps := providers.Spell(t.Target, t.d, s)
		if len(s.Env) > 0 {
			ps = append(ps, providers.Problem{Server: s.Name, Field: "env", Reason: r.Provider.Display + " connectors take a command and arguments; set environment values in the connector settings yourself"})
		}
		if len(ps) > 0 {
			probs = append(probs, ps...)
			continue
		}
		steps = append(steps, ManualStep{Name: s.Name, Command: v.Command, Args: v.Args})
	}
	if len(probs) > 0 {
		return nil, &RenderError{Provider: r.Provider.Display, Problems: probs}
	}
	return steps, nil
}
