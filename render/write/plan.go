package write

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/providers"
	"github.com/mcpwire/mcpwire/registry"
)

// RenderError lists every server that cannot be rendered for a client, with the
// field and reason (never a value).
type RenderError struct {
	Provider string
	Problems []providers.Problem
}

// Error says each reason once, after the servers (and their fields) it stops: H5.
func (e *RenderError) Error() string {
	return fmt.Sprintf("cannot write for %s: %s", e.Provider, groupProblems(e.Problems))
}

// Hints are the problems' own fixes (T5), each once.
func (e *RenderError) Hints() []string {
	var out []string
	for _, p := range e.Problems {
		if p.Hint != "" && !slices.Contains(out, p.Hint) {
			out = append(out, p.Hint)
		}
	}
	return out
}

// Servers are the servers refused, each once, in order.
func (e *RenderError) Servers() []string {
	var out []string
	for _, p := range e.Problems {
		out = providers.AppendNew(out, []string{p.Server})
	}
	return out
}

// groupProblems says each reason once, after the servers it stops, each server once
// with its fields: "a (envFrom.X), b (headerEnv.Y, bearerEnv): reason; c (type):
// other reason".
func groupProblems(probs []providers.Problem) string {
	var reasons []string
	servers := map[string][]string{}
	fields := map[string]map[string][]string{}
	for _, p := range probs {
		if _, ok := fields[p.Reason]; !ok {
			reasons = append(reasons, p.Reason)
			fields[p.Reason] = map[string][]string{}
		}
		if _, ok := fields[p.Reason][p.Server]; !ok {
			servers[p.Reason] = append(servers[p.Reason], p.Server)
		}
		fields[p.Reason][p.Server] = providers.AppendNew(fields[p.Reason][p.Server], []string{p.Field})
	}
	parts := make([]string, len(reasons))
	for i, why := range reasons {
		var who []string
		for _, n := range servers[why] {
			who = append(who, fmt.Sprintf("%s (%s)", n, strings.Join(fields[why][n], ", ")))
		}
		parts[i] = strings.Join(who, ", ") + ": " + why
	}
	return strings.Join(parts, "; ")
}

// plan renders the selected servers for the target. Servers that cannot be rendered
// are refused together, or skipped: under SkipUnsupported those of a transport the
// client cannot take, each with a warning (V7); under SkipRefused every one, with one
// warning for the client (H5).
func (r *Request) plan(t target, servers []*registry.Server) ([]namedEntry, *providers.FilterSet, []string, error) {
	p := t.P
	t.Home, t.Exec, t.GOOS = r.Env.Home, r.Env.Exec, r.Env.GOOS
	var names []string
	var entries []namedEntry
	if len(servers) > 0 {
		// one entry per server, usually: allocated once, not grown (issue 31)
		names, entries = make([]string, 0, len(servers)), make([]namedEntry, 0, len(servers))
	}
	for _, s := range servers {
		names = append(names, s.Name)
	}
	if err := t.d.CheckNames(names, nil); err != nil {
		return nil, nil, nil, err
	}
	fs := providers.Effective(r.Filters, p.Name, names)
	var written []string
	var probs, skipped []providers.Problem
	for _, s := range servers {
		v, ps := providers.Spell(t.Target, t.d, s)
		if len(ps) > 0 {
			switch {
			case r.Inject.SkipRefused:
				skipped = append(skipped, ps...)
				continue
			case r.Inject.SkipUnsupported:
				// a transport the client cannot take is skipped under --all (V7), whatever
				// else is wrong with the server there
				if i := slices.IndexFunc(ps, func(p providers.Problem) bool { return p.Field == "type" }); i >= 0 {
					r.warn(fmt.Sprintf("%s: skipped: %s", p.Name, ps[i]))
					continue
				}
			}
			probs = append(probs, ps...)
			continue
		}
		if providers.Disabled(s) && p.Switch == "" {
			if t.off != nil {
				*t.off = append(*t.off, s.Name) // Prepare removes mcpwire's entry, and says so
			} else {
				r.warn(offWarning(p, s.Name) + "; not written")
			}
			continue
		}
		if ign := ignoredFields(s); len(ign) > 0 {
			r.warn(ignoredWarning(p, s, ign))
		}
		if s.Cwd != "" && !s.Remote() && p.CwdKey == "" {
			r.warn(fmt.Sprintf("%s: %s does not start servers in a working directory from its config; cwd of %s not written", p.Name, p.Display, s.Name))
		}
		entries = append(entries, namedEntry{name: s.Name, entry: t.d.Entry(s, &v, fs.Of(s.Name)), inputs: v.Inputs, inputVars: v.InputVars,
			secrets: Secrets{Vars: v.SecretVars, ExecByName: v.ExecByName}})
		written = append(written, s.Name)
	}
	if len(probs) > 0 {
		return nil, nil, nil, &RenderError{Provider: p.Display, Problems: probs}
	}
	if len(skipped) > 0 {
		r.warn(fmt.Sprintf("%s: skipped, as %s cannot take them: %s", p.Name, p.Display, groupProblems(skipped)))
	}
	spec := t.d.Filters()
	if spec.AllowRefused {
		if ap := fs.AllowPatterns(); len(ap) > 0 {
			return nil, nil, nil, fmt.Errorf("%s has no restrict-only allowlist, so toolAllow cannot be applied: %s", p.Display, strings.Join(ap, ", "))
		}
	}
	spec.Warnings(p.Display, fs, written)
	for _, w := range fs.Warnings {
		r.warn(p.Name + ": " + w)
	}
	return entries, fs, written, nil
}

// standalone selects and checks the servers of output that is not a client's shared
// file — ephemeral output, a Codex runtime home, steps printed for a person: the
// credential policy applies (P6), the committed-file rule does not, and ${project}
// is the absolute project directory.
func (r *Request) standalone(ephemeral bool) (target, []*registry.Server, error) {
	servers, err := r.selected()
	if err != nil {
		return target{}, nil, err
	}
	if err := r.checkPolicy(servers, providers.User, ""); err != nil {
		return target{}, nil, err
	}
	t := newTarget(r.Provider, providers.User, r.Project, ephemeral)
	t.Home, t.Exec, t.GOOS = r.Env.Home, r.Env.Exec, r.Env.GOOS
	return t, servers, nil
}

// checkNames refuses servers to write whose names the client cannot tell apart from
// another entry in the file after the edit (L14, B7): Claude Code's deny rules for
// "my.server" also restrict a "my_server" written beside it, and uninjecting either
// would take the other's restriction away. Entries already in the file that only
// clash among themselves are not this edit's doing.
func (e *fileEdit) checkNames() error {
	if len(e.set) == 0 {
		return nil
	}
	names := make([]string, len(e.set))
	for i, ne := range e.set {
		names[i] = ne.name
	}
	for _, nc := range e.checkers {
		if err := nc.CheckNames(names, e.names); err != nil {
			return fmt.Errorf("%s: %w", e.path, err)
		}
	}
	return nil
}
