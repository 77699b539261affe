package registry

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Resolved is a profile after extends (R4): its servers base first without
// duplicates ("__all__" expanded), and per provider key the deny list unioned along
// the chain and the most-derived allow list.
type Resolved struct {
	Name    string
	Servers []string
	Filters map[string]*Filters
}

// CycleError is an extends cycle (R5).
type CycleError struct{ Path []string }

func (e *CycleError) Error() string {
	return "Profile extends cycle: " + strings.Join(e.Path, " -> ")
}

// MissingBaseError is an extends naming an undefined profile (R5).
type MissingBaseError struct{ Profile, Base string }

func (e *MissingBaseError) Error() string {
	return fmt.Sprintf("Profile %q extends %q, which is not defined in any configuration layer.", e.Profile, e.Base)
}

// Resolve returns the merged view of a profile after extends. Resolved bases are
// remembered until the registry changes, so resolving every profile costs time
// linear in the size of the results, however long the chains (Q4). The result is
// the caller's to change.
func (r *Registry) Resolve(name string) (*Resolved, error) {
	if _, ok := r.Profile(name); !ok {
		return nil, r.NoProfile(name)
	}
	if r.resolver == nil {
		r.resolver = &resolver{get: r.Profile, memo: map[string]*Resolved{}, allServers: r.ServerNames}
	}
	res, err := r.resolver.resolve(name, nil)
	if err != nil {
		return nil, err
	}
	return res.clone(), nil
}

// clone returns a deep copy.
func (res *Resolved) clone() *Resolved {
	out := &Resolved{Name: res.Name, Servers: append([]string(nil), res.Servers...), Filters: make(map[string]*Filters, len(res.Filters))}
	for k, f := range res.Filters {
		out.Filters[k] = &Filters{ToolDeny: append([]string(nil), f.ToolDeny...), ToolAllow: cloneAllow(f.ToolAllow), Extra: f.Extra}
	}
	return out
}

// resolver walks extends depth-first with memoisation, so long chains stay linear.
type resolver struct {
	get        func(string) (*Profile, bool)
	memo       map[string]*Resolved
	allServers func() []string
	all        []string
}

func (rs *resolver) resolve(name string, stack []string) (*Resolved, error) {
	if done, ok := rs.memo[name]; ok {
		return done, nil
	}
	for i, s := range stack {
		if s == name {
			path := append(append([]string{}, stack[i:]...), name)
			return nil, &CycleError{Path: path}
		}
	}
	p, _ := rs.get(name)
	stack = append(stack, name)
	out := &Resolved{Name: name, Filters: map[string]*Filters{}}
	seen := map[string]bool{}
	addServers := func(list []string) {
		for _, s := range list {
			if s == AllServers {
				if rs.all == nil {
					rs.all = rs.allServers()
				}
				addAll := rs.all
				for _, a := range addAll {
					if !seen[a] {
						seen[a] = true
						out.Servers = append(out.Servers, a)
					}
				}
				continue
			}
			if !seen[s] {
				seen[s] = true
				out.Servers = append(out.Servers, s)
			}
		}
	}
	for _, base := range p.Extends {
		if _, ok := rs.get(base); !ok {
			return nil, &MissingBaseError{Profile: name, Base: base}
		}
		b, err := rs.resolve(base, stack)
		if err != nil {
			return nil, err
		}
		addServers(b.Servers)
		for k, f := range b.Filters {
			out.Filters[k] = mergeFilters(out.Filters[k], f)
		}
	}
	addServers(p.Servers)
	for k, f := range p.ProviderOverrides {
		if f != nil {
			out.Filters[k] = mergeFilters(out.Filters[k], f)
		}
	}
	rs.memo[name] = out
	return out, nil
}

// mergeFilters applies derived on top of base: deny lists are unioned, a set allow
// list replaces the base's (R4).
func mergeFilters(base, derived *Filters) *Filters {
	if base == nil {
		return &Filters{ToolDeny: append([]string(nil), derived.ToolDeny...), ToolAllow: cloneAllow(derived.ToolAllow)}
	}
	out := &Filters{ToolDeny: union(base.ToolDeny, derived.ToolDeny), ToolAllow: cloneAllow(base.ToolAllow)}
	if derived.ToolAllow != nil {
		out.ToolAllow = cloneAllow(derived.ToolAllow)
	}
	return out
}

func cloneAllow(a []string) []string {
	if a == nil {
		return nil
	}
	return append([]string{}, a...)
}

// checkGraph resolves the named profiles and returns one error naming every broken
// extends chain (R6): each cycle once (a -> b -> a, not also b -> a -> b) and each
// missing base once. Resolved bases are shared between names, so checking every
// profile is linear.
func checkGraph(names []string, get func(string) (*Profile, bool), all func() []string) error {
	rs := &resolver{get: get, memo: map[string]*Resolved{}, allServers: all}
	var errs []error
	for _, n := range names {
		if _, err := rs.resolve(n, nil); err != nil {
			errs = append(errs, err)
		}
	}
	return dedupeErrors(errs)
}

func dedupeErrors(errs []error) error {
	seen := map[string]bool{}
	var out []error
	for _, e := range errs {
		key := e.Error()
		if c, ok := e.(*CycleError); ok {
			members := slices.Clone(c.Path[:len(c.Path)-1])
			slices.Sort(members)
			key = "cycle " + strings.Join(members, " ")
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	return errors.Join(out...)
}
