package policy

import (
	"fmt"
	"slices"
)

// Merged is the one policy that stands for every layer's, as clients that read one
// file need it (G3): every deny rule of every layer; allowUnlisted only when every
// layer sets it; and, when several layers restrict, the allow rules of each that the
// others admit too (Covers), so that an upper layer only narrows. What cannot be said
// in one list is returned as a warning.
func (ps ServerPolicies) Merged() (*ServerPolicy, []string) {
	m := &ServerPolicy{AllowUnlisted: true}
	var restricting []*ServerPolicy
	for _, p := range ps {
		m.Deny = append(m.Deny, p.Deny...)
		if !p.AllowUnlisted {
			m.AllowUnlisted = false
			restricting = append(restricting, p)
		}
	}
	var warns []string
	for i, p := range restricting {
		for _, r := range p.Allow {
			if slices.ContainsFunc(m.Allow, r.equal) {
				continue
			}
			kept := true
			for j, other := range restricting {
				if j != i && !other.Covers(r) {
					kept = false
					warns = append(warns, fmt.Sprintf("allow rule %s of %s is not allowed by %s as one rule: left out", r, p.File, other.File))
					break
				}
			}
			if kept {
				m.Allow = append(m.Allow, r)
			}
		}
	}
	return m, warns
}

// Covers reports whether one of the policy's allow rules admits everything rule r
// matches: the same name, the same command, or a URL pattern matching r's pattern
// read as text (each * of r falls inside a * of the other).
func (p *ServerPolicy) Covers(r ServerRule) bool {
	for _, a := range p.Allow {
		switch {
		case r.Name != "" && a.Name == r.Name,
			r.URL != "" && a.URL != "" && Wildcard(a.URL, r.URL),
			len(r.Command) > 0 && len(a.Command) > 0 && equalArgv(Canonical(a.Command), Canonical(r.Command)):
			return true
		}
	}
	return false
}

func (r ServerRule) equal(o ServerRule) bool {
	return r.Name == o.Name && r.URL == o.URL && slices.Equal(r.Command, o.Command)
}
