package registry

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// referenceResolve is R4 written as its definition reads, one merge per extends
// edge and a copy per level (the resolver before issue 11): a profile is its bases
// merged in order, then its own servers and filters; deny lists are unioned, a set
// allow list replaces the one before it.
func referenceResolve(get func(string) (*Profile, bool), all []string, name string, stack []string) (*Resolved, error) {
	if i := slices.Index(stack, name); i >= 0 {
		return nil, &CycleError{Path: append(slices.Clone(stack[i:]), name)}
	}
	p, _ := get(name)
	stack = append(slices.Clone(stack), name)
	out := &Resolved{Name: name, Filters: map[string]*Filters{}}
	add := func(list []string) {
		for _, s := range list {
			if s == AllServers {
				for _, a := range all {
					if !slices.Contains(out.Servers, a) {
						out.Servers = append(out.Servers, a)
					}
				}
			} else if !slices.Contains(out.Servers, s) {
				out.Servers = append(out.Servers, s)
			}
		}
	}
	merge := func(k string, f *Filters) {
		acc := out.Filters[k]
		if acc == nil {
			acc = &Filters{}
			out.Filters[k] = acc
		}
		for _, d := range f.ToolDeny {
			if !slices.Contains(acc.ToolDeny, d) {
				acc.ToolDeny = append(acc.ToolDeny, d)
			}
		}
		if f.ToolAllow != nil {
			acc.ToolAllow = slices.Clone(f.ToolAllow)
		}
	}
	for _, base := range p.Extends {
		if _, ok := get(base); !ok {
			return nil, &MissingBaseError{Profile: name, Base: base}
		}
		b, err := referenceResolve(get, all, base, stack)
		if err != nil {
			return nil, err
		}
		add(b.Servers)
		for _, k := range sortedKeys(b.Filters) {
			merge(k, b.Filters[k])
		}
	}
	add(p.Servers)
	for _, k := range sortedKeys(p.ProviderOverrides) {
		if f := p.ProviderOverrides[k]; f != nil {
			merge(k, f)
		}
	}
	return out, nil
}

// randomProfiles builds n profiles with random extends (acyclic unless cycles),
// servers (sometimes __all__), deny lists and allow lists (unset, empty or set), and
// now and then a missing base.
func randomProfiles(rng *rand.Rand, n int, cycles bool) map[string]*Profile {
	name := func(i int) string { return fmt.Sprintf("p%d", i) }
	pick := func(prefix string, max int) []string {
		var out []string
		for range rng.IntN(4) {
			if s := fmt.Sprintf("%s%d", prefix, rng.IntN(max)); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	ps := map[string]*Profile{}
	for i := range n {
		p := &Profile{Name: name(i), Servers: pick("s", 8)}
		if rng.IntN(8) == 0 {
			p.Servers = append(p.Servers, AllServers)
		}
		for range rng.IntN(4) {
			switch {
			case cycles && rng.IntN(6) == 0:
				p.Extends = append(p.Extends, name(rng.IntN(n)))
			case cycles && rng.IntN(20) == 0:
				p.Extends = append(p.Extends, "missing")
			case i > 0:
				p.Extends = append(p.Extends, name(rng.IntN(i)))
			}
		}
		for _, k := range []string{"*", "codex", "claude-code"} {
			if rng.IntN(3) == 0 {
				continue
			}
			f := &Filters{ToolDeny: pick("t", 10)}
			switch rng.IntN(3) {
			case 1:
				f.ToolAllow = []string{}
			case 2:
				f.ToolAllow = pick("a", 5)
				if f.ToolAllow == nil {
					f.ToolAllow = []string{"a0"}
				}
			}
			if p.ProviderOverrides == nil {
				p.ProviderOverrides = map[string]*Filters{}
			}
			p.ProviderOverrides[k] = f
		}
		ps[p.Name] = p
	}
	return ps
}

// TestResolveMatchesDefinition compares the resolver with referenceResolve on
// random extends graphs (diamonds, repeated bases, __all__, unset/empty/set allow
// lists, cycles and missing bases): same servers, filters and errors, for every
// profile, and checkGraph reports exactly the distinct errors.
//
// spec: R4 R5 R6
func TestResolveMatchesDefinition(t *testing.T) {
	all := []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"}
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 11))
		ps := randomProfiles(rng, 2+rng.IntN(14), seed%3 == 0)
		get := func(n string) (*Profile, bool) { p, ok := ps[n]; return p, ok }
		rs := &resolver{get: get, allServers: func() []string { return all }}
		names := sortedKeys(ps)
		var wantErrs []error
		for _, n := range names {
			want, wantErr := referenceResolve(get, all, n, nil)
			got, err := rs.resolve(n)
			if wantErr != nil {
				wantErrs = append(wantErrs, wantErr)
				if err == nil || err.Error() != wantErr.Error() {
					t.Fatalf("seed %d, %s: error %v, want %v", seed, n, err, wantErr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, n, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, %s:\n got %q %s\nwant %q %s", seed, n, got.Servers, show(got.Filters), want.Servers, show(want.Filters))
			}
		}
		got, want := checkGraph(names, get, nil), dedupeErrors(wantErrs)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Fatalf("seed %d: checkGraph %v, want %v", seed, got, want)
		}
	}
}
