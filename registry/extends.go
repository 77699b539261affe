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

// Resolve returns the merged view of a profile after extends. It walks the
// profile's extends closure once, each profile in it once, so its time and memory
// are linear in the profiles and list entries the closure holds, however long or
// branched the chains (Q4). The result is the caller's to change.
func (r *Registry) Resolve(name string) (*Resolved, error) {
	if _, ok := r.Profile(name); !ok {
		return nil, r.NoProfile(name)
	}
	if r.resolver == nil {
		r.resolver = &resolver{get: r.Profile, allServers: r.ServerNames}
	}
	return r.resolver.resolve(name)
}

// resolver resolves profiles of one registry state.
type resolver struct {
	get        func(string) (*Profile, bool)
	allServers func() []string
	all        []string // allServers(), fetched once
}

// walk is one depth-first walk of extends closures: bases in order before the
// profile that names them (post-order), each profile once. Nothing is copied per
// level, so a chain of any depth costs memory linear in its size (issue 11).
type walk struct {
	get     func(string) (*Profile, bool)
	stack   []string       // the profiles being walked, outermost first
	onStack map[string]int // index in stack
	done    map[string]bool
	visit   func(*Profile) // called in post-order; nil when only checking
}

func newWalk(get func(string) (*Profile, bool), done map[string]bool, visit func(*Profile)) *walk {
	return &walk{get: get, onStack: map[string]int{}, done: done, visit: visit}
}

// from walks name's closure, reporting the first cycle (R5) or missing base.
func (w *walk) from(name string) error {
	if i, ok := w.onStack[name]; ok {
		return &CycleError{Path: append(slices.Clone(w.stack[i:]), name)}
	}
	if w.done[name] {
		return nil
	}
	p, _ := w.get(name)
	w.onStack[name] = len(w.stack)
	w.stack = append(w.stack, name)
	for _, base := range p.Extends {
		if _, ok := w.get(base); !ok {
			return &MissingBaseError{Profile: name, Base: base}
		}
		if err := w.from(base); err != nil {
			return err
		}
	}
	w.stack = w.stack[:len(w.stack)-1]
	delete(w.onStack, name)
	w.done[name] = true
	if w.visit != nil {
		w.visit(p)
	}
	return nil
}

// resolve merges name's closure (R4): servers and deny lists in the order of first
// appearance in the post-order walk (bases first, no duplicates), and per provider
// key the allow list of the most-derived profile that sets one (see mostDerivedAllow).
func (rs *resolver) resolve(name string) (*Resolved, error) {
	out := &Resolved{Name: name, Filters: map[string]*Filters{}}
	seenServer := map[string]bool{}
	seenDeny := map[string]map[string]bool{}
	add := func(s string) {
		if !seenServer[s] {
			seenServer[s] = true
			out.Servers = append(out.Servers, s)
		}
	}
	visit := func(p *Profile) {
		for _, s := range p.Servers {
			if s != AllServers {
				add(s)
				continue
			}
			if rs.all == nil {
				rs.all = rs.allServers()
			}
			for _, a := range rs.all {
				add(a)
			}
		}
		for k, f := range p.ProviderOverrides {
			if f == nil {
				continue
			}
			acc := out.Filters[k]
			if acc == nil {
				acc = &Filters{}
				out.Filters[k] = acc
				seenDeny[k] = map[string]bool{}
			}
			for _, d := range f.ToolDeny {
				if !seenDeny[k][d] {
					seenDeny[k][d] = true
					acc.ToolDeny = append(acc.ToolDeny, d)
				}
			}
		}
	}
	if err := newWalk(rs.get, map[string]bool{}, visit).from(name); err != nil {
		return nil, err
	}
	rs.mostDerivedAllow(name, out.Filters)
	return out, nil
}

// mostDerivedAllow sets each key's allow list (R4). A profile's allow list for a key
// is its own when it sets one, else that of its last base that has one, recursively:
// the first set list met when walking the closure profile first, bases last to first
// (the reverse of the post-order walk). A profile met a second time this way was met
// at a later position of the post-order already, so it is skipped: each profile once.
func (rs *resolver) mostDerivedAllow(name string, filters map[string]*Filters) {
	missing := 0
	for _, f := range filters {
		f.ToolAllow = nil
		missing++
	}
	set := map[string]bool{}
	seen := map[string]bool{}
	stack := []string{name}
	for len(stack) > 0 && missing > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		p, _ := rs.get(n)
		for k, f := range p.ProviderOverrides {
			if f != nil && f.ToolAllow != nil && !set[k] {
				set[k] = true
				filters[k].ToolAllow = cloneAllow(f.ToolAllow)
				missing--
			}
		}
		stack = append(stack, p.Extends...) // popped last to first
	}
}

func cloneAllow(a []string) []string {
	if a == nil {
		return nil
	}
	return append([]string{}, a...)
}

// checkGraph checks the extends chains of the named profiles and returns one error
// naming every broken chain (R6): each cycle once (a -> b -> a, not also b -> a -> b)
// and each missing base once. Profiles found sound are not walked again, so checking
// every profile is linear in the profiles and their extends.
func checkGraph(names []string, get func(string) (*Profile, bool), _ func() []string) error {
	sound := map[string]bool{}
	var errs []error
	for _, n := range names {
		if err := newWalk(get, sound, nil).from(n); err != nil {
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
